//! TOOL010: a file given as a tool file that holds no tool format at all.
//!
//! Found by [`crate::tools::parse_tool_file`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A file given as a tool file (in `[tools.X] files`, or to `ctxc cost`) is neither a tool file nor a manifest.",
    why: "ctxc recognises tool files by their content: MCP `tools/list` results and captures, OpenAI Chat and Responses \
          function tools, Anthropic tool arrays, Gemini `functionDeclarations`, BFCL records, JSON Lines of any of \
          these and SWE-agent tool bundles. A file with none of these shapes would add no tools, so the prompt and the \
          cost report would silently miss them. The message names what the file holds instead. The usual mistake is \
          an MCP server configuration (`.mcp.json`, Claude Desktop's `mcpServers`, VS Code's `servers`): it says how \
          to start servers, not which tools they offer; save each server's `tools/list` result and give that file.",
    fails: Example {
        file: "tools/servers.json",
        text: "{\n  \"mcpServers\": {\n    \"github\": { \"command\": \"github-mcp-server\", \"args\": [\"stdio\"] }\n  }\n}\n",
    },
    passes: Example {
        file: "tools/github.json",
        text: "{\n  \"tools\": [\n    { \"name\": \"get_me\", \"description\": \"Get my GitHub user.\", \"inputSchema\": { \"type\": \"object\" } }\n  ]\n}\n",
    },
    notes: "`ctxc cost DIR` reports such files as warnings and skips them; `ctxc cost FILE` and a manifest fail on them.",
    stage: Stage::Load,
};
