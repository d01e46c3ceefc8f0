//! MCP020: MCP tool annotations that contradict each other.

use crate::agent_files::FileKind;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_key, join};
use crate::rules::mcp::mcp_tools;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An MCP tool's annotations set `readOnlyHint: true` together with `destructiveHint: true`.",
    why: "`destructiveHint` is only meaningful when `readOnlyHint` is false: a tool that modifies nothing cannot \
          destroy anything. Setting both says two opposite things, and clients that auto-approve read-only tools \
          will run one that claims to be destructive without asking. Source: \
          /work/shared/corpus/spec/mcp-schema-2025-11-25.json (`ToolAnnotations.destructiveHint`: \"meaningful only \
          when readOnlyHint == false\").",
    fails: Example {
        file: "tools/list.json",
        text: "{\"tools\": [{\"name\": \"delete_branch\", \"description\": \"Delete a branch.\", \"inputSchema\": {\"type\": \"object\"}, \"annotations\": {\"readOnlyHint\": true, \"destructiveHint\": true}}]}\n",
    },
    passes: Example {
        file: "tools/list.json",
        text: "{\"tools\": [{\"name\": \"delete_branch\", \"description\": \"Delete a branch.\", \"inputSchema\": {\"type\": \"object\"}, \"annotations\": {\"readOnlyHint\": false, \"destructiveHint\": true}}]}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ToolDefinitions) {
        for (path, tool) in mcp_tools(doc) {
            let hint = |k: &str| tool.pointer(&format!("/annotations/{k}")).and_then(|v| v.as_bool());
            if hint("readOnlyHint") == Some(true) && hint("destructiveHint") == Some(true) {
                let name = tool.get("name").and_then(|n| n.as_str()).unwrap_or("?");
                let d = Diagnostic::finding(format!("tool `{name}` is annotated both read-only and destructive"))
                    .help("set `readOnlyHint: false` if the tool changes anything, else drop `destructiveHint`");
                findings.push(at_key(d, doc, &join(&path, &[Step::Key("annotations"), Step::Key("destructiveHint")])));
            }
        }
    }
    findings
}
