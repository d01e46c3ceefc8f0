//! MCP016: an MCP tool name outside the specification's format.

use crate::agent_files::FileKind;
use crate::rules::json_span::join;
use crate::rules::json_span::Step;
use crate::rules::mcp::mcp_tools;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An MCP tool's `name` is empty, longer than 128 characters, or has characters other than ASCII letters, digits, `_`, `-` and `.`.",
    why: "The MCP specification says tool names should be 1–128 characters of `A-Z a-z 0-9 _ - .`, case-sensitive, \
          with no spaces. Clients pass the name to model providers whose function names are stricter still; a \
          name with a space, a slash or a non-ASCII letter is rejected or rewritten, and calls to the tool fail. \
          Source: MCP specification 2025-11-25, server/tools (\"Tool names\"), schema \
          /work/shared/corpus/spec/mcp-schema-2025-11-25.json (`Tool.name`).",
    fails: Example { file: "tools/list.json", text: "{\"tools\": [{\"name\": \"search issues\", \"description\": \"Search the issue tracker.\", \"inputSchema\": {\"type\": \"object\"}}]}\n" },
    passes: Example { file: "tools/list.json", text: "{\"tools\": [{\"name\": \"search_issues\", \"description\": \"Search the issue tracker.\", \"inputSchema\": {\"type\": \"object\"}}]}\n" },
    notes: "Checked in JSON files named on the command line that hold MCP tools (`tools/list` results or `Tool` objects).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ToolDefinitions) {
        for (path, tool) in mcp_tools(doc) {
            let Some(name) = tool.get("name").and_then(|n| n.as_str()) else { continue };
            let bad: Vec<char> = name.chars().filter(|c| !(c.is_ascii_alphanumeric() || "_-.".contains(*c))).collect();
            let problem = if name.is_empty() {
                "is empty".to_string()
            } else if name.chars().count() > 128 {
                format!("is {} characters long (at most 128)", name.chars().count())
            } else if let Some(c) = bad.first() {
                format!("contains `{c}`")
            } else {
                continue;
            };
            let at = crate::rules::json_span::place(doc, &join(&path, &[Step::Key("name")])).map(|p| p.value);
            findings.push(
                Diagnostic::finding(format!("tool name `{name}` {problem}"))
                    .in_file(&doc.file)
                    .at(at)
                    .help("use 1–128 ASCII letters, digits, `_`, `-` or `.`, e.g. `search_issues`"),
            );
        }
    }
    findings
}
