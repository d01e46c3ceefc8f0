//! MCP003: a local (stdio) MCP server with no command.

use crate::rules::json_span::at_key;

use crate::rules::mcp::{each_server, server_path};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An MCP server without `type` (or with `type: \"stdio\"`) has no `command`, and no `url` either.",
    why: "A stdio server is a program the client starts: `command` (with `args` and `env`) is what it runs. Without a \
          command — and without a `url` that would make it a remote server — there is nothing to start, and the \
          server is dropped. Source: https://code.claude.com/docs/en/mcp (stdio servers) and the MCP transports \
          specification https://modelcontextprotocol.io/specification/2025-11-25/basic/transports.",
    fails: Example { file: ".mcp.json", text: "{\n  \"mcpServers\": {\n    \"files\": {\"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \".\"]}\n  }\n}\n" },
    passes: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"files\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \".\"]}\n  }\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_server(cx, |doc, name, server| {
        let stdio = matches!(server.get("type").and_then(|t| t.as_str()), None | Some("stdio"));
        let has = |k: &str| server.get(k).and_then(|v| v.as_str()).is_some_and(|v| !v.trim().is_empty());
        if stdio && server.is_object() && !has("command") && !has("url") {
            let d = Diagnostic::finding(format!("server `{name}` has no `command` to start (and no `url`)"))
                .help("add `\"command\"` (the program) and `\"args\"`, or `\"type\": \"http\"` with a `\"url\"` for a remote server");
            findings.push(at_key(d, doc, &server_path(doc, name, &[])));
        }
    });
    findings
}
