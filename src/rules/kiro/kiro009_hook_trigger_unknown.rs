//! KIRO009: a hook of `.kiro/hooks/*.json` whose `trigger` Kiro does not fire.

use serde_json::Value;

use crate::rules::json_span::{at_value, place, Step};
use crate::rules::kiro::{hook_entries, kiro_values};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A hook in a Kiro hooks file (`.kiro/hooks/*.json`) has a `trigger` Kiro does not fire (often a Kiro 2.x name such as `fileEdited` or `preToolUse`).",
    why: "Kiro fires a hook only on one of its triggers, spelt as its hooks page lists them (`SessionStart`, `Stop`, \
          `PreToolUse`, `PostToolUse`, `PreTaskExec`, `PostTaskExec`, `UserPromptSubmit`, `PostFileCreate`, \
          `PostFileSave`, `PostFileDelete`, `Manual`). Kiro 3 renamed the triggers of 2.x agent configurations \
          (`agentSpawn` is `SessionStart`, `fileEdited` is `PostFileSave`, `preToolUse` is `PreToolUse`…); a hook \
          written with an old or misspelt name never runs. Source: https://kiro.dev/docs/cli/v3/hooks/ (checked \
          2026-11-30); the list is Kiro's host model, `data/hosts/kiro.toml`.",
    fails: Example {
        file: ".kiro/hooks/lint.json",
        text: "{\n  \"version\": \"v1\",\n  \"hooks\": [\n    { \"name\": \"lint-on-save\", \"trigger\": \"fileEdited\", \"action\": { \"type\": \"command\", \"command\": \"npm run lint\" } }\n  ]\n}\n",
    },
    passes: Example {
        file: ".kiro/hooks/lint.json",
        text: "{\n  \"version\": \"v1\",\n  \"hooks\": [\n    { \"name\": \"lint-on-save\", \"trigger\": \"PostFileSave\", \"action\": { \"type\": \"command\", \"command\": \"npm run lint\" } }\n  ]\n}\n",
    },
    notes: "A renamed 2.x trigger is fixed to its Kiro 3 name (a safe fix: the page gives the mapping). Kiro adds triggers \
            over time; one newer than ctxc's host model is reported until the model lists it.",
    stage: Stage::Lint(check),
};

/// The triggers of Kiro 2.x agent configurations and their Kiro 3 names (the hooks page's
/// migration table).
const RENAMED: [(&str, &str); 7] = [
    ("agentSpawn", "SessionStart"),
    ("userPromptSubmit", "UserPromptSubmit"),
    ("preToolUse", "PreToolUse"),
    ("postToolUse", "PostToolUse"),
    ("fileEdited", "PostFileSave"),
    ("fileCreated", "PostFileCreate"),
    ("stop", "Stop"),
];

fn check(cx: &Context) -> Vec<Diagnostic> {
    let known = kiro_values("hook-triggers");
    let mut findings = Vec::new();
    hook_entries(cx, |doc, i, entry| {
        let Some(trigger) = entry.get("trigger").and_then(Value::as_str) else { return };
        if known.contains(&trigger) {
            return;
        }
        let path = [Step::Key("hooks"), Step::Index(i), Step::Key("trigger")];
        let renamed = RENAMED.iter().find(|(old, _)| *old == trigger).map(|(_, new)| *new);
        let near = renamed.or_else(|| known.iter().copied().find(|k| k.eq_ignore_ascii_case(trigger)));
        let mut d = Diagnostic::finding(format!("`{trigger}` is not a Kiro hook trigger: the hook never runs")).label("unknown trigger");
        d = match near {
            Some(new) => {
                d = d.help(format!("Kiro 3 calls it `{new}`"));
                match place(doc, &path) {
                    Some(at) => d.fix(Fix::safe(format!("write `{new}`"), vec![Edit::replace(&doc.file, at.value, format!("\"{new}\""))])),
                    None => d,
                }
            }
            None => d.help(format!("use one of Kiro's triggers: {}", known.join(", "))),
        };
        findings.push(at_value(d, doc, &path));
    });
    findings
}
