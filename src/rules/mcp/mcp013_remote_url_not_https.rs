//! MCP013: a remote MCP server reached over plain HTTP.

use crate::rules::json_span::at_value;

use crate::rules::json_span::Step;
use crate::rules::mcp::{each_server, server_path};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A remote MCP server's `url` uses `http://` for a host other than localhost.",
    why: "Over plain HTTP every tool call, its results and the request headers (usually a bearer token) travel \
          unencrypted, readable and changeable by anyone on the network path. The MCP authorization specification \
          requires HTTPS for every endpoint except loopback. Source: \
          https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization (communication security).",
    fails: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"docs\": {\"type\": \"http\", \"url\": \"http://docs.example.com/mcp\"}\n  }\n}\n",
    },
    passes: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"docs\": {\"type\": \"http\", \"url\": \"https://docs.example.com/mcp\"}\n  }\n}\n",
    },
    notes: "`localhost`, `127.0.0.1`, `[::1]` and `0.0.0.0` are not reported.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_server(cx, |doc, name, server| {
        let Some(url) = server.get("url").and_then(|u| u.as_str()) else { return };
        let Some(rest) = url.strip_prefix("http://") else { return };
        let host = rest.split(['/', '?', '#']).next().unwrap_or("");
        let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
        let host =
            if host.starts_with('[') { host.split(']').next().map_or(host, |h| &h[1..]) } else { host.split(':').next().unwrap_or(host) };
        if matches!(host, "localhost" | "127.0.0.1" | "::1" | "0.0.0.0" | "") || host.starts_with("${") || host.ends_with(".localhost") {
            return;
        }
        let d = Diagnostic::finding(format!(
            "server `{name}` is reached over plain HTTP at `{host}`: tool calls and tokens travel unencrypted"
        ))
        .help("use the server's `https://` endpoint");
        findings.push(at_value(d, doc, &server_path(doc, name, &[Step::Key("url")])));
    });
    findings
}
