"""Runs the AgentScope 1.x agent files `ctxc import agentscope` reads and prints, as JSON, what
their model is sent: the 1.x counterpart of run_import.py.

Usage: run_import_react.py DIR...    each DIR/agent.py, run as the user runs it (from DIR), must
bind a top-level `agent` (a `ReActAgent` on `OpenAIChatModel`); printed as a JSON list in the order
given, with the fields of run_react_agent.py. The model's client is run_react_agent.py's recorder,
so nothing leaves the machine (the token counter's tiktoken files are seeded from the cargo
registry by scripts/offline_tiktoken.py).
"""

import asyncio
import json
import os
import runpy
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_react_agent  # noqa: E402  (keeps stdout for the JSON: run_react_agent.OUT)

# The agent's OpenAITokenCounter counts before the first call: tiktoken's files from the cargo registry.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
import offline_tiktoken  # noqa: E402,F401

import agentscope  # noqa: E402
from agentscope.message import Msg  # noqa: E402


async def run(directory):
    os.chdir(directory)
    agent = runpy.run_path(os.path.join(directory, "agent.py"), run_name="imported")["agent"]
    sent = {}
    agent.model.client = run_react_agent.RecordingClient(sent)
    try:
        await agent.reply(Msg("user", "hello", "user"))
    except run_react_agent.Recorded:
        pass
    if "messages" not in sent:
        raise SystemExit(f"the agent of {directory} never called its model")
    config = agent.compression_config
    return {
        "release": agentscope.__version__,
        "system_prompt": run_react_agent.system_text(sent["messages"][0]),
        "tools": sent.get("tools", []),
        "compression": {"enable": config.enable, "trigger_threshold": config.trigger_threshold, "keep_recent": config.keep_recent} if config else None,
    }


def main():
    dirs = [os.path.abspath(arg) for arg in sys.argv[1:]]
    json.dump([asyncio.run(run(d)) for d in dirs], run_react_agent.OUT, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
