//! SKILL006: a skill without a description.

use serde_json::Value;

use crate::rules::prelude::*;
use crate::rules::skills::has_case_variant;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "SKILL.md frontmatter has no `description`, or one that is not a string or is empty.",
    why: "The description is the only part of a skill the agent sees before activating it; it decides whether the skill \
          is ever used. The specification requires 1–1024 characters saying what the skill does and when to use it.",
    fails: Example { file: "skills/pdf-processing/SKILL.md", text: "---\nname: pdf-processing\ndescription: \"\"\n---\n" },
    passes: Example {
        file: "skills/pdf-processing/SKILL.md",
        text: "---\nname: pdf-processing\ndescription: Extract text from PDF files. Use when the user mentions PDFs or forms.\n---\n",
    },
    notes: "In a manifest, a skill whose `description` is missing or not a string stops loading (exit 2); an empty one, \
            and everything in zero-config linting, is a finding.",
    stage: Stage::LoadOrLint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills.iter().filter(|s| s.front.is_ok()) {
        let (message, at) = match skill.field("description") {
            // `Description` in another case is SKILL012's one finding.
            None if has_case_variant(skill, "description") => continue,
            None => ("frontmatter has no `description`".to_string(), Some(0..3.min(skill.text.len()))),
            Some(Value::String(s)) if s.trim().is_empty() => {
                ("frontmatter `description` is empty".to_string(), skill.key_span("description"))
            }
            Some(Value::String(_)) => continue,
            Some(other) => (format!("frontmatter `description` must be a string, not `{other}`"), skill.value_span("description")),
        };
        findings.push(
            Diagnostic::finding(message)
                .in_file(&skill.file)
                .at(at)
                .help("describe what the skill does and when to use it (1–1024 characters)"),
        );
    }
    findings
}
