"""Runs the agent files `ctxc import agentscope` reads and prints, as JSON, what their model is sent.

Usage: run_import.py DIR...    each DIR/agent.py, run as the user runs it (from DIR), must bind a
top-level `agent`; the agents are printed as a JSON list in the order given, with the fields of
run_agent.py. The model's `_call_api` is replaced by a recorder, so nothing leaves the machine.
"""

import asyncio
import json
import os
import runpy
import sys

OUT, sys.stdout = sys.stdout, sys.stderr

import agentscope  # noqa: E402
from agentscope.message import UserMsg  # noqa: E402


class Recorded(Exception):
    """Raised by the recorder once it has what the model was sent."""


def system_text(message):
    content = message.content
    return content if isinstance(content, str) else "".join(block.text for block in content)


async def run(directory):
    os.chdir(directory)
    agent = runpy.run_path(os.path.join(directory, "agent.py"), run_name="imported")["agent"]
    sent = {}

    async def record(model_name, messages, tools=None, tool_choice=None, **kwargs):
        sent["messages"], sent["tools"] = messages, tools or []
        raise Recorded()

    agent.model._call_api = record
    try:
        await agent.reply(UserMsg(name="user", content="hello"))
    except Recorded:
        pass
    if "messages" not in sent:
        raise SystemExit(f"the agent of {directory} never called its model")
    config, size = agent.context_config, agent.model.context_size
    return {
        "release": agentscope.__version__,
        "system_prompt": system_text(sent["messages"][0]),
        "tools": sent["tools"],
        "context_size": size,
        "compression_at": int(config.trigger_ratio * size),
        "kept_after_compression": int(config.reserve_ratio * size),
        "tool_result_limit": config.tool_result_limit,
    }


def main():
    dirs = [os.path.abspath(arg) for arg in sys.argv[1:]]
    json.dump([asyncio.run(run(d)) for d in dirs], OUT, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
