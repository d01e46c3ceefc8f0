"""ctxc upstream: AgentScope's own texts a ctxc manifest refers to under upstream/, printed as one
JSON list on stdout, one object per agent given: the instruction inside the skills block (`DEFAULT_SKILL_INSTRUCTION`
between `<agent-skills>` and the list, with the skill viewer's name filled in), the `LocalWorkspace`
instructions template, the skill viewer tool's schema, and the compression tool's schema. A 1.x
release (`ReActAgent`) has only the skills instruction (`Toolkit._DEFAULT_AGENT_SKILL_INSTRUCTION`,
the text before the list of skills); the other texts are empty and it binds no tool of its own.

Input (JSON on stdin): the list of agents, read for their number only: the texts do not depend on
the agent. Nothing is sent
anywhere and nothing is written.
"""

import asyncio
import contextlib
import importlib.metadata
import json
import sys

# AgentScope logs to stdout while importing: keep stdout for the JSON alone.
with contextlib.redirect_stdout(sys.stderr):
    from agentscope.tool import Toolkit, _toolkit

    LINE_1 = importlib.metadata.version("agentscope").startswith("1.")
    if not LINE_1:
        from agentscope.agent import _agent as agent_module
        from agentscope.workspace import _utils as workspace_utils

        VIEWER = Toolkit().builtin_skill_viewer


def compression_tool() -> list:
    """The tool `compression_tool_enabled` adds (2.0.8 and later; none before), as the toolkit
    gives its schema: an agent with a placeholder model (never called) builds it."""
    if not hasattr(agent_module, "_COMPRESSION_TOOL_NAME"):
        return []
    from agentscope import credential, model

    with contextlib.redirect_stdout(sys.stderr):
        stand_in = model.OpenAIChatModel(credential=credential.OpenAICredential(api_key="unused"), model="unused", stream=False)
        agent = agent_module.Agent(name="ctxc", system_prompt="", model=stand_in)
        return asyncio.run(Toolkit(tools=[agent._compression_tool]).get_tool_schemas())


def line_1() -> dict:
    """A 1.x release's texts: the skills instruction `Toolkit.get_agent_skill_prompt` starts with."""
    return {
        "package": "agentscope",
        "version": importlib.metadata.version("agentscope"),
        "texts": {"skill_instruction": Toolkit._DEFAULT_AGENT_SKILL_INSTRUCTION, "workspace": "", "compression_tool": "[]\n"},
        "sources": {
            "skill_instruction": "agentscope.tool._toolkit.Toolkit._DEFAULT_AGENT_SKILL_INSTRUCTION, before the list of skills",
            "compression_tool": "none in 1.x (an empty list)",
        },
        "builtin_tools": [],
    }


def main() -> None:
    agents = json.load(sys.stdin)
    json.dump([texts()] * len(agents), sys.stdout, ensure_ascii=False)


def texts() -> dict:
    """The installed release's texts."""
    if LINE_1:
        return line_1()
    template = _toolkit.DEFAULT_SKILL_INSTRUCTION
    instruction = template.split("<agent-skills>\n", 1)[1].split("\n\n# Available Skills:", 1)[0]
    return {
        "package": "agentscope",
        "version": importlib.metadata.version("agentscope"),
        "texts": {
            "skill_instruction": instruction.replace("{{ skill_viewer }}", VIEWER.tool.name),
            "workspace": workspace_utils.DEFAULT_WORKSPACE_INSTRUCTIONS,
            "compression_tool": json.dumps(compression_tool(), ensure_ascii=False, indent=2) + "\n",
        },
        "sources": {
            "skill_instruction": "agentscope.tool._toolkit.DEFAULT_SKILL_INSTRUCTION, inside <agent-skills> before the list",
            "workspace": "agentscope.workspace._utils.DEFAULT_WORKSPACE_INSTRUCTIONS",
            "compression_tool": "the tool Agent adds with ContextConfig.compression_tool_enabled (an empty list before 2.0.8)",
        },
        "builtin_tools": [VIEWER.get_tool_schema()],
    }


if __name__ == "__main__":
    main()
