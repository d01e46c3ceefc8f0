//! MCP002: an MCP configuration without an `mcpServers` object.

use crate::agent_files::FileKind;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_key, json_docs};
use crate::rules::mcp::flat;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A `.mcp.json` or `.cursor/mcp.json` has no `mcpServers` object (for example VS Code's `servers` key instead).",
    why: "Claude Code and Cursor read servers from the top-level `mcpServers` object. VS Code's `.vscode/mcp.json` \
          uses `servers`, and a file copied from there (or with servers at the top level) configures nothing: no \
          server starts. Source: https://code.claude.com/docs/en/mcp (`.mcp.json` format) and \
          https://docs.cursor.com/context/mcp.",
    fails: Example {
        file: ".mcp.json",
        text: "{\n  \"servers\": {\n    \"docs\": {\"type\": \"http\", \"url\": \"https://docs.example.com/mcp\"}\n  }\n}\n",
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
    for (doc, json) in json_docs(cx, &[FileKind::McpConfig]) {
        let Ok(value) = &*json else { continue };
        if flat(doc, value) {
            continue;
        }
        match value.get("mcpServers") {
            Some(serde_json::Value::Object(_)) => continue,
            Some(other) => findings.push(at_key(
                Diagnostic::finding(format!("`mcpServers` is {}, not an object of servers", crate::tools::json_kind(other)))
                    .help("write `\"mcpServers\": {\"name\": {…}}`"),
                doc,
                &[Step::Key("mcpServers")],
            )),
            None => {
                let key = if value.get("servers").is_some() { Some("servers") } else { None };
                let d = Diagnostic::finding(format!("{} has no `mcpServers` object; no server is configured", doc.rel));
                findings.push(match key {
                    Some(key) => at_key(d.help("rename `servers` (VS Code's key) to `mcpServers`"), doc, &[Step::Key(key)]),
                    None => d.in_file(&doc.file).at(Some(0..1)).help("put the servers under a top-level `\"mcpServers\"` object"),
                });
            }
        }
    }
    findings
}
