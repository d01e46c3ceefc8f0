"""Builds each fixture's agent with the installed google-adk and records what its model is sent.

For each project folder given (ADK's own texts already written under upstream/ by `ctxc upstream`):
writes the declarations of the agent's function tools as ADK makes them (tools.json), then runs
one turn through an InMemoryRunner with a scripted model (no network) and prints, per folder, the
system instruction and the function declarations of the agent's first request, as JSON.

The fixture's ctxc.toml gives the agent (name, description, modules, [adk] tree, the scenario's
vars as session state); its adk.json says how the global instruction is given ("plugin" or
"field") and which of the functions below are its tools.
"""

import asyncio
import copy
import json
import pathlib
import sys
import tomllib
import warnings

from google.adk.agents import LlmAgent
from google.adk.apps.app import App
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.plugins.global_instruction_plugin import GlobalInstructionPlugin
from google.adk.runners import InMemoryRunner
from google.adk.tools.function_tool import FunctionTool
from google.genai import types

warnings.simplefilter("ignore")


def get_weather(city: str, days: int = 1) -> dict:
    """Gets the weather forecast of a city.

    Args:
      city: The city, e.g. "Paris".
      days: How many days ahead, 1 to 7.
    """
    return {}


def search_orders(customer_id: str, status: list[str], limit: int | None = None) -> list:
    """Searches a customer's orders by status."""
    return []


def refund(order_id: str, amount_cents: int, reason: str = "") -> str:
    """Refunds part or all of an order."""
    return ""


FUNCTIONS = {f.__name__: f for f in (get_weather, search_orders, refund)}


class Scripted(BaseLlm):
    """Records each request; answers with text, or first transfers to `transfer_to`."""

    model: str = "gemini-2.5-flash"
    seen: list = []
    transfer_to: str | None = None

    async def generate_content_async(self, llm_request, stream=False):
        self.seen.append(copy.deepcopy(llm_request))
        if self.transfer_to and len(self.seen) == 1:
            call = types.FunctionCall(name="transfer_to_agent", args={"agent_name": self.transfer_to})
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(function_call=call)]))
        else:
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text="ok")]))


def dump(declaration):
    return declaration.model_dump(mode="json", by_alias=True, exclude_none=True)


def agent_ref(ref, model, **extra):
    return LlmAgent(name=ref["name"], description=ref.get("description", ""), model=model, instruction="", **extra)


async def run(root):
    manifest = tomllib.loads((root / "ctxc.toml").read_text())
    spec = json.loads((root / "adk.json").read_text())
    tools = [FUNCTIONS[name] for name in spec.get("tools", [])]
    if tools:
        declarations = [dump(FunctionTool(f)._get_declaration()) for f in tools]
        (root / "tools.json").write_text(json.dumps({"function_declarations": declarations}, indent=2))
    modules = manifest.get("modules", {})
    text = lambda module: (root / modules[module]["source"]).read_text() if module in modules else ""
    adk = manifest.get("adk", {})
    agent = manifest["agent"]
    ours = Scripted(seen=[])
    other = Scripted(seen=[], transfer_to=agent["name"])
    global_instruction = text("global_instruction")
    # The deprecated field is read from the root agent.
    field = {"global_instruction": global_instruction} if global_instruction and spec.get("global") == "field" else {}
    me = LlmAgent(
        name=agent["name"],
        description=agent.get("description", ""),
        model=ours,
        instruction=text("instruction"),
        tools=tools,
        sub_agents=[agent_ref(a, other) for a in adk.get("sub_agents", [])],
        disallow_transfer_to_parent=adk.get("disallow_transfer_to_parent", False),
        disallow_transfer_to_peers=adk.get("disallow_transfer_to_peers", False),
        **({} if "parent" in adk else field),
    )
    top = me
    if "parent" in adk:
        peers = [agent_ref(a, other) for a in adk.get("peers", [])]
        top = agent_ref(adk["parent"], other, sub_agents=[me, *peers], **field)
    plugins = [GlobalInstructionPlugin(global_instruction=global_instruction)] if global_instruction and spec.get("global") == "plugin" else []
    runner = InMemoryRunner(app=App(name="fixture", root_agent=top, plugins=plugins))
    scenarios = manifest.get("scenarios", {})
    state = next(iter(scenarios.values()), {}).get("vars", {})
    session = await runner.session_service.create_session(app_name="fixture", user_id="u", state=state)
    message = types.Content(role="user", parts=[types.Part(text="Hello.")])
    async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
        pass
    request = ours.seen[0]
    declarations = [dump(d) for tool in request.config.tools or [] for d in tool.function_declarations or []]
    return {"system_instruction": request.config.system_instruction or "", "declarations": declarations}


async def main():
    results = [await run(pathlib.Path(arg)) for arg in sys.argv[1:]]
    json.dump(results, sys.stdout)


asyncio.run(main())
