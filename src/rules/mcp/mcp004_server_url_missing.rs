//! MCP004: a remote MCP server with no URL.

use crate::rules::json_span::at_key;

use crate::rules::json_span::Step;
use crate::rules::mcp::{each_server, server_path};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An MCP server of type `http`, `sse` or `streamable-http` has no `url`.",
    why: "A remote server is reached at its `url`; `type: \"http\"` without one has no address, and the client \
          drops the server. Source: https://code.claude.com/docs/en/mcp (remote HTTP and SSE servers) and \
          https://modelcontextprotocol.io/specification/2025-11-25/basic/transports.",
    fails: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"docs\": {\"type\": \"http\", \"endpoint\": \"https://docs.example.com/mcp\"}\n  }\n}\n",
    },
    passes: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"docs\": {\"type\": \"http\", \"url\": \"https://docs.example.com/mcp\"}\n  }\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_server(cx, |doc, name, server| {
        let Some(kind) = server.get("type").and_then(|t| t.as_str()).filter(|t| matches!(*t, "http" | "sse" | "streamable-http")) else {
            return;
        };
        if server.get("url").and_then(|u| u.as_str()).is_none_or(|u| u.trim().is_empty()) {
            let d = Diagnostic::finding(format!("`{kind}` server `{name}` has no `url`"))
                .help("add `\"url\": \"https://…\"` with the server's endpoint");
            findings.push(at_key(d, doc, &server_path(doc, name, &[Step::Key("type")])));
        }
    });
    findings
}
