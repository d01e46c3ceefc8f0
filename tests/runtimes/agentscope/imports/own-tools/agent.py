"""An AgentScope agent with tools of its own, a context size and the compression tool."""

from agentscope.agent import Agent, ContextConfig
from agentscope.credential import AnthropicCredential
from agentscope.model import AnthropicChatModel
from agentscope.permission import PermissionBehavior, PermissionDecision
from agentscope.tool import ToolBase, ToolChunk, Toolkit


class Lookup(ToolBase):
    """A tool defined in Python: ctxc cannot see its schema (tools/functions.json holds it)."""

    is_concurrency_safe = True
    is_read_only = True

    def __init__(self, name, description, parameters):
        super().__init__()
        self.name, self.description, self.input_schema = name, description, parameters

    async def check_permissions(self, tool_input, context):
        return PermissionDecision(behavior=PermissionBehavior.ALLOW, message="ok")

    async def call(self, **kwargs):
        return ToolChunk(content=[])


CITY = {"type": "object", "properties": {"city": {"type": "string", "description": "The city."}}, "required": ["city"]}
TOOLS = [
    Lookup("get_weather", "Gets today's weather of a city.", CITY),
    Lookup("get_time", "Gets the local time of a city.", CITY),
]

config = ContextConfig(reserve_ratio=0.2, compression_tool_enabled=True)
agent = Agent(
    name="concierge",
    system_prompt="You help travellers plan their day. Use the tools; never guess.",
    model=AnthropicChatModel(credential=AnthropicCredential(api_key="x"), model="claude-sonnet-4-5", context_size=150000, stream=False),
    toolkit=Toolkit(tools=TOOLS),
    context_config=config,
)
