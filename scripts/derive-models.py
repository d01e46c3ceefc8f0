#!/usr/bin/env python3
"""Derive data/models.tsv (model context-window profiles) from third-party JSON.

Inputs (read-only, not part of this repository):
  litellm_model_prices_and_context_window.json  -- litellm's model table, as
      vendored by RoCry/llm-api-price at commit
      8442b939a6ead479f7995b5d74d8dce488bd0966
  aider_model-metadata.json  -- aider's model-metadata.json (JSONC: // comments
      and trailing commas) at commit 5dc9490bb35f9729ef2c95d00a19ccd30c26339c

  Zeus's seed page (shared/seeds/000_*, "Model Profiles") -- the profiles Zeus
      documents for its own model names; they only fill names the tables lack
      (claude-3-5-sonnet, which litellm lists only under routers' prefixes).

Only numeric facts are taken (max input / output token counts) plus the
provider id and model id needed to key them. No prices, descriptions or other
text are copied.

Rules:
  * mode == "chat" only; skip "sample_spec".
  * input limit = max_input_tokens, or max_tokens only when max_input_tokens
    is absent; output limit = max_output_tokens. Both must be integers
    (integral floats such as 2000000.0 are accepted and written as integers).
  * providers: openai, anthropic, gemini, mistral, deepseek, xai, groq,
    cohere_chat; vertex_ai-language-models only for names with no gemini entry.
    (bedrock / together_ai are only a fallback if fewer than MIN_ROWS rows.)
  * the key is the bare model id: the provider's own routing prefix is
    stripped ("gemini/", "mistral/", "xai/", ...). Keys carrying any other
    prefix (e.g. "openrouter/...") are not the provider's own API entry and
    are skipped.
  * drop fine-tunes (ft:) and audio / realtime / live / search / tts /
    transcribe / image / music models.
  * duplicates by bare name: litellm beats aider (aider only fills gaps);
    within litellm the key with the explicit provider prefix wins, then the
    lexicographically smallest key.
  * output sorted by model id (byte order), LF line endings, deterministic.

Usage:
  python3 scripts/derive-models.py [--corpus DIR] [--out FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys

LITELLM_FILE = "litellm_model_prices_and_context_window.json"
AIDER_FILE = "aider_model-metadata.json"
LITELLM_UPSTREAM = (
    "litellm model_prices_and_context_window.json via RoCry/llm-api-price "
    "@ 8442b939a6ead479f7995b5d74d8dce488bd0966"
)
AIDER_UPSTREAM = (
    "aider model-metadata.json (Aider-AI/aider) "
    "@ 5dc9490bb35f9729ef2c95d00a19ccd30c26339c"
)
DEFAULT_CORPUS = "../shared/corpus/models"
DEFAULT_OUT = "data/models.tsv"
REGEN_CMD = "python3 scripts/derive-models.py --corpus ../shared/corpus/models --out data/models.tsv"

MIN_ROWS = 200

# Zeus's documented profiles (seed "Model Profiles" table): model -> (provider, max in, max out).
# Used only for names the two tables lack; the others agree with litellm.
SEED_PROFILES = {
    "claude-3-5-sonnet": ("anthropic", 200000, 8192),
}
SEED_UPSTREAM = 'Zeus documentation, "Model Profiles" table (shared/seeds/000_*)'

# litellm_provider -> accepted key prefixes (the empty prefix = bare key).
PRIMARY_PROVIDERS = {
    "openai": ("openai/", ""),
    "anthropic": ("anthropic/", ""),
    "gemini": ("gemini/", ""),
    "mistral": ("mistral/", ""),
    "deepseek": ("deepseek/", ""),
    "xai": ("xai/", ""),
    "groq": ("groq/", ""),
    "cohere_chat": ("cohere_chat/", "cohere/", ""),
}
VERTEX = "vertex_ai-language-models"
VERTEX_PREFIXES = ("vertex_ai/", "")

# Fallback only (used if the primary set is below MIN_ROWS).
FALLBACK_PROVIDERS = {
    "bedrock": ("bedrock/", ""),
    "together_ai": ("together_ai/",),
}
FALLBACK_FAMILY = {
    "bedrock": re.compile(r"^(?:[a-z]{2}\.)?(?:anthropic|meta|amazon)\."),
    "together_ai": re.compile(r"(?i)(?:llama|qwen)"),
}

# Name fragments that mark non-text-chat or fine-tuned models.
EXCLUDE_RE = re.compile(
    r"(?:^ft:|:ft-|audio|realtime|(?:^|[-/])live(?:[-/]|$)|search|tts|"
    r"transcribe|image|lyria)",
    re.IGNORECASE,
)


# --------------------------------------------------------------------------
# JSONC handling (stdlib only)
# --------------------------------------------------------------------------

def strip_jsonc(text: str) -> str:
    """Remove // and /* */ comments and trailing commas outside strings."""
    out: list[str] = []
    i, n = 0, len(text)
    in_str = False
    while i < n:
        ch = text[i]
        if in_str:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if ch == '"':
                in_str = False
            i += 1
            continue
        if ch == '"':
            in_str = True
            out.append(ch)
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        else:
            out.append(ch)
            i += 1
    # Second pass: drop commas that directly precede } or ] (outside strings).
    s = "".join(out)
    res: list[str] = []
    in_str = False
    i, n = 0, len(s)
    while i < n:
        ch = s[i]
        if in_str:
            res.append(ch)
            if ch == "\\" and i + 1 < n:
                res.append(s[i + 1])
                i += 2
                continue
            if ch == '"':
                in_str = False
            i += 1
            continue
        if ch == '"':
            in_str = True
        elif ch == ",":
            j = i + 1
            while j < n and s[j] in " \t\r\n":
                j += 1
            if j < n and s[j] in "}]":
                i += 1
                continue
        res.append(ch)
        i += 1
    return "".join(res)


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------

