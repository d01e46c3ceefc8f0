//! OPENHANDS003: `type: knowledge` that OpenHands loads as another type.

use crate::rules::openhands::{microagents, openhands_inferred_type};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A microagent declares `type: knowledge` but has no `triggers` (or has `inputs`), so OpenHands loads it as another type.",
    why: "OpenHands ignores the declared type and infers it: `inputs` make a task microagent, `triggers` a knowledge \
          microagent, and neither an always-on repository microagent. A knowledge microagent without triggers is \
          therefore added to every conversation instead of only when a trigger word appears. Source: \
          All-Hands-AI/OpenHands:openhands/microagent/microagent.py@156d0686.",
    fails: Example { file: ".openhands/microagents/docker.md", text: "---\nname: docker\ntype: knowledge\n---\nUse multi-stage builds.\n" },
    passes: Example {
        file: ".openhands/microagents/docker.md",
        text: "---\nname: docker\ntype: knowledge\ntriggers:\n  - docker\n---\nUse multi-stage builds.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in microagents(cx).filter(|d| d.string("type") == Some("knowledge")) {
        let inferred = openhands_inferred_type(doc);
        if inferred == "knowledge" {
            continue;
        }
        let (message, help) = match inferred {
            "repo" => (
                "it has no `triggers`, so OpenHands loads it as an always-on repo microagent",
                "add `triggers:` with the words that should load it",
            ),
            _ => ("it has `inputs`, so OpenHands loads it as a task microagent", "remove `inputs`, or declare `type: task`"),
        };
        findings.push(
            Diagnostic::finding(format!("`type: knowledge` is not what OpenHands loads: {message}"))
                .in_file(&doc.file)
                .at(doc.value_span("type"))
                .label(format!("loaded as `{inferred}`"))
                .help(help),
        );
    }
    findings
}
