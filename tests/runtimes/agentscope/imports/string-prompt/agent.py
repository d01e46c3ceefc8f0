"""An AgentScope agent as users write one: the prompt a string in the code, two skills, a
context configuration. Imported by `ctxc import agentscope`, never run by it."""

import asyncio

from agentscope.agent import Agent, ContextConfig
from agentscope.credential import OpenAICredential
from agentscope.message import UserMsg
from agentscope.model import OpenAIChatModel
from agentscope.tool import Toolkit

PROMPT = (
    "You are Friday, the team's research assistant.\n"
    'Answer in "short" sentences;\tcite every source.\n'
    "Caf\u00e9 r\xe9sum\u00e9s are welcome \U0001F600. "  # a comment between the parts
    r"Paths look like C:\data\n (raw)."
)

model = OpenAIChatModel(
    credential=OpenAICredential(api_key="set-at-run-time"),
    model="gpt-4o",
    stream=False,
)


def make_agent() -> Agent:
    toolkit = Toolkit(skills_or_loaders=["skills/report-style", "./skills/cite-sources/"])
    return Agent(
        name="Friday",
        system_prompt=PROMPT,
        model=model,
        toolkit=toolkit,
        context_config=ContextConfig(trigger_ratio=0.7, reserve_ratio=0.15, tool_result_limit=20_000),
    )


agent = make_agent()

if __name__ == "__main__":
    asyncio.run(agent.reply(UserMsg(name="user", content="hello")))
