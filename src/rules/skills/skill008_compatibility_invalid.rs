//! SKILL008: a `compatibility` field that is empty, not a string, or over 500 characters.

use serde_json::Value;

use crate::rules::prelude::*;
use crate::rules::skills::COMPATIBILITY_MAX;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A skill's optional `compatibility` is not a string, is empty, or is longer than 500 characters.",
    why: "`compatibility` states environment requirements (product, packages, network). The specification allows 1–500 \
          characters; more is a sign of instructions that belong in the body.",
    fails: Example {
        file: "skills/remember/SKILL.md",
        text: "---\nname: remember\ndescription: Save facts for later.\ncompatibility: \"\"\n---\n",
    },
    passes: Example {
        file: "skills/remember/SKILL.md",
        text: "---\nname: remember\ndescription: Save facts for later.\ncompatibility: Requires a writable home directory\n---\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let problem = match skill.field("compatibility") {
            None => continue,
            Some(Value::String(s)) if s.trim().is_empty() => "is empty".to_string(),
            Some(Value::String(s)) if s.chars().count() > COMPATIBILITY_MAX => {
                format!("is {} characters long, over the specification's {COMPATIBILITY_MAX}", s.chars().count())
            }
            Some(Value::String(_)) => continue,
            Some(other) => format!("must be a string, not `{other}`"),
        };
        findings.push(
            Diagnostic::finding(format!("frontmatter `compatibility` {problem}"))
                .in_file(&skill.file)
                .at(skill.key_span("compatibility"))
                .help("state environment requirements in 1–500 characters, or leave the field out"),
        );
    }
    findings
}
