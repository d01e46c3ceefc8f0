//! SKILL003: a skill without a name.

use serde_json::Value;

use crate::rules::prelude::*;
use crate::rules::skills::has_case_variant;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "SKILL.md frontmatter has no `name`, or a `name` that is not a string or is empty.",
    why: "`name` is required: it is how the agent lists, activates and refers to the skill.",
    fails: Example { file: "skills/pdf-processing/SKILL.md", text: "---\ndescription: Extract text from PDF files.\n---\n" },
    passes: Example {
        file: "skills/pdf-processing/SKILL.md",
        text: "---\nname: pdf-processing\ndescription: Extract text from PDF files.\n---\n",
    },
    notes: "In a manifest, a skill whose `name` is missing or not a string stops loading (exit 2); an empty name, and \
            everything in zero-config linting, is a finding.",
    stage: Stage::LoadOrLint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills.iter().filter(|s| s.front.is_ok()) {
        let (message, at) = match skill.field("name") {
            // `Name` in another case is SKILL012's one finding.
            None if has_case_variant(skill, "name") => continue,
            None => ("frontmatter has no `name`".to_string(), Some(0..3.min(skill.text.len()))),
            Some(Value::String(s)) if s.trim().is_empty() => ("frontmatter `name` is empty".to_string(), skill.key_span("name")),
            Some(Value::String(_)) => continue,
            Some(other) => (format!("frontmatter `name` must be a string, not `{other}`"), skill.value_span("name")),
        };
        findings.push(
            Diagnostic::finding(message)
                .in_file(&skill.file)
                .at(at)
                .help("add `name: FOLDER-NAME` (lowercase letters, digits and hyphens)"),
        );
    }
    findings
}
