//! MCP010: a `${VAR}` in `.mcp.json` with no default.

use std::sync::LazyLock;

use regex::Regex;

use crate::agent_files::FileKind;
use crate::hosts;
use crate::rules::json_span::{json_docs, string_part};
use crate::rules::mcp::{mcp_servers, server_strings};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A `.mcp.json` value uses `${VAR}` without a default (`${VAR:-default}`) for a variable that is not a credential.",
    why: "Claude Code expands `${VAR}` in `.mcp.json` from the environment of whoever starts it. When the variable is \
          not set the docs say the configuration fails to parse (measured releases pass the text `${VAR}` through \
          literally instead): either way a teammate without the variable gets a broken server, not a working \
          default. Give optional settings a default with `${VAR:-value}`. Source: https://code.claude.com/docs/en/mcp \
          (\"Environment variable expansion in .mcp.json\").",
    fails: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"api\": {\"type\": \"http\", \"url\": \"${API_BASE_URL}/mcp\"}\n  }\n}\n",
    },
    passes: Example {
        file: ".mcp.json",
        text:
            "{\n  \"mcpServers\": {\n    \"api\": {\"type\": \"http\", \"url\": \"${API_BASE_URL:-https://api.example.com}/mcp\"}\n  }\n}\n",
    },
    notes: "Only `.mcp.json` (Claude Code's syntax) and a plugin manifest's inline `mcpServers` are checked; the \
            variables Claude Code sets itself (`${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` in a plugin: its host \
            model, docs/hosts.md) are not reported. Variables named like credentials (`…_TOKEN`, `…_KEY`, \
            `…_SECRET`, `…_PASSWORD`) are not reported: they have no sensible default and must be set.",
    stage: Stage::Lint(check),
};

static VAR: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}").expect("constant pattern")); // ok: literal

fn credential(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    ["TOKEN", "KEY", "SECRET", "PASSWORD", "PASS", "PAT", "CREDENTIALS", "AUTH"].iter().any(|w| upper.ends_with(w))
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    let claude = hosts::claude_code();
    for (doc, json) in json_docs(cx, &[FileKind::McpConfig, FileKind::ClaudePlugin]) {
        let Ok(value) = &*json else { continue };
        if doc.kind == FileKind::McpConfig && doc.name() != ".mcp.json" {
            continue;
        }
        // What Claude Code sets itself (`${CLAUDE_PLUGIN_ROOT}` in a plugin) needs no default.
        let set: Vec<&str> = claude.variables_in(doc.kind.id(), doc.root_kind()).map(|v| v.name.as_str()).collect();
        for (name, server) in mcp_servers(doc, value) {
            for (path, text) in server_strings(doc, name, server) {
                for caps in VAR.captures_iter(text) {
                    let (Some(whole), Some(var)) = (caps.get(0), caps.get(1)) else { continue };
                    if credential(var.as_str()) || set.contains(&var.as_str()) {
                        continue;
                    }
                    let span = string_part(doc, &path, text, whole.range());
                    findings.push(
                        Diagnostic::finding(format!(
                            "`${{{}}}` in server `{name}` has no default; without the variable the server breaks",
                            var.as_str()
                        ))
                        .in_file(&doc.file)
                        .at(span)
                        .help(format!("write `${{{}:-default}}` with the value to use when it is not set", var.as_str())),
                    );
                }
            }
        }
    }
    findings
}
