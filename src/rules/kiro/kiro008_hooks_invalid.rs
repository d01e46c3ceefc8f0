//! KIRO008: a `.kiro/hooks/*.json` file, or a hook in it, that Kiro cannot run.

use serde_json::{Map, Value};

use crate::agent_files::{Doc, FileKind};
use crate::rules::json_span::{at_value, json_syntax, Step};
use crate::rules::kiro::{hook_entries, kiro_values};
use crate::rules::prelude::*;
use crate::tools::json_kind;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A Kiro hooks file (`.kiro/hooks/*.json`) is not valid JSON, is not `{\"version\": \"v1\", \"hooks\": [...]}`, or has a hook without a `trigger` or a runnable `action`.",
    why: "Kiro CLI 3 and the IDE from 1.0 read each `.kiro/hooks/<name>.json` as a versioned file, \
          `{\"version\": \"v1\", \"hooks\": [...]}`; each hook names a `trigger` and an `action` that either runs a shell \
          `command` (`\"type\": \"command\"`) or sends a `prompt` to the agent (`\"type\": \"agent\"`). A file Kiro cannot \
          read, or a hook missing one of these, runs nothing, so a guard meant to block a tool call or lint a saved \
          file silently does not. Source: https://kiro.dev/docs/cli/v3/hooks/ (checked 2026-11-30).",
    fails: Example {
        file: ".kiro/hooks/lint.json",
        text: "{\n  \"version\": \"v1\",\n  \"hooks\": [\n    { \"name\": \"lint-on-save\", \"trigger\": \"PostFileSave\", \"action\": { \"type\": \"command\", \"run\": \"npm run lint\" } }\n  ]\n}\n",
    },
    passes: Example {
        file: ".kiro/hooks/lint.json",
        text: "{\n  \"version\": \"v1\",\n  \"hooks\": [\n    { \"name\": \"lint-on-save\", \"trigger\": \"PostFileSave\", \"action\": { \"type\": \"command\", \"command\": \"npm run lint\" } }\n  ]\n}\n",
    },
    notes: "The hooks of a file whose `version` is not `\"v1\"` are not checked one by one: the version is the one finding. \
            The IDE's older `.kiro/hooks/*.kiro.hook` files are not read (see \"The files agnix reads\" below). A trigger \
            Kiro does not know is KIRO009's.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = json_syntax(cx, &[FileKind::KiroHooks]);
    for doc in cx.files_of(FileKind::KiroHooks) {
        let json = doc.json();
        let Ok(value) = &*json else { continue };
        findings.extend(file_shape(doc, value));
    }
    let types = kiro_values("hook-action-types");
    hook_entries(cx, |doc, i, entry| {
        let Some(hook) = entry.as_object() else {
            let message = format!("hook {} is {}, not an object", i + 1, json_kind(entry));
            findings.push(at_value(finding(message, "{ \"trigger\": …, \"action\": … }"), doc, &[Step::Key("hooks"), Step::Index(i)]));
            return;
        };
        if !hook.get("trigger").is_some_and(Value::is_string) {
            let what = if hook.contains_key("trigger") { "a `trigger` that is not a trigger's name" } else { "no `trigger`" };
            let message = format!("hook {} has {what}: Kiro never runs it", i + 1);
            findings.push(at_value(finding(message, "\"trigger\": \"PostFileSave\""), doc, &[Step::Key("hooks"), Step::Index(i)]));
        }
        if let Some(problem) = action_problem(hook, &types) {
            let at = if hook.contains_key("action") {
                vec![Step::Key("hooks"), Step::Index(i), Step::Key("action")]
            } else {
                vec![Step::Key("hooks"), Step::Index(i)]
            };
            findings.push(at_value(
                finding(
                    format!("hook {}: {problem}", i + 1),
                    "\"action\": { \"type\": \"command\", \"command\": \"…\" }` or `{ \"type\": \"agent\", \"prompt\": \"…\" }",
                ),
                doc,
                &at,
            ));
        }
    });
    findings
}

/// A finding with its help: what to write.
fn finding(message: String, write: &str) -> Diagnostic {
    Diagnostic::finding(message).label("Kiro cannot run this").help(format!("write `{write}`"))
}

/// What is wrong with the file's top level, if anything: not an object, a `version` other than
/// `"v1"`, no `hooks` list.
fn file_shape(doc: &Doc, value: &Value) -> Vec<Diagnostic> {
    let Value::Object(root) = value else {
        let message = format!("{} is {}, not an object", doc.rel, json_kind(value));
        return vec![at_value(finding(message, "{ \"version\": \"v1\", \"hooks\": [ … ] }"), doc, &[])];
    };
    // No `hooks`: one finding for the file, naming what it holds instead (one hook written alone,
    // or a hook of the IDE's older `when`/`then` form), not one per missing key.
    if !root.contains_key("hooks") {
        let message = if root.contains_key("when") || root.contains_key("then") {
            format!("{} is written in the IDE's older `.kiro.hook` form (`when`, `then`); Kiro reads a `.json` hooks file only as version \"v1\"", doc.rel)
        } else if root.contains_key("trigger") || root.contains_key("action") {
            format!("{} holds one hook, not a hooks file: Kiro runs no hook from it", doc.rel)
        } else {
            format!("{} has no `hooks` list: Kiro runs no hook from it", doc.rel)
        };
        let write = "{ \"version\": \"v1\", \"hooks\": [ { \"name\": …, \"trigger\": …, \"action\": … } ] }";
        return vec![finding(message, write).in_file(&doc.file).at(Some(0..0))];
    }
    let mut findings = Vec::new();
    match root.get("version") {
        Some(Value::String(v)) if v == "v1" => {}
        Some(other) => {
            let message = format!("`version` is {other}; Kiro reads hooks files of version \"v1\" (their hooks are not checked further)");
            findings.push(at_value(finding(message, "\"version\": \"v1\""), doc, &[Step::Key("version")]));
        }
        None => {
            let message = format!("{} has no `version`", doc.rel);
            findings.push(finding(message, "\"version\": \"v1\"").in_file(&doc.file).at(Some(0..0)));
        }
    }
    if let Some(other) = root.get("hooks").filter(|h| !h.is_array()) {
        let message = format!("`hooks` is {}, not a list of hooks", json_kind(other));
        findings.push(at_value(finding(message, "\"hooks\": [ { … } ]"), doc, &[Step::Key("hooks")]));
    }
    findings
}

/// Why a hook's `action` cannot run, if it cannot: absent, not an object, an unknown `type`, or
/// without the `command` or `prompt` its type runs.
fn action_problem(hook: &Map<String, Value>, types: &[&str]) -> Option<String> {
    let Some(action) = hook.get("action") else { return Some("no `action`: Kiro has nothing to run".to_string()) };
    let Some(action) = action.as_object() else { return Some(format!("`action` is {}, not an object", json_kind(action))) };
    let text = |key: &str| action.get(key).and_then(Value::as_str).is_some_and(|s| !s.trim().is_empty());
    match action.get("type").and_then(Value::as_str) {
        Some("command") if !text("command") => Some("a `command` action without a `command` to run".to_string()),
        Some("agent") if !text("prompt") => Some("an `agent` action without a `prompt` to send".to_string()),
        Some(t) if !types.contains(&t) => Some(format!("action type `{t}` is not one of {}", types.join(", "))),
        None => Some(format!("the `action` has no `type` ({})", types.join(" or "))),
        Some(_) => None,
    }
}
