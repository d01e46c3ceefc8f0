//! GEMINI008: an MCP `timeout` that looks like seconds.

use crate::rules::gemini::gemini_mcp_servers;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An MCP server's `timeout` in `.gemini/settings.json` is below 1000, or not a number.",
    why: "`timeout` is in milliseconds. A value such as `30` or `600` (seconds, as in other tools) gives the server \
          under a second to answer each request, so its tool calls time out. Source: \
          google-gemini/gemini-cli:docs/reference/configuration.md@5411f113 (`mcpServers.<name>.timeout`).",
    fails: Example {
        file: ".gemini/settings.json",
        text: "{\n  \"mcpServers\": {\n    \"db\": { \"command\": \"db-mcp\", \"timeout\": 30 }\n  }\n}\n",
    },
    passes: Example {
        file: ".gemini/settings.json",
        text: "{\n  \"mcpServers\": {\n    \"db\": { \"command\": \"db-mcp\", \"timeout\": 30000 }\n  }\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for s in gemini_mcp_servers(cx) {
        let Some(timeout) = s.value.get("timeout") else { continue };
        let message = match timeout.as_f64() {
            Some(ms) if ms >= 1000.0 => continue,
            Some(_) => format!("MCP server `{}` has `timeout: {timeout}`, which is milliseconds", s.name),
            None => format!("MCP server `{}` has `timeout: {timeout}`, not a number of milliseconds", s.name),
        };
        let finding =
            Diagnostic::finding(message).label("milliseconds").help("write the timeout in milliseconds, e.g. `30000` for 30 seconds");
        findings.push(s.report(finding, Some("timeout")));
    }
    findings
}
