"""Derive data/deepagents-profiles.tsv: the window facts Deep Agents reads from LangChain's model
classes, for every model the pinned provider packages have a profile for.

Run it with the interpreter of a Deep Agents environment that scripts/runtimes installed:

    target/runtimes/deepagents-0.7.32/bin/python -I scripts/derive-deepagents-profiles.py > data/deepagents-profiles.tsv

Each model class is built as `init_chat_model` builds it (a placeholder key; nothing is sent), and
only numbers are taken from it:
  - max_input_tokens: the class's `profile["max_input_tokens"]` (Deep Agents' window; a profile
    without an integer one counts as no profile, as `compute_summarization_defaults` decides);
  - max_tokens: the output the class reserves when the user sets none (the largest of its
    `max_tokens`, `max_completion_tokens`, `max_output_tokens`, as Deep Agents 0.7's input budget
    reads them; 0 when the class sets none);
  - chars_per_token: what LangChain's summarization counts a token as for that class.
tests/runtimes/deepagents.rs runs this script and compares its output with the committed table.
"""

import importlib.metadata
import inspect
import sys

from langchain.agents.middleware.summarization import _get_approximate_token_counter

PACKAGES = {
    "anthropic": ("langchain-anthropic", "langchain_anthropic", "ChatAnthropic", "api_key"),
    "google_genai": ("langchain-google-genai", "langchain_google_genai", "ChatGoogleGenerativeAI", "google_api_key"),
    "openai": ("langchain-openai", "langchain_openai", "ChatOpenAI", "api_key"),
}
OUTPUT_KEYS = ("max_tokens", "max_completion_tokens", "max_output_tokens")


def chars_per_token(model) -> str:
    counter = _get_approximate_token_counter(model)
    value = counter.keywords.get("chars_per_token")
    if value is None:
        value = inspect.signature(counter.func).parameters["chars_per_token"].default
    return f"{value:g}"


def rows(provider: str) -> list[str]:
    distribution, module, class_name, key = PACKAGES[provider]
    package = __import__(module, fromlist=[class_name, "data"])
    profiles = __import__(f"{module}.data._profiles", fromlist=["_PROFILES"])._PROFILES
    model_class = getattr(package, class_name)
    out = []
    for name in sorted(profiles):
        model = model_class(model=name, **{key: "unused"})
        limit = (model.profile or {}).get("max_input_tokens")
        if not isinstance(limit, int) or isinstance(limit, bool):
            continue
        output = max([v for v in (getattr(model, k, None) for k in OUTPUT_KEYS) if isinstance(v, int) and not isinstance(v, bool)] or [0])
        out.append(f"{provider}\t{name}\t{limit}\t{output}\t{chars_per_token(model)}")
    return out


def main() -> None:
    versions = ", ".join(f"{d} {importlib.metadata.version(d)}" for d, *_ in PACKAGES.values())
    print("# Deep Agents' window facts from LangChain's model classes, derived by")
    print("# scripts/derive-deepagents-profiles.py (numbers only; see its docstring).")
    print(f"# Source: {versions}, langchain {importlib.metadata.version('langchain')}")
    print("# (the pinned releases of tests/runtimes/python/deepagents-*.txt).")
    print("provider\tmodel\tmax_input_tokens\tmax_tokens\tchars_per_token")
    for provider in PACKAGES:
        for row in rows(provider):
            print(row)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