def as_int(value) -> int | None:
    """Integer value, accepting integral floats; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def bare_name(key: str, prefixes: tuple[str, ...]) -> str | None:
    """Strip the provider's own routing prefix; None if the key carries a
    foreign prefix (e.g. 'openrouter/...', 'vertex_ai/...' under gemini)."""
    for p in prefixes:
        if p and key.startswith(p):
            return key[len(p):]
    if "" in prefixes:
        # A bare key must not start with some other routing prefix.
        head = key.split("/", 1)[0]
        if "/" in key and head in KNOWN_ROUTERS:
            return None
        return key
    return None


KNOWN_ROUTERS = {
    "openrouter", "vertex_ai", "azure", "azure_ai", "bedrock", "together_ai",
    "fireworks_ai", "groq", "gemini", "mistral", "deepseek", "xai", "openai",
    "anthropic", "cohere", "cohere_chat", "deepinfra", "replicate",
    "perplexity", "vercel_ai_gateway", "github_copilot",
}


def tokenizer_for(model: str, provider: str) -> str:
    base = model.rsplit("/", 1)[-1]
    if base.startswith("gpt-oss"):
        return "o200k_base"  # OpenAI open-weight family, any host
    if provider != "openai":
        return "estimate"
    if re.match(r"^(?:gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o)", base):
        return "o200k_base"
    if base == "gpt-4" or base.startswith("gpt-4-") or base.startswith("gpt-3.5"):
        return "cl100k_base"
    return "estimate"


def limits(entry: dict) -> tuple[int, int] | None:
    if "max_input_tokens" in entry and entry["max_input_tokens"] is not None:
        max_in = as_int(entry["max_input_tokens"])
    else:
        max_in = as_int(entry.get("max_tokens"))
    max_out = as_int(entry.get("max_output_tokens"))
    if max_in is None or max_out is None:
        return None
    return max_in, max_out


def candidates(table: dict, providers: dict, source: str):
    """Yield (bare, provider, key, max_in, max_out, source, has_prefix)."""
    for key in sorted(table):
        if key == "sample_spec":
            continue
        entry = table[key]
        if not isinstance(entry, dict) or entry.get("mode") != "chat":
            continue
        prov = entry.get("litellm_provider")
        if prov not in providers:
            continue
        if EXCLUDE_RE.search(key):
            continue
        name = bare_name(key, providers[prov])
        if not name:
            continue
        fam = FALLBACK_FAMILY.get(prov)
        if fam is not None and not fam.search(name):
            continue
        lim = limits(entry)
        if lim is None:
            continue
        yield name, prov, key, lim[0], lim[1], source, name != key


def pick(cands):
    """Dedupe by bare name: litellm over aider, prefixed key over bare key,
    then smallest key."""
    best: dict[str, tuple] = {}
    for c in cands:
        name, _prov, key, _i, _o, source, prefixed = c
        rank = (source != "litellm", not prefixed, key)
        if name not in best or rank < best[name][0]:
            best[name] = (rank, c)
    return {n: v[1] for n, v in best.items()}


def sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


# --------------------------------------------------------------------------

def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--out", default=DEFAULT_OUT)
    args = ap.parse_args(argv)

    lpath = os.path.join(args.corpus, LITELLM_FILE)
    apath = os.path.join(args.corpus, AIDER_FILE)
    with open(lpath, encoding="utf-8") as f:
        litellm = json.load(f)
    with open(apath, encoding="utf-8") as f:
        aider = json.loads(strip_jsonc(f.read()))

    def collect(providers):
        c = list(candidates(litellm, providers, "litellm"))
        c += list(candidates(aider, providers, "aider"))
        return c

    primary = pick(collect(PRIMARY_PROVIDERS))
    vertex = pick(collect({VERTEX: VERTEX_PREFIXES}))
    rows = dict(primary)
    gemini_names = {n for n, c in primary.items() if c[1] == "gemini"}
    for n, c in vertex.items():
        if n not in gemini_names and n not in rows:
            rows[n] = c
    for n, (prov, max_in, max_out) in SEED_PROFILES.items():
        rows.setdefault(n, (n, prov, n, max_in, max_out, "seed", False))
    if len(rows) < MIN_ROWS:
        for n, c in sorted(pick(collect(FALLBACK_PROVIDERS)).items()):
            if len(rows) >= MIN_ROWS:
                break
            rows.setdefault(n, c)

    lines = [
        "# Model context-window profiles, derived by scripts/derive-models.py.",
        f"# Source 1: {LITELLM_FILE} -- {LITELLM_UPSTREAM}",
        f"#   sha256 {sha256(lpath)}",
        f"# Source 2: {AIDER_FILE} -- {AIDER_UPSTREAM}",
        f"#   sha256 {sha256(apath)}",
        f"# Source 3: {SEED_UPSTREAM}: {', '.join(sorted(SEED_PROFILES))}",
        "# Only numeric facts (max input / output tokens) were taken, keyed by",
        "# model id and litellm provider id; no prices or text were copied.",
        "# litellm wins over aider on conflicts; aider, then source 3, only fill missing models.",
        "# tokenizer: o200k_base / cl100k_base = tiktoken encoding; estimate = no",
        "# public tokenizer we can run.",
        f"# Regenerate: {REGEN_CMD}",
        "model\tprovider\tmax_input_tokens\tmax_output_tokens\ttokenizer",
    ]
    for name in sorted(rows, key=lambda s: s.encode("utf-8")):
        _n, prov, _key, max_in, max_out, _src, _p = rows[name]
        lines.append(
            f"{name}\t{prov}\t{max_in}\t{max_out}\t{tokenizer_for(name, prov)}"
        )
    data = ("\n".join(lines) + "\n").encode("utf-8")

    out_dir = os.path.dirname(args.out)
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    tmp = args.out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, args.out)
    print(f"wrote {args.out}: {len(rows)} rows", file=sys.stderr)
    if len(rows) < MIN_ROWS:
        print(f"error: fewer than {MIN_ROWS} rows", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
