"""ctxc upstream: the texts and built-in tool schemas the installed Deep Agents release puts into
a model request, printed on stdout as a JSON list with one object per agent given.

Input (JSON on stdin): a list of agents, each {"model": NAME, "provider": LangChain's provider
name or null, "subagents": [{"name", "description"}]}; "max_tokens" (the model's max output) is
optional. One interpreter reads the texts of every agent given (importing LangChain takes seconds).
The agent is built with a stand-in chat model that answers at once, so nothing is sent anywhere;
nothing is written (the backend only ever lists an empty virtual folder).
"""

import importlib.metadata
import json
import sys
import tempfile
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool

import deepagents
from deepagents.backends.filesystem import FilesystemBackend
from deepagents.middleware import filesystem as fs_module
from deepagents.middleware import memory as memory_module
from deepagents.middleware import skills as skills_module

VERSION = importlib.metadata.version("deepagents")
SERIES_0_4 = VERSION.startswith("0.4.")


class StandIn(BaseChatModel):
    """Answers "done" at once; keeps each call's messages and the tools bound to it."""

    model_name: str
    provider: str | None = None
    calls: list = []
    bound: list = []

    @property
    def _llm_type(self) -> str:
        return "ctxc-stand-in"

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


# LangChain's model class per provider, and the keyword of its API key (a placeholder: nothing is sent).
MODEL_CLASSES = {
    "anthropic": ("langchain_anthropic", "ChatAnthropic", "api_key"),
    "openai": ("langchain_openai", "ChatOpenAI", "api_key"),
    "google_genai": ("langchain_google_genai", "ChatGoogleGenerativeAI", "google_api_key"),
}


def provider_model(spec: dict):
    """The provider's real model class for the model, as `init_chat_model` builds it; None for a
    provider LangChain has no package for here."""
    known = MODEL_CLASSES.get(spec.get("provider") or "")
    if known is None:
        return None
    module, class_name, key = known
    # Deep Agents needs the provider's package for this model: without it the import fails here, as it would there.
    model_class = getattr(__import__(module, fromlist=[class_name]), class_name)
    options = {key: "unused"}
    if spec.get("max_tokens") is not None:
        options["max_tokens"] = spec["max_tokens"]
    return model_class(model=spec["model"], **options)


def stand_in(spec: dict) -> StandIn:
    # The profile LangChain's provider package gives the model decides the summarization
    # defaults and 0.7's harness profile.
    real = provider_model(spec)
    profile = real.profile if real is not None else None
    return StandIn(model_name=spec["model"], provider=spec.get("provider"), profile=profile, calls=[], bound=[])


def first_system_text(messages) -> str:
    if not messages or messages[0].type != "system":
        return ""
    text = messages[0].text
    return text if isinstance(text, str) else text()


def appended_by(spec: dict, middleware) -> str:
    """The text one middleware alone adds to a request that has no system prompt."""
    model = stand_in(spec)
    create_agent(model, system_prompt=None, middleware=[middleware]).invoke({"messages": [HumanMessage(content="hi")]})
    return first_system_text(model.calls[0])


def after(template: str, slot: str) -> str:
    return template.split(slot, 1)[1]


def texts(spec: dict, backend, subagents: list) -> tuple[dict[str, str], dict[str, str]]:
    """The release's prose for the manifest's modules, and where each piece comes from."""
    out: dict[str, str] = {}
    sources: dict[str, str] = {}

    def put(name: str, text: str, source: str) -> None:
        out[name] = text
        sources[name] = source

    put("skills_usage", after(skills_module.SKILLS_SYSTEM_PROMPT, "{skills_list}\n\n"), "deepagents.middleware.skills.SKILLS_SYSTEM_PROMPT, after {skills_list}")
    guidelines = after(memory_module.MEMORY_SYSTEM_PROMPT, "<memory_guidelines>\n").rsplit("\n</memory_guidelines>", 1)[0]
    put("memory_guidelines", guidelines, "deepagents.middleware.memory.MEMORY_SYSTEM_PROMPT, inside <memory_guidelines>")
    put("filesystem", appended_by(spec, fs_module.FilesystemMiddleware(backend=backend)), "what FilesystemMiddleware adds to a request")
    if SERIES_0_4:
        from langchain.agents.middleware import TodoListMiddleware

        from deepagents.graph import BASE_AGENT_PROMPT
        from deepagents.middleware.subagents import GENERAL_PURPOSE_SUBAGENT, SubAgentMiddleware

        put("base_prompt", BASE_AGENT_PROMPT, "deepagents.graph.BASE_AGENT_PROMPT")
        put("todo", appended_by(spec, TodoListMiddleware()), "what TodoListMiddleware adds to a request")
        # 0.4's task prompt lists the subagents.
        listed = [{**s, "model": stand_in(spec), "tools": []} for s in [GENERAL_PURPOSE_SUBAGENT, *subagents]]
        put("subagents", appended_by(spec, SubAgentMiddleware(backend=backend, subagents=listed)), "what SubAgentMiddleware adds, with the project's subagents")
    else:
        from deepagents.profiles.harness.harness_profiles import _harness_profile_for_model

        suffix = _harness_profile_for_model(stand_in(spec), None).system_prompt_suffix
        put("profile_suffix", suffix or "", "the model's harness profile (system_prompt_suffix)" if suffix else "the model has no harness profile suffix")
    return out, sources


def main() -> None:
    json.dump([read(spec) for spec in json.load(sys.stdin)], sys.stdout, ensure_ascii=False)


def read(spec: dict) -> dict:
    """The texts and built-in tools for one agent."""
    subagents = [{"name": s["name"], "description": s.get("description") or "", "system_prompt": ""} for s in spec.get("subagents", [])]
    with tempfile.TemporaryDirectory() as empty:
        backend = FilesystemBackend(root_dir=empty, virtual_mode=True)
        prose, sources = texts(spec, backend, subagents)
        # The tools the runtime binds for an agent with these subagents and no tools of its own.
        model = stand_in(spec)
        agent = deepagents.create_deep_agent(model, backend=backend, subagents=subagents) if subagents else deepagents.create_deep_agent(model, backend=backend)
        agent.invoke({"messages": [HumanMessage(content="hi")]})
    return {"package": "deepagents", "version": VERSION, "texts": prose, "sources": sources, "builtin_tools": model.bound[0] if model.bound else []}


if __name__ == "__main__":
    main()
