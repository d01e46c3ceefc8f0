#!/usr/bin/env python3
"""Derive data/models.tsv (ctxc's model table) from the model tables of two installed packages.

Run it with the interpreter of the environment scripts/runtimes installs from
tests/runtimes/python/model-tables.txt (the packages are read as data, never imported):

    target/runtimes/model-tables/bin/python -I scripts/derive-models.py > data/models.tsv

tests/runtimes/models.rs runs this script and compares its output with the committed table.

Sources, each row citing the one its numbers come from (package, version, key):
  * LiteLLM's packaged table, `litellm/model_prices_and_context_window_backup.json`:
    `max_input_tokens` (else `max_tokens`) and `max_output_tokens`, for the chat models of the
    providers' own APIs (PROVIDERS; Vertex AI only for names the Gemini API lacks), keyed by
    the bare model id (the provider's routing prefix dropped);
  * LangChain's model profiles, `_PROFILES` in `<package>/data/_profiles.py` of the provider
    packages Deep Agents uses (LANGCHAIN): `max_input_tokens` and `max_output_tokens`;
  * the provider's own listing, for the few names neither package has (LISTED, each with its
    document);
  * open-weight models (data/open-models.tsv): the LiteLLM key of a host that serves the release
    under its Hugging Face id, as that file names it;
  * retired models, which the current releases dropped (Claude 3, Grok 3, Gemini 2.0...): the
    earlier snapshots in ../shared/corpus/models (LiteLLM's table via RoCry/llm-api-price @
    8442b939a6ead479f7995b5d74d8dce488bd0966, then aider's model-metadata.json @
    5dc9490bb35f9729ef2c95d00a19ccd30c26339c), only for names no current source has.

Precedence: the provider's listing, then LangChain's profile, then LiteLLM (a dated snapshot
LangChain lacks takes the profile of its undated name, as ctxc resolves such names; a profile
without an output limit is partial, and LiteLLM's entry is taken whole). Of the 71 chat models
both packages have, 16 disagree: OpenAI's GPT-5.4 mini/nano and 5.6+ (LiteLLM gives the input
limit, the context window less the output limit: 272,000 and 922,000; LangChain the window,
400,000 and 1,050,000), GPT-4's output (4,096 vs OpenAI's 8,192), a Gemini output limit
(1,048,576 vs 65,536), and the GPT-5 chat models (LangChain 272,000 with no output limit; LiteLLM
and OpenAI's listing 128,000 and 16,384).
LangChain's profiles are what LangChain-based runtimes (Deep Agents) budget with and are kept per
model with LangChain's own corrections; LiteLLM's table is wider but its `max_input_tokens` is
the input limit of the provider's pricing page, which for some families (OpenAI's GPT-5.4 mini
and nano: 272,000 input + 128,000 output) is not the context window the provider lists (400,000).
ctxc's window is the context window the request, the history and the response share (the
response reserve is taken out of it); where the only source gives an input limit, the window is
that limit (the smaller number: a warning comes early, never late).

Only numbers and ids are taken; no prices or text. Output: sorted by model id (byte order), LF.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import runpy
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RETIRED = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "models")
RETIRED_SOURCES = (
    ("litellm_model_prices_and_context_window.json", "litellm (RoCry/llm-api-price @ 8442b93)"),
    ("aider_model-metadata.json", "aider model-metadata.json (@ 5dc9490)"),
)
LITELLM = ("litellm", "litellm/model_prices_and_context_window_backup.json")
# LangChain distribution, its package, and the ctxc provider its profiles are for.
LANGCHAIN = (
    ("langchain-anthropic", "langchain_anthropic", "anthropic"),
    ("langchain-google-genai", "langchain_google_genai", "gemini"),
    ("langchain-openai", "langchain_openai", "openai"),
)
# Names no installed table has, from the provider's or runtime's own document.
LISTED = {
    "claude-3-5-sonnet": ("anthropic", 200000, 8192, 'Zeus documentation, "Model Profiles" table (shared/seeds/000_*)'),
}

# LiteLLM provider -> the key prefixes of its own API (the empty prefix = a bare key).
PROVIDERS = {
    "openai": ("openai/", ""),
    "anthropic": ("anthropic/", ""),
    "gemini": ("gemini/", ""),
    "mistral": ("mistral/", ""),
    "deepseek": ("deepseek/", ""),
    "xai": ("xai/", ""),
    "groq": ("groq/", ""),
    "cohere_chat": ("cohere_chat/", "cohere/", ""),
}
VERTEX = {"vertex_ai-language-models": ("vertex_ai/", "")}
ROUTERS = {
    "openrouter", "vertex_ai", "azure", "azure_ai", "bedrock", "together_ai", "fireworks_ai", "groq",
    "gemini", "mistral", "deepseek", "xai", "openai", "anthropic", "cohere", "cohere_chat", "deepinfra",
    "replicate", "perplexity", "vercel_ai_gateway", "github_copilot",
}
# Fine-tunes and models that are not text chat.
EXCLUDE = re.compile(
    r"(?:^ft:|:ft-|audio|realtime|(?:^|[-/])live(?:[-/]|$)|search|tts|transcribe|image|lyria|embedding|deep-research|computer-use)",
    re.IGNORECASE,
)


def integer(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def undated(name: str) -> str:
    """The name without a trailing `-YYYYMMDD` or `-YYYY-MM-DD`."""
    return re.sub(r"-(?:\d{8}|\d{4}-\d{2}-\d{2})$", "", name)


def without_comments(text: str) -> str:
    """JSON from aider's JSONC: `//` comments and trailing commas outside strings dropped."""
    out, i, quoted = [], 0, False
    while i < len(text):
        ch = text[i]
        if quoted:
            out.append(text[i : i + 2] if ch == "\\" else ch)
            i += 2 if ch == "\\" else 1
            quoted = ch != '"'
            continue
        if text.startswith("//", i):
            i = text.find("\n", i) if "\n" in text[i:] else len(text)
            continue
        quoted = ch == '"'
        out.append(ch)
        i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def data_file(distribution: str, path: str) -> str:
    return str(importlib.metadata.distribution(distribution).locate_file(path))


