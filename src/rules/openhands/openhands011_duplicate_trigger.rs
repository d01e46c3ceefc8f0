//! OPENHANDS011: a trigger listed twice.

use crate::rules::openhands::microagents;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A microagent lists the same trigger twice (ignoring letter case).",
    why: "Triggers are matched case-insensitively, so `Docker` and `docker` are the same trigger; the repeat adds \
          nothing and often stands where a different word was meant. Source: \
          All-Hands-AI/OpenHands:openhands/microagent/microagent.py@156d0686.",
    fails: Example {
        file: ".openhands/microagents/docker.md",
        text: "---\nname: docker\ntriggers:\n  - docker\n  - Docker\n---\nUse multi-stage builds.\n",
    },
    passes: Example {
        file: ".openhands/microagents/docker.md",
        text: "---\nname: docker\ntriggers:\n  - docker\n  - container\n---\nUse multi-stage builds.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in microagents(cx) {
        let Some(triggers) = doc.field("triggers").and_then(|t| t.as_array()) else { continue };
        let words: Vec<&str> = triggers.iter().filter_map(|t| t.as_str()).collect();
        for (i, word) in words.iter().enumerate() {
            if let Some(first) = words[..i].iter().find(|w| w.eq_ignore_ascii_case(word)) {
                findings.push(
                    Diagnostic::finding(format!("trigger `{word}` repeats `{first}` (triggers ignore case)"))
                        .in_file(&doc.file)
                        .at(doc.key_span("triggers"))
                        .label("duplicate trigger")
                        .help("remove the repeat"),
                );
            }
        }
    }
    findings
}
