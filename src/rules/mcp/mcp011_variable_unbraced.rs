//! MCP011: a `$VAR` in `.mcp.json`, which Claude Code does not expand.

use std::sync::LazyLock;

use regex::Regex;

use crate::agent_files::FileKind;
use crate::diagnostic::{Edit, Fix};
use crate::rules::json_span::Step;
use crate::rules::json_span::{json_docs, string_part};
use crate::rules::mcp::{mcp_servers, server_strings};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A `.mcp.json` `command`, `url`, `env` or `headers` value writes a variable as `$VAR`; only `${VAR}` is expanded.",
    why: "Claude Code expands exactly two forms in `.mcp.json`: `${VAR}` and `${VAR:-default}`. `$VAR` is passed \
          through as the literal text — the server receives `Bearer $API_TOKEN` as its credential, or a URL with \
          `$HOST` in it. Source: https://code.claude.com/docs/en/mcp (\"Environment variable expansion in .mcp.json\"; \
          supported syntax `${VAR}`, `${VAR:-default}`).",
    fails: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"api\": {\"type\": \"http\", \"url\": \"https://api.example.com/mcp\", \"headers\": {\"Authorization\": \"Bearer $API_TOKEN\"}}\n  }\n}\n",
    },
    passes: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"api\": {\"type\": \"http\", \"url\": \"https://api.example.com/mcp\", \"headers\": {\"Authorization\": \"Bearer ${API_TOKEN}\"}}\n  }\n}\n",
    },
    notes: "`args` is not checked: a shell started by the server (`sh -c \"…$VAR…\"`) expands `$VAR` itself. Only \
            `.mcp.json` is checked (Cursor writes `${env:VAR}`). The attached safe fix adds the braces.",
    stage: Stage::Lint(check),
};

static BARE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\$([A-Za-z_][A-Za-z0-9_]*)").expect("constant pattern")); // ok: literal

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::McpConfig]) {
        let Ok(value) = &*json else { continue };
        if doc.name() != ".mcp.json" {
            continue;
        }
        for (name, server) in mcp_servers(doc, value) {
            for (path, text) in server_strings(doc, name, server).into_iter().filter(|(p, _)| !p.contains(&Step::Key("args"))) {
                for caps in BARE.captures_iter(text) {
                    let (Some(whole), Some(var)) = (caps.get(0), caps.get(1)) else { continue };
                    let span = string_part(doc, &path, text, whole.range());
                    let mut d = Diagnostic::finding(format!(
                        "`{}` in server `{name}` is not expanded; write `${{{}}}`",
                        whole.as_str(),
                        var.as_str()
                    ))
                    .in_file(&doc.file)
                    .at(span.clone())
                    .help("Claude Code expands only `${VAR}` and `${VAR:-default}` in .mcp.json");
                    if let Some(span) = span.filter(|s| doc.text[s.clone()] == *whole.as_str()) {
                        d = d.fix(Fix::safe("add braces", vec![Edit::replace(&doc.file, span, format!("${{{}}}", var.as_str()))]));
                    }
                    findings.push(d);
                }
            }
        }
    }
    findings
}
