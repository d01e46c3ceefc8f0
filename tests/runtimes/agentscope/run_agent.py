"""Builds real AgentScope agents from fixtures and prints, as JSON, what their model is sent.

Usage: run_agent.py FIXTURE_DIR...    the agents described by each FIXTURE_DIR/agentscope.json,
printed as a JSON list in the order given (one interpreter for all of them)
(AgentScope's own texts, which the manifests refer to under upstream/, are written by
`ctxc upstream --python`: src/runtimes/agentscope/upstream.py.)

FIXTURE_DIR/agentscope.json names the agent's constructor arguments (paths relative to the fixture):
  system_prompt   file whose text (without trailing line breaks) is `Agent(system_prompt=...)`
  skills          skill folders passed to `Toolkit(skills_or_loaders=[...])`, in order
  tools           OpenAI function-array files; each function becomes a tool of the toolkit
  workspace       {"workdir": ..., "instructions": file or "builtin"}: a `LocalWorkspace` offloader
  middlewares     files; each is an `on_system_prompt` middleware appending a blank line and its text
  model           {"class": "OpenAIChatModel", "name": ..., "context_size": optional}
  context_config  keyword arguments of `ContextConfig`

The agent is asked one question. Its model is the real model class with `_call_api` replaced by a
recorder that stops the reply, so nothing leaves the machine. Files are read verbatim (CRLF kept).
"""

import asyncio
import json
import os
import sys

# AgentScope logs to stdout: keep stdout for the JSON alone.
OUT, sys.stdout = sys.stdout, sys.stderr

import agentscope  # noqa: E402
from agentscope import model as models
from agentscope import credential as credentials
from agentscope.agent import Agent, ContextConfig
from agentscope.message import UserMsg
from agentscope.middleware import MiddlewareBase
from agentscope.permission import PermissionBehavior, PermissionDecision
from agentscope.tool import Toolkit, ToolBase, ToolChunk
from agentscope.workspace import LocalWorkspace


class Recorded(Exception):
    """Raised by the recording model once it has what it was sent."""


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read().rstrip("\r\n")


class JsonTool(ToolBase):
    """A tool defined by an OpenAI function entry (never called)."""

    is_concurrency_safe = True
    is_read_only = True

    def __init__(self, function):
        super().__init__()
        self.name = function["name"]
        self.description = function.get("description", "")
        self.input_schema = function.get("parameters", {"type": "object", "properties": {}})

    async def check_permissions(self, tool_input, context):
        return PermissionDecision(behavior=PermissionBehavior.ALLOW, message="recorded")

    async def call(self, **kwargs):
        return ToolChunk(content=[])


class AppendText(MiddlewareBase):
    """An on_system_prompt middleware shaped like AgentScope's own (a blank line, then its text)."""

    def __init__(self, text):
        super().__init__()
        self.text = text

    async def on_system_prompt(self, agent, current_prompt):
        return f"{current_prompt}\n\n{self.text}"


def credential_for(class_name):
    prefix = class_name.replace("ChatModel", "").replace("ResponseModel", "")
    cls = getattr(credentials, f"{prefix}Credential")
    fields = cls.model_fields
    return cls(**({"api_key": "recording-no-network"} if "api_key" in fields else {}))


def build_model(spec):
    cls = getattr(models, spec["class"])
    kwargs = {"credential": credential_for(spec["class"]), "model": spec.get("name", "recorded"), "stream": False}
    if "context_size" in spec:
        kwargs["context_size"] = spec["context_size"]
    model = cls(**kwargs)
    sent = {}

    async def record(model_name, messages, tools=None, tool_choice=None, **kwargs):
        sent["messages"] = messages
        sent["tools"] = tools or []
        raise Recorded()

    model._call_api = record
    return model, sent


def system_text(message):
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(block.text for block in content)


async def run(fixture):
    spec = json.load(open(os.path.join(fixture, "agentscope.json"), encoding="utf-8"))
    os.chdir(fixture)
    tools = []
    for path in spec.get("tools", []):
        for entry in json.load(open(path, encoding="utf-8")):
            tools.append(JsonTool(entry.get("function", entry)))
    toolkit = Toolkit(tools=tools, skills_or_loaders=spec.get("skills", []))
    offloader = None
    if "workspace" in spec:
        ws = spec["workspace"]
        instructions = ws.get("instructions", "builtin")
        kwargs = {"workdir": ws["workdir"]}
        if instructions != "builtin":
            kwargs["instructions"] = read(instructions)
        offloader = LocalWorkspace(**kwargs)
    middlewares = [AppendText(read(path)) for path in spec.get("middlewares", [])]
    model, sent = build_model(spec["model"])
    config = ContextConfig(**spec.get("context_config", {}))
    agent = Agent(
        name="recorded",
        system_prompt=read(spec["system_prompt"]) if "system_prompt" in spec else "",
        model=model,
        toolkit=toolkit,
        middlewares=middlewares,
        offloader=offloader,
        context_config=config,
    )
    try:
        await agent.reply(UserMsg(name="user", content="hello"))
    except Recorded:
        pass
    if "messages" not in sent:
        raise SystemExit("the agent never called its model")
    return {
        "release": agentscope.__version__,
        "system_prompt": system_text(sent["messages"][0]),
        "tools": sent["tools"],
        "context_size": model.context_size,
        "compression_at": int(config.trigger_ratio * model.context_size),
        "kept_after_compression": int(config.reserve_ratio * model.context_size),
        "tool_result_limit": config.tool_result_limit,
        "project_dir": os.getcwd(),
    }


def main():
    fixtures = [os.path.abspath(arg) for arg in sys.argv[1:]]
    json.dump([asyncio.run(run(fixture)) for fixture in fixtures], OUT, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
