//! MCP012: a literal credential in an MCP server's `env` or `headers`.

use crate::rules::json_span::place;

use crate::rules::json_span::Step;
use crate::rules::mcp::{each_server, server_path};
use crate::rules::prelude::*;
use crate::rules::secrets;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An MCP server's `env` variable or header named like a credential (`…_TOKEN`, `…_API_KEY`, `Authorization`) holds a literal, random-looking value.",
    why: "`.mcp.json` is meant to be committed so the team shares its servers; a token written into it is shared with \
          everyone who can read the repository. Reference it from the environment instead — `\"${GITHUB_TOKEN}\"` — and \
          each user supplies their own. Source: https://code.claude.com/docs/en/mcp (project scope and environment \
          variable expansion).",
    fails: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"jira\": {\"command\": \"jira-mcp\", \"env\": {\"JIRA_API_TOKEN\": \"Zx8Kq2Lm9Np4Rt7Vw1Yb5Cd3\"}}\n  }\n}\n",
    },
    passes: Example { file: ".mcp.json", text: "{\n  \"mcpServers\": {\n    \"jira\": {\"command\": \"jira-mcp\", \"env\": {\"JIRA_API_TOKEN\": \"${JIRA_API_TOKEN}\"}}\n  }\n}\n" },
    notes: "The value is shown redacted. Values a SEC rule already recognises (a GitHub token, an OpenAI key…) are \
            left to that rule.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_server(cx, |doc, name, server| {
        for key in ["env", "headers"] {
            for (var, v) in server.get(key).and_then(|m| m.as_object()).into_iter().flatten() {
                let Some(v) = v.as_str().filter(|v| secrets::credential_value(var, v)) else { continue };
                let Some(at) = place(doc, &server_path(doc, name, &[Step::Key(key), Step::Key(var)])) else { continue };
                if secrets::found_in(cx.root.cache(), &doc.text, &at.value) {
                    continue;
                }
                findings.push(
                    Diagnostic::finding(format!(
                        "server `{name}`: `{key}.{var}` holds what looks like a real credential (`{}`)",
                        crate::diagnostic::redact(v)
                    ))
                    .in_file(&doc.file)
                    .at(Some(at.value))
                    .label("secret (not shown)")
                    .help(format!(
                        "rotate it and write `\"${{{}}}\"` so each user supplies their own",
                        var.to_ascii_uppercase().replace('-', "_")
                    ))
                    .redacted(),
                );
            }
        }
    });
    findings
}
