from agentscope.agent import Agent, ContextConfig
from agentscope.model import OpenAIChatModel
from agentscope.tool import Toolkit

from friday.tools import search_docs

PROMPT = """You are Friday, the team's assistant.
Answer in short sentences."""

agent = Agent(
    name="Friday",
    system_prompt=PROMPT,
    model=OpenAIChatModel(credential=credential, model="gpt-4o", stream=False),
    toolkit=Toolkit(tools=[search_docs]),
    context_config=ContextConfig(trigger_ratio=0.7, max_image_num=3),
)
