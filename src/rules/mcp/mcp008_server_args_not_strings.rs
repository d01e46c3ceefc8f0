//! MCP008: server `args` that are not a list of strings.

use crate::rules::json_span::at_value;

use crate::rules::json_span::Step;
use crate::rules::mcp::{each_server, server_path};
use crate::rules::prelude::*;
use crate::tools::json_kind;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An MCP server's `args` is not a list of strings (a single string, or a list holding numbers or objects).",
    why: "`args` is passed to the program as its argument vector, one string per argument. A single string \
          (`\"args\": \"-y server\"`) or a number in the list fails the configuration's validation, and the server \
          does not start. Source: https://code.claude.com/docs/en/mcp (`.mcp.json` format: `args` string array).",
    fails: Example { file: ".mcp.json", text: "{\n  \"mcpServers\": {\n    \"db\": {\"command\": \"npx\", \"args\": \"-y @example/db-mcp --port 5432\"}\n  }\n}\n" },
    passes: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"db\": {\"command\": \"npx\", \"args\": [\"-y\", \"@example/db-mcp\", \"--port\", \"5432\"]}\n  }\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_server(cx, |doc, name, server| {
        let Some(args) = server.get("args") else { return };
        let base = server_path(doc, name, &[Step::Key("args")]);
        let (problem, path) = match args {
            serde_json::Value::Array(items) => match items.iter().position(|a| !a.is_string()) {
                Some(i) => (format!("argument #{} is {}", i + 1, json_kind(&items[i])), [&base[..], &[Step::Index(i)]].concat()),
                None => return,
            },
            other => (format!("`args` is {}", json_kind(other)), base.to_vec()),
        };
        let d = Diagnostic::finding(format!("server `{name}`: {problem}, not a string in a list"))
            .help("write `args` as a list with one string per argument, e.g. `[\"-y\", \"server\", \"--port\", \"5432\"]`");
        findings.push(at_value(d, doc, &path));
    });
    findings
}
