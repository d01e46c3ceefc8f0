"""Runs the real Deep Agents on one fixture and prints, as JSON, what the model is sent.

Usage: python harness.py FIXTURE_DIR, or python harness.py PROJECT_DIR deploy|local for a deploy project.

FIXTURE_DIR/runtime.json describes the `create_deep_agent` call (see README.md beside this file).
The agent's files are read through a FilesystemBackend rooted at FIXTURE_DIR in virtual mode, so
`/AGENTS.md` is FIXTURE_DIR/AGENTS.md. A recording chat model answers at once (no network) and
keeps the system message and the tools bound to it.

Printed: the release, the system prompt, the tools (name and the JSON a provider gets), the window
numbers as deepagents computes them, and `texts`: upstream's prose that a ctxc manifest pastes as
modules (never committed in ctxc; the Rust test writes them into a copy of the fixture).
"""

import importlib.metadata
import json
import sys
from pathlib import Path
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool

import deepagents
from deepagents.backends.filesystem import FilesystemBackend
from deepagents.middleware import filesystem as fs_module
from deepagents.middleware import memory as memory_module
from deepagents.middleware import skills as skills_module
from deepagents.middleware import summarization as summarization_module

RELEASE = importlib.metadata.version("deepagents")
LAYOUT_0_4 = RELEASE.startswith("0.4.")


class Recorder(BaseChatModel):
    """A chat model that records each call and answers "done" without calling tools."""

    model_name: str
    provider: str | None = None
    calls: list = []
    bound: list = []

    @property
    def _llm_type(self) -> str:
        return "recorder"

    def _get_ls_params(self, stop=None, **kwargs) -> dict[str, Any]:
        params: dict[str, Any] = {"ls_model_name": self.model_name, "ls_model_type": "chat"}
        if self.provider:
            params["ls_provider"] = self.provider
        return params

    def bind_tools(self, tools, **kwargs):
        self.bound.append([convert_to_openai_tool(t) for t in tools])
        return self

    def _generate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        self.calls.append(list(messages))
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content="done"))])


def model_profile(name: str, provider: str | None) -> dict | None:
    """The profile LangChain's own provider package gives the model (none for unknown models)."""
    if provider != "anthropic":
        return None
    from langchain_anthropic import ChatAnthropic

    return ChatAnthropic(model=name, api_key="unused").profile


def recorder(spec: dict) -> Recorder:
    return Recorder(
        model_name=spec["model"],
        provider=spec.get("provider"),
        profile=model_profile(spec["model"], spec.get("provider")),
        calls=[],
        bound=[],
    )


def system_text(messages) -> str:
    first = messages[0]
    assert first.type == "system", f"the first message is {first.type}, not the system prompt"
    return first.text if isinstance(first.text, str) else first.text()


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


def appended_text(spec: dict, middleware) -> str:
    """What one middleware alone appends to an empty system prompt, recorded from a real call."""
    model = recorder(spec)
    agent = create_agent(model, system_prompt=None, middleware=[middleware])
    agent.invoke({"messages": [HumanMessage(content="hi")]})
    messages = model.calls[0]
    return system_text(messages) if messages and messages[0].type == "system" else ""


def template_tail(template: str, slot: str) -> str:
    """The prose after a template's last slot (skills usage, memory guidelines)."""
    return template.split(slot, 1)[1]


def texts(spec: dict, backend, subagents: list) -> dict[str, str]:
    """Upstream's prose, for the ctxc manifest's modules."""
    out: dict[str, str] = {}
    # ctxc generates the structure around these two (src/systems/deepagents.rs); the prose is a module.
    out["skills_usage"] = template_tail(skills_module.SKILLS_SYSTEM_PROMPT, "{skills_list}\n\n")
    guidelines = template_tail(memory_module.MEMORY_SYSTEM_PROMPT, "<memory_guidelines>\n")
    out["memory_guidelines"] = guidelines.rsplit("\n</memory_guidelines>", 1)[0]
    out["filesystem"] = appended_text(spec, fs_module.FilesystemMiddleware(backend=backend))
    if LAYOUT_0_4:
        from langchain.agents.middleware import TodoListMiddleware

        from deepagents.graph import BASE_AGENT_PROMPT
        from deepagents.middleware.subagents import GENERAL_PURPOSE_SUBAGENT, SubAgentMiddleware

        out["base_prompt"] = BASE_AGENT_PROMPT
        out["todo"] = appended_text(spec, TodoListMiddleware())
        # 0.4's task prompt lists the subagents: recorded with the fixture's own.
        listed = [{**s, "model": recorder(spec), "tools": []} for s in [GENERAL_PURPOSE_SUBAGENT, *subagents]]
        out["subagents"] = appended_text(spec, SubAgentMiddleware(backend=backend, subagents=listed))
    else:
        from deepagents.profiles.harness.harness_profiles import _harness_profile_for_model

        suffix = _harness_profile_for_model(recorder(spec), None).system_prompt_suffix
        if suffix is not None:
            out["profile_suffix"] = suffix
    return out


def window(spec: dict, backend) -> dict:
    model = recorder(spec)
    # deepagents wraps LangChain's SummarizationMiddleware, which holds trigger and keep.
    middleware = summarization_module.create_summarization_middleware(model, backend)
    middleware = getattr(middleware, "_lc_helper", middleware)
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
    prose = texts(spec, backend, kwargs.get("subagents", []))
    # The middleware's own tools (upstream's descriptions), for the manifest's built-in category.
    prose["builtin_tools"] = json.dumps([t for t in tools if t["function"]["name"] not in own], ensure_ascii=False)
    return {
        "release": f"deepagents {RELEASE}",
        "system_prompt": system_text(model.calls[0]),
        "tools": [{"name": t["function"]["name"], "json": t} for t in tools],
        "window": window(spec, backend),
        "texts": prose,
    }


if __name__ == "__main__":
    # `harness.py DIR deploy|local` reads DIR as a deploy project instead of a fixture's runtime.json.
    json.dump(run(Path(sys.argv[1]).resolve(), sys.argv[2] if len(sys.argv) > 2 else None), sys.stdout, ensure_ascii=False, indent=1)
