//! OPENHANDS004: `type: repo` that OpenHands loads as another type.

use crate::rules::openhands::{microagents, openhands_inferred_type};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A microagent declares `type: repo` but has `triggers` or `inputs`, so OpenHands loads it as a knowledge or task microagent.",
    why: "Repository microagents are always in the context. OpenHands infers the type from the fields, not from \
          `type`: with `triggers` the microagent is loaded only when a trigger word appears, with `inputs` only when \
          invoked as a task — not on every conversation as declared. Source: \
          All-Hands-AI/OpenHands:openhands/microagent/microagent.py@156d0686.",
    fails: Example {
        file: ".openhands/microagents/repo.md",
        text: "---\nname: repo\ntype: repo\ntriggers:\n  - build\n---\nRun `make test` before committing.\n",
    },
    passes: Example {
        file: ".openhands/microagents/repo.md",
        text: "---\nname: repo\ntype: repo\n---\nRun `make test` before committing.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in microagents(cx).filter(|d| d.string("type") == Some("repo")) {
        let inferred = openhands_inferred_type(doc);
        if inferred == "repo" {
            continue;
        }
        let cause = if inferred == "task" { "inputs" } else { "triggers" };
        findings.push(
            Diagnostic::finding(format!(
                "`type: repo` is not what OpenHands loads: it has `{cause}`, so it is a {inferred} microagent, not always on"
            ))
            .in_file(&doc.file)
            .at(doc.key_span(cause))
            .label(format!("makes it `{inferred}`"))
            .help(format!("remove `{cause}` to keep it always on, or declare `type: {inferred}`")),
        );
    }
    findings
}
