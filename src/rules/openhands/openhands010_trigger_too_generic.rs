//! OPENHANDS010: a trigger that matches almost every message.

use crate::rules::openhands::microagents;
use crate::rules::prelude::*;

/// Words nearly every request contains.
const COMMON: [&str; 24] = [
    "the", "and", "for", "you", "can", "please", "help", "code", "file", "files", "this", "that", "with", "what", "how", "make", "use",
    "run", "fix", "add", "get", "set", "new", "test",
];

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A knowledge microagent has a trigger of fewer than two letters, or a word almost every request contains (`the`, `code`, `help`, `test`…).",
    why: "OpenHands loads a knowledge microagent when a trigger occurs anywhere in the user's message, \
          case-insensitively, as a substring: a trigger like `a` or `code` fires on nearly every message and turns \
          the microagent into an always-on one that costs context on every turn. Source: \
          All-Hands-AI/OpenHands:openhands/microagent/microagent.py@156d0686 (trigger matching).",
    fails: Example { file: ".openhands/microagents/testing.md", text: "---\nname: testing\ntriggers:\n  - test\n---\nUse pytest fixtures.\n" },
    passes: Example { file: ".openhands/microagents/testing.md", text: "---\nname: testing\ntriggers:\n  - pytest\n---\nUse pytest fixtures.\n" },
    notes: "Slash triggers (`/fix_test`) are commands, not words, and are not checked.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in microagents(cx) {
        let Some(triggers) = doc.field("triggers").and_then(|t| t.as_array()) else { continue };
        for trigger in triggers.iter().filter_map(|t| t.as_str()) {
            let word = trigger.trim().to_lowercase();
            let letters = word.chars().filter(|c| c.is_alphanumeric()).count();
            if word.starts_with('/') || (letters >= 2 && !COMMON.contains(&word.as_str())) {
                continue;
            }
            let span = doc.key_span("triggers").and_then(|k| {
                let from = k.end;
                doc.text[from..doc.body_start().max(from)].find(trigger).map(|i| from + i..from + i + trigger.len())
            });
            findings.push(
                Diagnostic::finding(format!("trigger `{trigger}` occurs in almost every message, so the microagent loads nearly always"))
                    .in_file(&doc.file)
                    .at(span.or_else(|| doc.key_span("triggers")))
                    .label("too generic")
                    .help("use words specific to the topic (tool names, error codes), or make it a repo microagent"),
            );
        }
    }
    findings
}
