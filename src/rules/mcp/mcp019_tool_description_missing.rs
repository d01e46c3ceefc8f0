//! MCP019: an MCP tool without a description.

use crate::agent_files::FileKind;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_value, join};
use crate::rules::mcp::mcp_tools;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An MCP tool has no `description` (or an empty one).",
    why: "The specification makes `description` optional, but it is what the model reads to decide whether and how to \
          call the tool: a tool known only by its name is called by guesswork, or not at all. Source: \
          /work/shared/corpus/spec/mcp-schema-2025-11-25.json (`Tool.description`: \"a description of the tool … \
          used by clients to improve the LLM's understanding of available tools\").",
    fails: Example { file: "tools/list.json", text: "{\"tools\": [{\"name\": \"lookup\", \"inputSchema\": {\"type\": \"object\"}}]}\n" },
    passes: Example { file: "tools/list.json", text: "{\"tools\": [{\"name\": \"lookup\", \"description\": \"Look up a user by id or email.\", \"inputSchema\": {\"type\": \"object\"}}]}\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ToolDefinitions) {
        for (path, tool) in mcp_tools(doc) {
            if tool.get("description").and_then(|d| d.as_str()).is_some_and(|d| !d.trim().is_empty()) {
                continue;
            }
            let name = tool.get("name").and_then(|n| n.as_str()).unwrap_or("?");
            let d = Diagnostic::finding(format!("tool `{name}` has no description; the model sees only its name"))
                .help("describe what the tool does and when to use it");
            findings.push(at_value(d, doc, &join(&path, &[Step::Key("name")])));
        }
    }
    findings
}
