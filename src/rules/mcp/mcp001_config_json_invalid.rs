//! MCP001: an MCP server configuration that is not valid JSON.

use crate::agent_files::FileKind;
use crate::rules::json_span::json_syntax;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A `.mcp.json` or `.cursor/mcp.json` is not valid JSON.",
    why: "Claude Code and Cursor read MCP configurations as strict JSON; a file with a comment or a trailing comma does \
          not parse, and none of its servers start — the agent runs without the tools the project set up. Source: \
          https://code.claude.com/docs/en/mcp (project scope, `.mcp.json`) and https://docs.cursor.com/context/mcp.",
    fails: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"docs\": {\"type\": \"http\", \"url\": \"https://docs.example.com/mcp\"},\n  }\n}\n",
    },
    passes: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"docs\": {\"type\": \"http\", \"url\": \"https://docs.example.com/mcp\"}\n  }\n}\n",
    },
    notes: "The other MCP rules skip a file that does not parse.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    json_syntax(cx, &[FileKind::McpConfig])
}
