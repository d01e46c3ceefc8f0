//! CLAUDE034: a command hook with no command.

use crate::rules::claude::{each_hook, hook_path};

use crate::rules::json_span::at_key;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A hook of type `command` has no `command` string (or an empty one).",
    why: "A `command` hook runs its `command` in a shell; without one there is nothing to run and the settings fail \
          validation. A script path written under another key (`script`, `run`, `cmd`) is not read. Source: \
          https://code.claude.com/docs/en/hooks (command hook fields).",
    fails: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"script\": \"npm run lint\"}]}\n    ]\n  }\n}\n",
    },
    passes: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"npm run lint\"}]}\n    ]\n  }\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_hook(cx, |doc, event, g, h, hook| {
        if hook.get("type").and_then(|t| t.as_str()) != Some("command") {
            return;
        }
        if hook.get("command").and_then(|c| c.as_str()).is_some_and(|c| !c.trim().is_empty()) {
            return;
        }
        let d = Diagnostic::finding(format!("command hook #{} of `{event}` has no command to run", h + 1))
            .help("add `\"command\": \"…\"` with the shell command to run");
        findings.push(at_key(d, doc, &hook_path(event, g, h, "type")));
    });
    findings
}
