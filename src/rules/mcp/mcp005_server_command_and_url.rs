//! MCP005: an MCP server given both a command and a URL.

use crate::rules::json_span::at_key;

use crate::rules::json_span::Step;
use crate::rules::mcp::{each_server, server_path};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An MCP server has both a `command` (a local stdio server) and a `url` (a remote server).",
    why: "A server is either a program the client starts (stdio: `command`, `args`, `env`) or an endpoint it connects \
          to (`type` `http`/`sse` with `url`). With both, one of them is ignored — which one depends on the client and \
          on `type` — so the project does not run the server it seems to configure. Source: \
          https://code.claude.com/docs/en/mcp (server types) and \
          https://modelcontextprotocol.io/specification/2025-11-25/basic/transports.",
    fails: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"docs\": {\"command\": \"npx\", \"args\": [\"docs-mcp\"], \"url\": \"https://docs.example.com/mcp\"}\n  }\n}\n",
    },
    passes: Example { file: ".mcp.json", text: "{\n  \"mcpServers\": {\n    \"docs\": {\"type\": \"http\", \"url\": \"https://docs.example.com/mcp\"}\n  }\n}\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_server(cx, |doc, name, server| {
        if server.get("command").is_some() && server.get("url").is_some() {
            let d = Diagnostic::finding(format!(
                "server `{name}` has both `command` and `url`; it is either a local program or a remote endpoint"
            ))
            .help("keep `command`/`args` for a local server, or `type` and `url` for a remote one");
            findings.push(at_key(d, doc, &server_path(doc, name, &[Step::Key("url")])));
        }
    });
    findings
}
