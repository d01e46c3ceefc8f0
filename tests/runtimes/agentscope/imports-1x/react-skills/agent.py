"""An AgentScope 1.x agent with skills registered one statement each, and no compression."""

from agentscope.agent import ReActAgent
from agentscope.formatter import OpenAIChatFormatter
from agentscope.model import OpenAIChatModel
from agentscope.tool import Toolkit

kit = Toolkit()
kit.register_agent_skill("skills/refund-policy")
kit.register_agent_skill(skill_dir="skills/order-lookup")

agent = ReActAgent(
    name="Friday",
    sys_prompt="You are Friday, the shop's support agent.\nUse a skill when one fits.",
    model=OpenAIChatModel(model_name="gpt-4o", api_key="unused", stream=False),
    formatter=OpenAIChatFormatter(),
    toolkit=kit,
)