def bare_name(key: str, prefixes: tuple[str, ...]) -> str | None:
    """The key without its provider's routing prefix; None for another router's key."""
    for p in prefixes:
        if p and key.startswith(p):
            return key[len(p):]
    if "" in prefixes and not ("/" in key and key.split("/", 1)[0] in ROUTERS):
        return key
    return None


def litellm_limits(entry: dict) -> tuple[int, int] | None:
    window = entry.get("max_input_tokens")
    window = integer(entry.get("max_tokens") if window is None else window)
    output = integer(entry.get("max_output_tokens"))
    return (window, output) if window and output else None


def litellm_rows(table: dict, providers: dict, cite: str) -> dict:
    """bare name -> (provider, window, output, source); the key with its provider's prefix wins,
    then the smallest key."""
    found: dict[str, tuple] = {}
    for key in sorted(table):
        entry = table[key]
        if not isinstance(entry, dict) or entry.get("mode") != "chat" or EXCLUDE.search(key):
            continue
        provider = entry.get("litellm_provider")
        name = bare_name(key, providers.get(provider, ()))
        limits = litellm_limits(entry)
        if not name or not limits:
            continue
        rank = (name == key, key)
        if name not in found or rank < found[name][0]:
            found[name] = (rank, (provider, *limits, f"{cite}: {key}"))
    return {name: row for name, (_, row) in found.items()}


