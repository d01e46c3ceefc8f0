//! OPENHANDS009: `triggers` that is not a list of strings.

use crate::diagnostic::{Edit, Fix};
use crate::rules::openhands::microagents;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A microagent's `triggers` is a single string or a list holding non-strings.",
    why: "`triggers` is validated as `list[str]`; a bare string or a number fails validation and OpenHands does not \
          load the microagent. Source: All-Hands-AI/OpenHands:openhands/microagent/types.py@156d0686.",
    fails: Example {
        file: ".openhands/microagents/docker.md",
        text: "---\nname: docker\ntriggers: docker\n---\nUse multi-stage builds.\n",
    },
    passes: Example {
        file: ".openhands/microagents/docker.md",
        text: "---\nname: docker\ntriggers: [docker]\n---\nUse multi-stage builds.\n",
    },
    notes: "A single string on the `triggers` line gets a safe fix: the same word as a one-item list.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in microagents(cx) {
        let Some(triggers) = doc.field("triggers") else { continue };
        if triggers.is_null() || triggers.as_array().is_some_and(|a| a.iter().all(|t| t.is_string())) {
            continue;
        }
        let span = doc.value_span("triggers");
        let mut d = Diagnostic::finding(format!("`triggers` is `{triggers}`, not a list of strings"))
            .in_file(&doc.file)
            .at(span.clone())
            .label("expected a list")
            .help("write `triggers:` followed by `- word` lines, or `triggers: [word, other]`");
        if let (Some(word), Some(span)) = (triggers.as_str(), span) {
            if doc.text[span.clone()] == *word {
                d = d.fix(Fix::safe(
                    "write a one-item list",
                    vec![Edit::replace(&doc.file, span, format!("[{}]", serde_json::Value::from(word)))],
                ));
            }
        }
        findings.push(d);
    }
    findings
}
