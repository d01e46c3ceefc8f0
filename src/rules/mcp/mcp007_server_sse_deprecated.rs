//! MCP007: a server on the deprecated SSE transport.

use crate::rules::json_span::at_value;

use crate::rules::json_span::Step;
use crate::rules::mcp::{each_server, server_path};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An MCP server uses `type: \"sse\"`, the deprecated HTTP+SSE transport.",
    why: "The MCP specification replaced the HTTP+SSE transport with Streamable HTTP in 2025-03-26, and Claude Code's \
          docs list SSE servers as deprecated: servers are dropping the old endpoint, and a configuration pointing at \
          it stops working when they do. Source: \
          https://modelcontextprotocol.io/specification/2025-11-25/basic/transports (backwards compatibility) and \
          https://code.claude.com/docs/en/mcp (\"SSE servers (deprecated)\").",
    fails: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"docs\": {\"type\": \"sse\", \"url\": \"https://docs.example.com/sse\"}\n  }\n}\n",
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
        if server.get("type").and_then(|t| t.as_str()) == Some("sse") {
            let d = Diagnostic::finding(format!("server `{name}` uses the deprecated SSE transport"))
                .help("switch to `\"type\": \"http\"` with the server's Streamable HTTP endpoint (often `/mcp` instead of `/sse`)");
            findings.push(at_value(d, doc, &server_path(doc, name, &[Step::Key("type")])));
        }
    });
    findings
}