def langchain_rows() -> dict:
    """model -> (provider, window, output or None, source)."""
    rows = {}
    for distribution, package, provider in LANGCHAIN:
        cite = f"{distribution} {importlib.metadata.version(distribution)}"
        profiles = runpy.run_path(data_file(distribution, f"{package}/data/_profiles.py"))["_PROFILES"]
        for name, profile in sorted(profiles.items()):
            window = integer(profile.get("max_input_tokens"))
            if not window or profile.get("text_outputs") is False or EXCLUDE.search(name):
                continue
            output = integer(profile.get("max_output_tokens")) or None
            rows[name] = (provider, window, output, f"{cite}: {name}")
    return rows


def open_models(table: dict, cite: str) -> dict:
    """The rows data/open-models.tsv names, with their LiteLLM key's limits."""
    rows = {}
    with open(os.path.join(ROOT, "data/open-models.tsv"), encoding="utf-8") as f:
        lines = [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]
    for model, provider, key in lines[1:]:
        limits = litellm_limits(table.get(key, {}))
        if limits is None:
            sys.exit(f"data/open-models.tsv: {model}: {key} has no limits in {cite}")
        rows[model] = (provider, *limits, f"{cite}: {key}")
    return rows


def tokenizer_for(model: str, provider: str) -> str:
    if model.rsplit("/", 1)[-1].startswith("gpt-oss"):
        return "o200k_base"  # OpenAI's open-weight family, any host
    if provider != "openai":
        return "estimate"
    if re.match(r"^(?:gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o)", model):
        return "o200k_base"
    if model == "gpt-4" or model.startswith("gpt-4-") or model.startswith("gpt-3.5"):
        return "cl100k_base"
    return "estimate"


def main() -> None:
    cite = f"litellm {importlib.metadata.version(LITELLM[0])}"
    with open(data_file(*LITELLM), encoding="utf-8") as f:
        table = json.load(f)
    litellm = litellm_rows(table, PROVIDERS, cite)
    gemini = {n for n, row in litellm.items() if row[0] == "gemini"}
    for name, row in litellm_rows(table, VERTEX, cite).items():
        if name not in gemini:
            litellm.setdefault(name, row)
    langchain = langchain_rows()
    rows = {}
    for name in set(litellm) | set(langchain):
        lite, lang = litellm.get(name), langchain.get(name) or langchain.get(undated(name))
        # A profile without an output limit is a partial one (models.dev lacks the model):
        # LiteLLM's whole entry is taken instead.
        if lang is None or lang[2] is None:
            if lite is not None:
                rows[name] = lite
        else:
            rows[name] = lang
    for name, (provider, window, output, document) in LISTED.items():
        rows[name] = (provider, window, output, document)
    rows.update(open_models(table, cite))
    for file, retired_cite in RETIRED_SOURCES:
        with open(os.path.join(RETIRED, file), encoding="utf-8") as f:
            retired = json.loads(without_comments(f.read()))
        for name, row in litellm_rows(retired, PROVIDERS, retired_cite).items():
            rows.setdefault(name, row)

    sources = ", ".join(f"{d} {importlib.metadata.version(d)}" for d in [LITELLM[0], *(d for d, _, _ in LANGCHAIN)])
    print("# Model profiles: window and output limit per model, derived by scripts/derive-models.py from")
    print(f"# {sources} (tests/runtimes/python/model-tables.txt); its docstring says")
    print("# which number wins when they disagree (the provider's listing, then LangChain, then LiteLLM).")
    print("# max_input_tokens: the context window the request, history and response share (an input")
    print("#   limit where the source gives only that); source: the table and key each row's numbers are from.")
    print("# tokenizer: o200k_base / cl100k_base = tiktoken encoding; estimate = counted with o200k_base,")
    print("#   calibrated by data/tokenizer-models.tsv, or with the model's own tokenizer file when one is found.")
    print("model\tprovider\tmax_input_tokens\tmax_output_tokens\ttokenizer\tsource")
    for name in sorted(rows, key=lambda s: s.encode("utf-8")):
        provider, window, output, source = rows[name]
        print(f"{name}\t{provider}\t{window}\t{output}\t{tokenizer_for(name, provider)}\t{source}")


if __name__ == "__main__":
    main()
