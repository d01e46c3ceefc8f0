//! OPENHANDS002: a microagent `type` outside knowledge, repo and task.

use crate::diagnostic::{did_you_mean, Edit, Fix};
use crate::rules::openhands::microagents;
use crate::rules::prelude::*;

const TYPES: [&str; 3] = ["knowledge", "repo", "task"];

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An OpenHands microagent's `type` is not `knowledge`, `repo` or `task`.",
    why: "`type` is validated against the `MicroagentType` enum; any other value fails with `Invalid \"type\" value` \
          and the microagent is not loaded. Sources: All-Hands-AI/OpenHands:openhands/microagent/types.py@156d0686, \
          openhands/microagent/microagent.py@156d0686.",
    fails: Example {
        file: ".openhands/microagents/docker.md",
        text: "---\nname: docker\ntype: Knowledge\ntriggers: [docker]\n---\nUse multi-stage builds.\n",
    },
    passes: Example {
        file: ".openhands/microagents/docker.md",
        text: "---\nname: docker\ntype: knowledge\ntriggers: [docker]\n---\nUse multi-stage builds.\n",
    },
    notes: "A value that is a valid type in other letter case gets a safe fix (write it in lowercase).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in microagents(cx) {
        let Some(value) = doc.field("type") else { continue };
        let text = value.as_str().map_or_else(|| value.to_string(), str::to_string);
        if TYPES.contains(&text.as_str()) {
            continue;
        }
        let lower = text.to_ascii_lowercase();
        let help = did_you_mean(&text, TYPES).map_or("use `knowledge`, `repo` or `task`".to_string(), |s| format!("did you mean `{s}`?"));
        let mut d = Diagnostic::finding(format!("`type` is `{text}`; OpenHands accepts only `knowledge`, `repo` and `task`"))
            .in_file(&doc.file)
            .at(doc.value_span("type"))
            .label("invalid type")
            .help(help);
        if let (true, Some(span)) = (TYPES.contains(&lower.as_str()), doc.value_span("type")) {
            if doc.text[span.clone()] == text {
                d = d.fix(Fix::safe(format!("write `{lower}`"), vec![Edit::replace(&doc.file, span, lower.clone())]));
            }
        }
        findings.push(d);
    }
    findings
}
