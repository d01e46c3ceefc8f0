//! SKILL009: `metadata` that is not a map of strings to strings.

use serde_json::Value;

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A skill's optional `metadata` is not a mapping, or has values that are not strings (numbers, lists, nested maps).",
    why: "The specification defines `metadata` as a map from string keys to string values so every client can read it \
          the same way. YAML turns `version: 1.0` into a number and `tags: [a, b]` into a list; quote the value \
          (`version: \"1.0\"`). One boolean is left alone: `internal: true`, the flag with which the `skills` \
          installer (`npx skills add`) hides a skill, read only as the YAML boolean; quoted, it would publish \
          the skill.",
    fails: Example {
        file: "skills/pdf-processing/SKILL.md",
        text: "---\nname: pdf-processing\ndescription: Extract text from PDFs.\nmetadata:\n  version: 1.0\n---\n",
    },
    passes: Example {
        file: "skills/pdf-processing/SKILL.md",
        text: "---\nname: pdf-processing\ndescription: Extract text from PDFs.\nmetadata:\n  version: \"1.0\"\n---\n",
    },
    notes: "Fix (safe): numbers and booleans are quoted as written (`version: 1.10` becomes `version: \"1.10\"`, \
            the text the author wrote, where YAML would read the number 1.1).",
    stage: Stage::Lint(check),
};

/// Metadata keys an installer reads as a YAML boolean, so that quoting them would change what it
/// does. The `skills` CLI (vercel-labs/skills, the installer behind `npx skills add`) documents
/// `metadata: internal: true` for skills it should not offer, and its `parseSkillMd`
/// (`src/skills.ts`) tests `metadata?.internal === true`: the string `"true"` would not hide the
/// skill.
const BOOLEAN_FLAGS: &[&str] = &["internal"];

/// Whether `key: value` breaks the specification's strings-only `metadata`.
fn not_a_string(key: &str, value: &Value) -> bool {
    let flag = value.is_boolean() && BOOLEAN_FLAGS.contains(&key);
    !(value.is_string() || flag)
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let (problem, fix) = match skill.field("metadata") {
            None => continue,
            Some(Value::Object(map)) => {
                let bad: Vec<(&String, &Value)> = map.iter().filter(|(k, v)| not_a_string(k, v)).collect();
                if bad.is_empty() {
                    continue;
                }
                let shown: Vec<String> = bad.iter().map(|(k, v)| format!("`{k}` is `{v}`")).collect();
                (format!("has values that are not strings: {}", shown.join(", ")), quote_all(skill, &bad))
            }
            Some(other) => (format!("must be a mapping of strings to strings, not `{other}`"), None),
        };
        let mut d = Diagnostic::finding(format!("frontmatter `metadata` {problem}"))
            .in_file(&skill.file)
            .at(skill.key_span("metadata"))
            .help("quote every value, e.g. `version: \"1.0\"`");
        if let Some(fix) = fix {
            d = d.fix(fix);
        }
        findings.push(d);
    }
    findings
}

/// Quotes each number or boolean as written (`1.10` stays `"1.10"`); `None` when a value is
/// something else (a list, a map, empty) or not written on its key's line.
fn quote_all(skill: &crate::agent_files::Doc, bad: &[(&String, &Value)]) -> Option<Fix> {
    let mut edits = Vec::new();
    for (key, value) in bad {
        if !(value.is_number() || value.is_boolean()) {
            return None;
        }
        let span = skill.plain_member_span("metadata", key)?;
        edits.push(Edit::replace(&skill.file, span.clone(), format!("\"{}\"", &skill.text[span])));
    }
    Some(Fix::safe("quote the metadata values", edits))
}
