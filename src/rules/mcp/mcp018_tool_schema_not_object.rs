//! MCP018: an MCP tool's input or output schema whose root is not an object schema.

use crate::agent_files::FileKind;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_key, join};
use crate::rules::mcp::mcp_tools;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An MCP tool's `inputSchema` or `outputSchema` does not have `\"type\": \"object\"` at its root.",
    why: "The MCP schema fixes both roots: `inputSchema` and `outputSchema` are objects with `type: \"object\"` \
          (arguments are always named, and `structuredContent` is always a JSON object). A schema without it — a bare \
          `{}` or `\"type\": \"string\"` — fails validation in clients that check, and models get no shape for the \
          arguments. Source: /work/shared/corpus/spec/mcp-schema-2025-11-25.json (`Tool.inputSchema`, \
          `Tool.outputSchema`: `type` const `\"object\"`).",
    fails: Example { file: "tools/list.json", text: "{\"tools\": [{\"name\": \"lookup\", \"description\": \"Look up a user by id.\", \"inputSchema\": {\"properties\": {\"id\": {\"type\": \"string\"}}}}]}\n" },
    passes: Example {
        file: "tools/list.json",
        text: "{\"tools\": [{\"name\": \"lookup\", \"description\": \"Look up a user by id.\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\"id\": {\"type\": \"string\"}}}}]}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ToolDefinitions) {
        for (path, tool) in mcp_tools(doc) {
            let name = tool.get("name").and_then(|n| n.as_str()).unwrap_or("?");
            for key in ["inputSchema", "outputSchema"] {
                let Some(schema) = tool.get(key) else { continue };
                let found = schema.get("type");
                if found.and_then(|t| t.as_str()) == Some("object") {
                    continue;
                }
                let what = found.map_or_else(|| "no `type`".to_string(), |t| format!("`type` {t}"));
                let d = Diagnostic::finding(format!("tool `{name}`: `{key}` has {what}; its root must be `\"type\": \"object\"`"))
                    .help("make the root an object schema: `{\"type\": \"object\", \"properties\": {…}}`");
                findings.push(at_key(d, doc, &join(&path, &[Step::Key(key)])));
            }
        }
    }
    findings
}
