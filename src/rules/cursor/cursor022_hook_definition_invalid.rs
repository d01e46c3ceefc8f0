//! CURSOR022: a hook definition of `.cursor/hooks.json` that Cursor cannot run.

use serde_json::Value;

use crate::rules::cursor::{cursor_values, definitions, hook_lists};
use crate::rules::json_span::{at_key, at_value, Step};
use crate::rules::prelude::*;
use crate::tools::json_kind;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A Cursor hook has a `type` other than `command` or `prompt`, a command hook has no `command` string, or a prompt hook has no `prompt` string.",
    why: "A Cursor hook is a command (the default `type`: `command` is required, a shell string or a script path) or, \
          with `\"type\": \"prompt\"`, a condition an LLM evaluates (its text in `prompt`). A hook without the field its \
          type needs, or with another `type`, has nothing to run. Source: https://cursor.com/docs/agent/hooks (checked \
          2026-11-29), \"Hook Types\" and \"Per-Script Configuration Options\".",
    fails: Example {
        file: ".cursor/hooks.json",
        text: "{\n  \"version\": 1,\n  \"hooks\": {\n    \"beforeShellExecution\": [{ \"script\": \".cursor/hooks/approve.sh\", \"matcher\": \"curl|wget\" }]\n  }\n}\n",
    },
    passes: Example {
        file: ".cursor/hooks.json",
        text: "{\n  \"version\": 1,\n  \"hooks\": {\n    \"beforeShellExecution\": [{ \"command\": \".cursor/hooks/approve.sh\", \"matcher\": \"curl|wget\" }]\n  }\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let types = cursor_values("hook-types");
    let mut findings = Vec::new();
    hook_lists(cx, |doc, list| {
        for (i, hook) in definitions(&list) {
            let path = [Step::Key("hooks"), Step::Key(list.event), Step::Index(i)];
            let kind = match hook.get("type") {
                None => "command",
                Some(Value::String(t)) if types.contains(&t.as_str()) => t.as_str(),
                Some(other) => {
                    let d = Diagnostic::finding(format!(
                        "hook {} of `{}` has `type` {other}: Cursor runs `command` and `prompt` hooks",
                        i + 1,
                        list.event
                    ))
                    .label("unknown type")
                    .help("write `\"type\": \"command\"` (or leave it out) with a `command`, or `\"type\": \"prompt\"` with a `prompt`");
                    findings.push(at_value(d, doc, &[Step::Key("hooks"), Step::Key(list.event), Step::Index(i), Step::Key("type")]));
                    continue;
                }
            };
            let field = if kind == "prompt" { "prompt" } else { "command" };
            let problem = match hook.get(field) {
                Some(Value::String(s)) if !s.trim().is_empty() => continue,
                Some(Value::String(_)) => format!("an empty `{field}`"),
                Some(other) => format!("`{field}` as {}, not a string", json_kind(other)),
                None => format!("no `{field}`"),
            };
            let d = Diagnostic::finding(format!("{kind} hook {} of `{}` has {problem}: Cursor has nothing to run", i + 1, list.event))
                .label("nothing to run")
                .help(match kind {
                    "prompt" => "write the condition to evaluate in `\"prompt\": \"…\"`",
                    _ => "write the shell command or script path in `\"command\": \"…\"` (a project's scripts run from its root: `.cursor/hooks/x.sh`)",
                });
            findings.push(at_key(d, doc, &path));
        }
    });
    findings
}
