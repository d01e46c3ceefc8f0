//! GEMINI005: an MCP server with no way to reach it.

use crate::rules::gemini::gemini_mcp_servers;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An entry of `mcpServers` in `.gemini/settings.json` has none of `command`, `url` and `httpUrl`.",
    why: "Gemini CLI starts a stdio server from `command`, or connects to `url` (SSE) or `httpUrl` (streamable HTTP); \
          an entry with none of them cannot be connected, and its tools are missing. Source: \
          google-gemini/gemini-cli:docs/reference/configuration.md@5411f113 (`mcpServers`).",
    fails: Example { file: ".gemini/settings.json", text: "{\n  \"mcpServers\": {\n    \"github\": { \"args\": [\"serve\"] }\n  }\n}\n" },
    passes: Example {
        file: ".gemini/settings.json",
        text: "{\n  \"mcpServers\": {\n    \"github\": { \"command\": \"github-mcp\", \"args\": [\"serve\"] }\n  }\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let servers = gemini_mcp_servers(cx);
    let unreachable = servers.iter().filter(|s| !["command", "url", "httpUrl"].iter().any(|k| s.value.get(k).is_some()));
    unreachable
        .map(|s| {
            let finding = Diagnostic::finding(format!("MCP server `{}` has no `command`, `url` or `httpUrl`", s.name))
                .label("cannot be started or reached")
                .help("add `command` (stdio), `url` (SSE) or `httpUrl` (streamable HTTP)");
            s.report(finding, None)
        })
        .collect()
}
