"""Runs the real Deep Agents on fixtures and prints, as JSON, what the model is sent.

Usage: python harness.py DIR..., each DIR a fixture, or PROJECT_DIR:deploy / PROJECT_DIR:local for a
deploy project mounted as that layout. Printed: a JSON list, one run per DIR in the order given
(one interpreter for all of them: importing deepagents and LangChain is most of a run's time).

FIXTURE_DIR/runtime.json describes the `create_deep_agent` call (see README.md beside this file).
The agent's files are read through a FilesystemBackend rooted at FIXTURE_DIR in virtual mode, so
`/AGENTS.md` is FIXTURE_DIR/AGENTS.md. A recording chat model answers at once (no network) and
keeps the system message and the tools bound to it.

For each run: the release, the system prompt, the tools (name and the JSON a provider gets), the window
numbers as deepagents computes them, and `texts`: upstream's prose that a ctxc manifest pastes as
modules (never committed in ctxc; the Rust test writes them into a copy of the fixture).
"""

import importlib.metadata
import importlib.util
import inspect
import json
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from langchain.agents.middleware import AgentMiddleware
from langchain_core.messages import HumanMessage

import deepagents
from deepagents.backends.filesystem import FilesystemBackend
from deepagents.middleware import filesystem as fs_module
from deepagents.middleware import summarization as summarization_module

RELEASE = importlib.metadata.version("deepagents")


# The stand-in model and the texts are those `ctxc upstream` reads from a release
# (src/runtimes/deepagents/upstream.py): the fixtures exercise that script too.
_spec = importlib.util.spec_from_file_location("ctxc_upstream", Path(__file__).resolve().parents[3] / "src/runtimes/deepagents/upstream.py")
upstream = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(upstream)
recorder = upstream.stand_in


def system_text(messages) -> str:
    assert messages and messages[0].type == "system", "the first message is not the system prompt"
    return upstream.first_system_text(messages)


class AppendText(AgentMiddleware):
    """A user middleware appending its text to the system prompt, as custom middleware does."""

    def __init__(self, name: str, text: str):
        super().__init__()
        self._name = name
        self._text = text

    @property
    def name(self) -> str:
        return self._name

    def wrap_model_call(self, request, handler):
        from deepagents.middleware._utils import append_to_system_message

        return handler(request.override(system_message=append_to_system_message(request.system_message, self._text)))


def window(spec: dict, backend) -> dict:
    # The provider's real model class (its profile, its default max tokens, its token counting);
    # a model LangChain has no class for is the stand-in without a profile.
    model = upstream.provider_model(spec) or recorder(spec)
    summarization = summarization_module.create_summarization_middleware(model, backend)
    # 0.7's input budget, as it computes it for a request to this model with no settings of its own.
    budget = summarization._input_budget(SimpleNamespace(model=model, model_settings={})) if hasattr(summarization, "_input_budget") else None
    counter = summarization.token_counter
    chars = getattr(counter, "keywords", {}).get("chars_per_token")
    if chars is None:
        chars = inspect.signature(getattr(counter, "func", counter)).parameters["chars_per_token"].default
    # deepagents wraps LangChain's SummarizationMiddleware, which holds trigger and keep.
    middleware = getattr(summarization, "_lc_helper", summarization)
    max_input = middleware._get_profile_limits()

    def size(pair):
        kind, value = pair
        # As LangChain's `_should_summarize` and `_find_token_based_cutoff` compute it.
        tokens = int(max_input * value) if kind == "fraction" and max_input else (value if kind == "tokens" else None)
        return {"kind": kind, "value": value, "tokens": tokens}

    trigger = middleware.trigger[0] if isinstance(middleware.trigger, list) else middleware.trigger
    fs = fs_module.FilesystemMiddleware(backend=backend)
    out = {
        "model_profile": model.profile is not None,
        "max_input_tokens": max_input,
        "trigger": size(trigger),
        "keep": size(middleware.keep),
        "input_budget": budget,
        "summary_chars_per_token": chars,
        "tool_token_limit_before_evict": fs._tool_token_limit_before_evict,
        "chars_per_token": fs_module.NUM_CHARS_PER_TOKEN,
    }
    if hasattr(fs, "_human_message_token_limit_before_evict"):
        out["human_message_token_limit_before_evict"] = fs._human_message_token_limit_before_evict
    return out


