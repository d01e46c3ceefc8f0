"""Builds real AgentScope 1.x agents (`ReActAgent`) from fixtures and prints, as JSON, what their
model is sent: the 1.x counterpart of run_agent.py (2.x's `Agent`).

Usage: run_react_agent.py FIXTURE_DIR...    one JSON list, a run per FIXTURE_DIR, in order

FIXTURE_DIR/agentscope.json names the agent's constructor arguments (paths relative to the fixture):
  system_prompt   file whose text (without trailing line breaks) is `ReActAgent(sys_prompt=...)`
  skills          folders passed to `Toolkit.register_agent_skill`, in order, as written
  tools           OpenAI function-array files; each function is registered with
                  `Toolkit.register_tool_function(..., json_schema=entry)`
  model           {"class": "OpenAIChatModel", "name": ...}

The agent is asked one question. The model is the real `OpenAIChatModel` with the real
`OpenAIChatFormatter`; its client is replaced by a recorder that stops the reply once it has the
request, so nothing leaves the machine. Files are read verbatim (CRLF kept).
"""

import asyncio
import json
import os
import sys

# AgentScope logs to stdout: keep stdout for the JSON alone.
OUT, sys.stdout = sys.stdout, sys.stderr

import agentscope  # noqa: E402
from agentscope.agent import ReActAgent  # noqa: E402
from agentscope.formatter import OpenAIChatFormatter  # noqa: E402
from agentscope.message import Msg  # noqa: E402
from agentscope.model import OpenAIChatModel  # noqa: E402
from agentscope.tool import Toolkit, ToolResponse  # noqa: E402


class Recorded(Exception):
    """Raised by the recording client once it has what it was sent."""


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read().rstrip("\r\n")


class RecordingClient:
    """Stands in for `openai.AsyncClient`: `chat.completions.create(**kwargs)` records kwargs."""

    def __init__(self, sent):
        self.chat = self
        self.completions = self
        self.sent = sent

    async def create(self, **kwargs):
        self.sent.update(kwargs)
        raise Recorded()


def never_called(**kwargs):
    """A tool whose schema is given as JSON (never called)."""
    return ToolResponse(content=[])


def system_text(message):
    content = message["content"]
    if isinstance(content, str):
        return content
    return "".join(block["text"] for block in content)


async def run(fixture):
    spec = json.load(open(os.path.join(fixture, "agentscope.json"), encoding="utf-8"))
    os.chdir(fixture)
    toolkit = Toolkit()
    for path in spec.get("tools", []):
        for entry in json.load(open(path, encoding="utf-8")):
            entry = entry if "function" in entry else {"type": "function", "function": entry}
            toolkit.register_tool_function(never_called, func_name=entry["function"]["name"], json_schema=entry)
    for skill in spec.get("skills", []):
        toolkit.register_agent_skill(skill)
    if spec["model"]["class"] != "OpenAIChatModel":
        raise SystemExit("run_react_agent.py records OpenAIChatModel only")
    model = OpenAIChatModel(model_name=spec["model"].get("name", "recorded"), api_key="recording-no-network", stream=False)
    sent = {}
    model.client = RecordingClient(sent)
    agent = ReActAgent(
        name="recorded",
        sys_prompt=read(spec["system_prompt"]) if "system_prompt" in spec else "",
        model=model,
        formatter=OpenAIChatFormatter(),
        toolkit=toolkit,
    )
    try:
        await agent.reply(Msg("user", "hello", "user"))
    except Recorded:
        pass
    if "messages" not in sent:
        raise SystemExit("the agent never called its model")
    return {
        "release": agentscope.__version__,
        "system_prompt": system_text(sent["messages"][0]),
        "tools": sent.get("tools", []),
        "project_dir": os.getcwd(),
    }


def main():
    fixtures = [os.path.abspath(arg) for arg in sys.argv[1:]]
    json.dump([asyncio.run(run(fixture)) for fixture in fixtures], OUT, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
