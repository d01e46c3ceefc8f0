//! MCP021: an MCP tool annotation that is not one of the hints, or not a boolean.

use crate::agent_files::FileKind;
use crate::diagnostic::did_you_mean;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_key, join};
use crate::rules::mcp::mcp_tools;
use crate::rules::prelude::*;

const HINTS: [&str; 4] = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An MCP tool's `annotations` has a key that is not `title` or one of the four hints, or a hint that is not a boolean.",
    why: "`ToolAnnotations` defines `title` and four boolean hints: `readOnlyHint`, `destructiveHint`, \
          `idempotentHint`, `openWorldHint`. A misspelt hint (`readonlyHint`, `readOnly`) or a string `\"true\"` is \
          ignored, and clients fall back to the defaults — which treat the tool as destructive and open-world. \
          Source: /work/shared/corpus/spec/mcp-schema-2025-11-25.json (`ToolAnnotations`).",
    fails: Example {
        file: "tools/list.json",
        text: "{\"tools\": [{\"name\": \"get_issue\", \"description\": \"Read one issue.\", \"inputSchema\": {\"type\": \"object\"}, \"annotations\": {\"readOnly\": true}}]}\n",
    },
    passes: Example {
        file: "tools/list.json",
        text: "{\"tools\": [{\"name\": \"get_issue\", \"description\": \"Read one issue.\", \"inputSchema\": {\"type\": \"object\"}, \"annotations\": {\"readOnlyHint\": true}}]}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ToolDefinitions) {
        for (path, tool) in mcp_tools(doc) {
            let Some(annotations) = tool.get("annotations").and_then(|a| a.as_object()) else { continue };
            let name = tool.get("name").and_then(|n| n.as_str()).unwrap_or("?");
            for (key, value) in annotations {
                let message = match (key.as_str(), HINTS.contains(&key.as_str())) {
                    ("title", _) => continue,
                    (_, true) if value.is_boolean() => continue,
                    (_, true) => format!("tool `{name}`: annotation `{key}` is {value}, not a boolean"),
                    (_, false) => format!("tool `{name}`: `{key}` is not a tool annotation; clients ignore it"),
                };
                let help = match did_you_mean(key, HINTS).filter(|_| !HINTS.contains(&key.as_str())) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => {
                        "annotations are `title` and the booleans readOnlyHint, destructiveHint, idempotentHint, openWorldHint".to_string()
                    }
                };
                findings.push(at_key(
                    Diagnostic::finding(message).help(help),
                    doc,
                    &join(&path, &[Step::Key("annotations"), Step::Key(key)]),
                ));
            }
        }
    }
    findings
}
