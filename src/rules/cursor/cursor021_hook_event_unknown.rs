//! CURSOR021: a `.cursor/hooks.json` event Cursor does not run hooks on.

use crate::rules::cursor::{cursor_values, hooks_objects};
use crate::rules::json_span::{at_key, Step};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A key of a Cursor `.cursor/hooks.json`'s `hooks` is not an event Cursor runs hooks on (often Claude Code's `PreToolUse` spelling).",
    why: "Cursor looks its hooks up by event name, camelCase (`preToolUse`, `beforeShellExecution`, `afterFileEdit`, \
          `stop`…); a hook under any other key, such as Claude Code's `PreToolUse` or a misspelt `beforeShellExec`, \
          never runs and nothing says so, so a guard meant to block a command silently allows it. Source: \
          https://cursor.com/docs/agent/hooks (checked 2026-11-29); the list is Cursor's host model, \
          `data/hosts/cursor.toml`.",
    fails: Example {
        file: ".cursor/hooks.json",
        text: "{\n  \"version\": 1,\n  \"hooks\": {\n    \"PreToolUse\": [{ \"command\": \".cursor/hooks/guard.sh\", \"matcher\": \"Shell\" }]\n  }\n}\n",
    },
    passes: Example {
        file: ".cursor/hooks.json",
        text: "{\n  \"version\": 1,\n  \"hooks\": {\n    \"preToolUse\": [{ \"command\": \".cursor/hooks/guard.sh\", \"matcher\": \"Shell\" }]\n  }\n}\n",
    },
    notes: "Cursor adds events over time; an event newer than ctxc's host model is reported until the model lists it.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let known = cursor_values("hook-events");
    let mut findings = Vec::new();
    hooks_objects(cx, |doc, hooks| {
        for event in hooks.keys().filter(|e| !known.contains(&e.as_str())) {
            let near = known.iter().find(|k| k.eq_ignore_ascii_case(event));
            let help = match near {
                Some(k) => format!("Cursor's event is spelt `{k}`"),
                None => format!("use one of Cursor's events: {}", known.join(", ")),
            };
            findings.push(at_key(
                Diagnostic::finding(format!("`{event}` is not a Cursor hook event: its hooks never run")).label("unknown event").help(help),
                doc,
                &[Step::Key("hooks"), Step::Key(event)],
            ));
        }
    });
    findings
}
