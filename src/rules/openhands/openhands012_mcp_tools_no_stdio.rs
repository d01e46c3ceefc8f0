//! OPENHANDS012: `mcp_tools` without stdio servers.

use crate::rules::openhands::microagents;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A microagent has `mcp_tools` without any `stdio_servers`.",
    why: "Microagents may bring MCP tools, but only stdio servers: loading fails with \"has MCP tools configuration but \
          no stdio servers\" (SSE servers only produce a warning), so the microagent is not loaded. Source: \
          All-Hands-AI/OpenHands:openhands/microagent/microagent.py@156d0686.",
    fails: Example { file: ".openhands/microagents/fetch.md", text: "---\nname: fetch\nmcp_tools:\n  sse_servers:\n    - url: http://localhost:8080/sse\n---\nFetch pages with the fetch tool.\n" },
    passes: Example {
        file: ".openhands/microagents/fetch.md",
        text: "---\nname: fetch\nmcp_tools:\n  stdio_servers:\n    - name: fetch\n      command: uvx\n      args: [mcp-server-fetch]\n---\nFetch pages with the fetch tool.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in microagents(cx) {
        let Some(tools) = doc.field("mcp_tools") else { continue };
        if tools.is_null() || tools.get("stdio_servers").and_then(|s| s.as_array()).is_some_and(|s| !s.is_empty()) {
            continue;
        }
        findings.push(
            Diagnostic::finding("`mcp_tools` has no `stdio_servers`; OpenHands refuses to load the microagent")
                .in_file(&doc.file)
                .at(doc.key_span("mcp_tools"))
                .label("no stdio servers")
                .help("list the servers under `mcp_tools: stdio_servers:` (each with `name` and `command`)"),
        );
    }
    findings
}