def read(root: Path, rel: str) -> str:
    """A file's text exactly (no newline translation, as ctxc reads it)."""
    return (root / rel).read_bytes().decode("utf-8")


def prompt_file(root: Path, rel: str) -> str:
    """A prompt as the Python string a user writes: ctxc drops a module file's final line breaks."""
    return read(root, rel).rstrip("\r\n")


def project_spec(root: Path, layout: str) -> dict:
    """A deploy project (agent.json, AGENTS.md, skills/, subagents/<name>/) as the call that mounts
    it: deploy as deepagents_cli deploy/templates.py (c7d529ca0) does (memory /memories/AGENTS.md,
    skills /memories/skills/, no system prompt, each subagent's AGENTS.md its prompt), local as a
    FilesystemBackend rooted at the project."""
    agent = json.loads(read(root, "agent.json"))
    model = agent.get("model") or agent["runtime"]["model"]["model_id"]
    provider, _, name = model.rpartition(":")
    mount = "/memories/" if layout == "deploy" else "/"
    spec = {"model": name, "provider": provider or None, "mount": mount, "memory": [f"{mount}AGENTS.md"], "skills": [f"{mount}skills/"]}
    subagents = sorted(p for p in (root / "subagents").glob("*/agent.json"))
    if subagents:
        spec["subagents"] = [
            {"name": p.parent.name, "description": json.loads(p.read_text()).get("description", ""), "system_prompt": f"subagents/{p.parent.name}/AGENTS.md"}
            for p in subagents
        ]
    return spec


def run(root: Path, layout: str | None = None) -> dict:
    spec = project_spec(root, layout) if layout else json.loads(read(root, "runtime.json"))
    backend = FilesystemBackend(root_dir=str(root), virtual_mode=True)
    if spec.get("mount", "/") != "/":
        # The deploy template's mounting: the project under a route such as /memories/.
        from deepagents.backends.composite import CompositeBackend

        backend = CompositeBackend(default=FilesystemBackend(root_dir=str(root / "upstream"), virtual_mode=True), routes={spec["mount"]: backend})
    model = recorder(spec)
    kwargs: dict[str, Any] = {"backend": backend}
    if spec.get("system_prompt") is not None:
        kwargs["system_prompt"] = prompt_file(root, spec["system_prompt"])
    for key in ("memory", "skills", "interrupt_on"):
        if key in spec:
            kwargs[key] = spec[key]
    if "tools" in spec:
        kwargs["tools"] = json.loads(read(root, spec["tools"]))
    if "subagents" in spec:
        kwargs["subagents"] = [
            {"name": s["name"], "description": s["description"], "system_prompt": prompt_file(root, s["system_prompt"])}
            for s in spec["subagents"]
        ]
    if "middleware" in spec:
        kwargs["middleware"] = [AppendText(m["name"], prompt_file(root, m["text"])) for m in spec["middleware"]]
    agent = deepagents.create_deep_agent(model, **kwargs)
    agent.invoke({"messages": [HumanMessage(content="hi")]})
    assert model.calls, "the model was never called"
    tools = model.bound[0] if model.bound else []
    own = {t["function"]["name"] for t in kwargs.get("tools", [])}
    prose, _ = upstream.texts(spec, backend, kwargs.get("subagents", []))
    # The middleware's own tools (upstream's descriptions), for the manifest's built-in category.
    prose["builtin_tools"] = json.dumps([t for t in tools if t["function"]["name"] not in own], ensure_ascii=False)
    return {
        "release": f"deepagents {RELEASE}",
        "system_prompt": system_text(model.calls[0]),
        "tools": [{"name": t["function"]["name"], "json": t} for t in tools],
        "window": window(spec, backend),
        "texts": prose,
    }


def run_arg(arg: str) -> dict:
    # `DIR:deploy` / `DIR:local` reads DIR as a deploy project instead of a fixture's runtime.json.
    path, _, layout = arg.rpartition(":") if arg.endswith((":deploy", ":local")) else (arg, "", "")
    return run(Path(path).resolve(), layout or None)


if __name__ == "__main__":
    json.dump([run_arg(arg) for arg in sys.argv[1:]], sys.stdout, ensure_ascii=False, indent=1)
