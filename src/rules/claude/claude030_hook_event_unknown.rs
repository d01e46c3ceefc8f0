//! CLAUDE030: a hook under an event name Claude Code does not have.

use crate::diagnostic::{did_you_mean, Edit, Fix};
use crate::rules::claude::{hook_docs, hook_events};
use crate::rules::json_span::place;
use crate::rules::json_span::Step;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A key under `hooks` in a settings or plugin hooks file is not a Claude Code hook event (names are case-sensitive: `PreToolUse`, not `preToolUse`).",
    why: "Hooks are registered per event (`PreToolUse`, `PostToolUse`, `UserPromptSubmit`, `Stop`, `SessionStart`, …), \
          matched by exact, case-sensitive name. Hooks under any other key never run — a guard meant to block \
          dangerous commands silently does nothing. Source: https://code.claude.com/docs/en/hooks (hook events); the \
          list is the `HOOK_EVENTS` Claude Code writes into its Agent SDK (`data/hosts/claude-code.toml`, docs/hosts.md).",
    fails: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"preToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"./scripts/guard.sh\"}]}\n    ]\n  }\n}\n",
    },
    passes: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"./scripts/guard.sh\"}]}\n    ]\n  }\n}\n",
    },
    notes: "When only the case is wrong a safe fix writes the event's name as Claude Code spells it.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    let events_known = hook_events();
    for (doc, json) in hook_docs(cx) {
        let Some(events) = json.as_ref().as_ref().ok().and_then(|v| v.get("hooks")).and_then(|h| h.as_object()) else { continue };
        for event in events.keys().filter(|e| !events_known.contains(&e.as_str())) {
            let key = place(doc, &[Step::Key("hooks"), Step::Key(event)]).and_then(|p| p.key);
            let mut d =
                Diagnostic::finding(format!("`{event}` is not a hook event; its hooks never run")).in_file(&doc.file).at(key.clone());
            let case = events_known.iter().copied().find(|e| e.eq_ignore_ascii_case(event));
            d = match case {
                Some(right) => {
                    let d = d.help(format!("event names are case-sensitive: write `{right}`"));
                    match key {
                        Some(span) => {
                            d.fix(Fix::safe(format!("write `{right}`"), vec![Edit::replace(&doc.file, span, format!("\"{right}\""))]))
                        }
                        None => d,
                    }
                }
                None => match did_you_mean(event, events_known.iter().copied()) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None => d.help("use one of the events listed at https://code.claude.com/docs/en/hooks"),
                },
            };
            findings.push(d);
        }
    }
    findings
}
