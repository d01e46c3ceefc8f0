//! MCP015: a remote server URL that is not an http(s) URL.

use crate::rules::json_span::at_value;

use crate::rules::json_span::Step;
use crate::rules::mcp::{each_server, server_path};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An MCP server's `url` does not start with `http://` or `https://` (after any leading `${VAR}`).",
    why: "Remote MCP servers are HTTP endpoints. A URL without a scheme (`api.example.com/mcp`), with another one \
          (`ws://`, `file://`) or with spaces cannot be connected to, and the server is dropped. Source: \
          https://modelcontextprotocol.io/specification/2025-11-25/basic/transports (Streamable HTTP) and \
          https://code.claude.com/docs/en/mcp.",
    fails: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"docs\": {\"type\": \"http\", \"url\": \"docs.example.com/mcp\"}\n  }\n}\n",
    },
    passes: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"docs\": {\"type\": \"http\", \"url\": \"https://docs.example.com/mcp\"}\n  }\n}\n",
    },
    notes: "A URL that starts with a variable (`${API_URL}/mcp`) is not checked.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_server(cx, |doc, name, server| {
        let Some(url) = server.get("url").and_then(|u| u.as_str()).map(str::trim) else { return };
        if url.is_empty() || url.starts_with("${") {
            return;
        }
        let scheme = url.starts_with("https://") || url.starts_with("http://");
        if scheme && !url.contains(char::is_whitespace) {
            return;
        }
        let problem = if scheme { "contains spaces" } else { "has no `http://` or `https://` scheme" };
        let d = Diagnostic::finding(format!("server `{name}`: url `{url}` {problem}"))
            .help("write the full endpoint, e.g. `https://api.example.com/mcp`");
        findings.push(at_value(d, doc, &server_path(doc, name, &[Step::Key("url")])));
    });
    findings
}
