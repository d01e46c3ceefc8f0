//! MCP017: two MCP tools with the same name in one listing.

use crate::agent_files::FileKind;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_value, join};
use crate::rules::mcp::mcp_tools;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "Two tools in one MCP tool listing have the same `name`.",
    why: "A client calls a tool by name (`tools/call` with `name`), so names must be unique within a server; with two \
          tools of one name the client keeps one of them (or refuses the list), and the model cannot reach the other. \
          Source: MCP specification 2025-11-25, server/tools (\"Tool names … should be unique within a server\").",
    fails: Example {
        file: "tools/list.json",
        text: "{\"tools\": [\n  {\"name\": \"search\", \"description\": \"Search issues.\", \"inputSchema\": {\"type\": \"object\"}},\n  {\"name\": \"search\", \"description\": \"Search code.\", \"inputSchema\": {\"type\": \"object\"}}\n]}\n",
    },
    passes: Example {
        file: "tools/list.json",
        text: "{\"tools\": [\n  {\"name\": \"search_issues\", \"description\": \"Search issues.\", \"inputSchema\": {\"type\": \"object\"}},\n  {\"name\": \"search_code\", \"description\": \"Search code.\", \"inputSchema\": {\"type\": \"object\"}}\n]}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ToolDefinitions) {
        let tools = mcp_tools(doc);
        let names: Vec<Option<&str>> = tools.iter().map(|(_, t)| t.get("name").and_then(|n| n.as_str())).collect();
        for (i, (path, _)) in tools.iter().enumerate() {
            let Some(name) = names[i] else { continue };
            if let Some(first) = names[..i].iter().position(|n| *n == Some(name)) {
                let d = Diagnostic::finding(format!("tool `{name}` is defined twice (also tool #{})", first + 1))
                    .help("give each tool its own name");
                findings.push(at_value(d, doc, &join(path, &[Step::Key("name")])));
            }
        }
    }
    findings
}
