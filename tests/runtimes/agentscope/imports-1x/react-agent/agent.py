"""An AgentScope 1.x agent as its users write one: a toolkit filled by statements, then a
ReActAgent with compression."""

from agentscope.agent import ReActAgent
from agentscope.formatter import OpenAIChatFormatter
from agentscope.model import OpenAIChatModel
from agentscope.token import OpenAITokenCounter
from agentscope.tool import Toolkit, ToolResponse


def search_orders(customer: str, status: str = "open") -> ToolResponse:
    """Search a customer's orders.

    Args:
        customer (str):
            The customer's id.
        status (str):
            Which orders: open, shipped or all.
    """
    return ToolResponse(content=[])


def refund(order: str) -> ToolResponse:
    """Refund an order in full.

    Args:
        order (str):
            The order's id.
    """
    return ToolResponse(content=[])


toolkit = Toolkit()
toolkit.register_tool_function(search_orders)
toolkit.register_tool_function(refund)

agent = ReActAgent(
    name="Friday",
    sys_prompt="You are Friday, the shop's support agent. Look orders up before you answer.",
    model=OpenAIChatModel(model_name="gpt-4o", api_key="unused", stream=False),
    formatter=OpenAIChatFormatter(),
    toolkit=toolkit,
    compression_config=ReActAgent.CompressionConfig(
        enable=True,
        agent_token_counter=OpenAITokenCounter("gpt-4o"),
        trigger_threshold=8000,
        keep_recent=4,
    ),
)
