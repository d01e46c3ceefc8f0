//! MCP006: an MCP server `type` that is not a transport.

use crate::diagnostic::did_you_mean;
use crate::rules::json_span::at_value;
use crate::rules::json_span::Step;
use crate::rules::mcp::{each_server, server_path};
use crate::rules::prelude::*;

const TYPES: [&str; 4] = ["stdio", "http", "sse", "streamable-http"];

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An MCP server's `type` is not `stdio`, `http`, `sse` or `streamable-http`.",
    why: "`type` picks the transport: `stdio` for a local program, `http` (Streamable HTTP) or the deprecated `sse` \
          for a remote server. Any other value fails the configuration's validation and the server is not started. \
          Source: https://code.claude.com/docs/en/mcp (server types) and \
          https://modelcontextprotocol.io/specification/2025-11-25/basic/transports.",
    fails: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"docs\": {\"type\": \"https\", \"url\": \"https://docs.example.com/mcp\"}\n  }\n}\n",
    },
    passes: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"docs\": {\"type\": \"http\", \"url\": \"https://docs.example.com/mcp\"}\n  }\n}\n",
    },
    notes: "`streamable-http` is accepted for Cursor configurations.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_server(cx, |doc, name, server| {
        let Some(kind) = server.get("type") else { return };
        let shown = kind.as_str().map_or_else(|| kind.to_string(), str::to_string);
        if TYPES.contains(&shown.as_str()) {
            return;
        }
        let help = match did_you_mean(&shown, TYPES) {
            Some(s) => format!("did you mean `{s}`?"),
            None => "use `stdio` for a local program, `http` for a remote server".to_string(),
        };
        let d = Diagnostic::finding(format!("server `{name}` has type `{shown}`, which is not an MCP transport")).help(help);
        findings.push(at_value(d, doc, &server_path(doc, name, &[Step::Key("type")])));
    });
    findings
}
