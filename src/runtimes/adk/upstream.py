"""ctxc upstream: Google ADK's own texts a ctxc manifest on the `adk` preset refers to under
upstream/, printed on stdout as a JSON list with one object per agent given: the agent-transfer instruction with `{agents}`
and `{agent_names}` where ADK puts the agents' blocks and their sorted names, the line about the
parent with `{parent}`, and the `transfer_to_agent` declaration (its `enum` empty: ctxc fills it).

The texts are taken from ADK's own functions, called with placeholder agents. Input (JSON on
stdin): the list of agents (read for their number only: the texts do not depend on the agent). Nothing is sent anywhere and nothing is written.
"""

import importlib.metadata
import json
import sys
import types
import warnings

warnings.simplefilter("ignore")

from google.adk.flows.llm_flows.extensions import _agent_transfer as transfer
from google.adk.tools.transfer_to_agent_tool import TransferToAgentTool

TOOL = "transfer_to_agent"


def transfer_texts() -> tuple:
    """The body with its placeholders, and the parent line."""
    target = types.SimpleNamespace(name="\x00N", description="\x00D")
    body = transfer._build_transfer_instruction_body(TOOL, [target])
    block = transfer._build_target_agents_info(target)
    if body.count(block) != 1 or body.count("`\x00N`") != 1:
        raise SystemExit("this release builds the transfer instruction differently: ctxc cannot read it")
    template = body.replace(block, "{agents}").replace("`\x00N`", "{agent_names}")
    child = types.SimpleNamespace(mode=None, parent_agent=types.SimpleNamespace(name="\x00P"), disallow_transfer_to_parent=False)
    whole = transfer._build_transfer_instructions(TOOL, child, [target])
    if not whole.startswith(body) or whole.count("\x00P") != 1:
        raise SystemExit("this release adds the parent line differently: ctxc cannot read it")
    return template, whole[len(body) :].replace("\x00P", "{parent}")


def main() -> None:
    agents = json.load(sys.stdin)
    template, parent = transfer_texts()
    declaration = TransferToAgentTool(agent_names=[])._get_declaration()
    written = declaration.model_dump(mode="json", by_alias=True, exclude_none=True)
    texts = (
        {
            "package": "google-adk",
            "version": importlib.metadata.version("google-adk"),
            "texts": {
                "agent_transfer": template,
                "transfer_to_parent": parent,
                "transfer_tool": json.dumps({"functionDeclarations": [written]}, ensure_ascii=False, indent=2) + "\n",
            },
            "sources": {
                "agent_transfer": "google.adk.flows.llm_flows.extensions._agent_transfer._build_transfer_instruction_body",
                "transfer_to_parent": "google.adk.flows.llm_flows.extensions._agent_transfer._build_transfer_instructions, the parent line",
                "transfer_tool": "google.adk.tools.transfer_to_agent_tool.TransferToAgentTool._get_declaration",
            },
            "builtin_tools": [],
        },
    )
    json.dump(list(texts) * len(agents), sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
