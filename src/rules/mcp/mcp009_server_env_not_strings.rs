//! MCP009: server `env` that is not an object of strings.

use crate::rules::json_span::at_value;

use crate::rules::json_span::Step;
use crate::rules::mcp::{each_server, server_path};
use crate::rules::prelude::*;
use crate::tools::json_kind;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An MCP server's `env` or `headers` is not an object whose values are all strings.",
    why: "`env` becomes the server process's environment and `headers` the HTTP headers of each request: both are maps \
          of names to string values. A number or boolean (`\"DEBUG\": true`, `\"PORT\": 8080`) or a list fails the \
          configuration's validation and the server is not started. Quote the value. Source: \
          https://code.claude.com/docs/en/mcp (`.mcp.json` format).",
    fails: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"db\": {\"command\": \"db-mcp\", \"env\": {\"PORT\": 5432, \"DEBUG\": true}}\n  }\n}\n",
    },
    passes: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"db\": {\"command\": \"db-mcp\", \"env\": {\"PORT\": \"5432\", \"DEBUG\": \"true\"}}\n  }\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_server(cx, |doc, name, server| {
        for key in ["env", "headers"] {
            let Some(map) = server.get(key) else { continue };
            let base = server_path(doc, name, &[Step::Key(key)]);
            let serde_json::Value::Object(entries) = map else {
                let d = Diagnostic::finding(format!("server `{name}`: `{key}` is {}, not an object of names and strings", json_kind(map)))
                    .help(format!("write `\"{key}\": {{\"NAME\": \"value\"}}`"));
                findings.push(at_value(d, doc, &base));
                continue;
            };
            for (var, v) in entries.iter().filter(|(_, v)| !v.is_string()) {
                let d = Diagnostic::finding(format!("server `{name}`: `{key}.{var}` is {}, not a string", json_kind(v)))
                    .help(format!("quote the value: `\"{var}\": \"{}\"`", v.as_str().map_or_else(|| v.to_string(), str::to_string)));
                findings.push(at_value(d, doc, &[&base[..], &[Step::Key(var)]].concat()));
            }
        }
    });
    findings
}
