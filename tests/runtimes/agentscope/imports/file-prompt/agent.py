"""An AgentScope agent whose prompt is a file of the project, with a local workspace."""

from pathlib import Path

from agentscope import agent as agents
from agentscope.credential import DashScopeCredential
from agentscope.model import DashScopeChatModel
from agentscope.tool import Toolkit
from agentscope.workspace import LocalWorkspace

agent = agents.Agent(
    name="analyst",
    system_prompt=Path("prompts/system.md").read_text(encoding="utf-8"),
    model=DashScopeChatModel(credential=DashScopeCredential(api_key="x"), model="qwen3-32b", stream=False),
    toolkit=Toolkit(skills_or_loaders=["skills/chart-style"]),
    offloader=LocalWorkspace(workdir="ws"),
)
