"""Loads each Agent Config fixture with the installed google-adk and records what its model is sent.

For each folder given: `config_agent_utils.from_config(FOLDER/root_agent.yaml)` builds the agent
tree, as `adk run` does. The declarations of the root agent's tools are written into
FOLDER/tools/functions.json as docs/runtimes/adk.md tells a user to write them. Then one turn runs
through an InMemoryRunner with a scripted model in place of the root's (no network), the session
state read from FOLDER/state.json. Prints, per folder, the model ADK resolved, the system
instruction and the function declarations of the root's first request, as JSON.
"""

import asyncio
import copy
import json
import pathlib
import sys
import warnings

from google.adk.agents import config_agent_utils
from google.adk.apps.app import App
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.adk.tools.function_tool import FunctionTool
from google.genai import types

warnings.simplefilter("ignore")


class Scripted(BaseLlm):
    """Records each request and answers with text."""

    seen: list = []

    async def generate_content_async(self, llm_request, stream=False):
        self.seen.append(copy.deepcopy(llm_request))
        yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text="ok")]))


def declarations(agent):
    """The declarations of the agent's tools, as the user writes them into tools/functions.json."""
    tools = [tool if hasattr(tool, "_get_declaration") else FunctionTool(tool) for tool in agent.tools]
    return [d.model_dump(mode="json", by_alias=True, exclude_none=True) for d in (t._get_declaration() for t in tools) if d]


async def run(folder):
    agent = config_agent_utils.from_config(str(folder / "root_agent.yaml"))
    if agent.tools:
        (folder / "tools").mkdir(exist_ok=True)
        (folder / "tools" / "functions.json").write_text(json.dumps({"function_declarations": declarations(agent)}, indent=2))
    model = agent.canonical_model.model
    agent.model = Scripted(model=model, seen=[])
    state_file = folder / "state.json"
    state = json.loads(state_file.read_text()) if state_file.exists() else {}
    runner = InMemoryRunner(app=App(name="fixture", root_agent=agent))
    session = await runner.session_service.create_session(app_name="fixture", user_id="u", state=state)
    message = types.Content(role="user", parts=[types.Part(text="Hello.")])
    async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
        pass
    request = agent.model.seen[0]
    sent = [dump for tool in request.config.tools or [] for dump in (d.model_dump(mode="json", by_alias=True, exclude_none=True) for d in tool.function_declarations or [])]
    return {"model": request.model, "system_instruction": request.config.system_instruction or "", "declarations": sent}


async def main():
    results = [await run(pathlib.Path(arg)) for arg in sys.argv[1:]]
    json.dump(results, sys.stdout)


asyncio.run(main())
