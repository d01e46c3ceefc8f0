//! SKILL009: `metadata` that is not a map of strings to strings.

use serde_json::Value;

use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::SKILL009,
    name: "metadata-not-strings",
    family: Family::Skills,
    severity: Severity::Error,
    summary: "A skill's optional `metadata` is not a mapping, or has values that are not strings (numbers, lists, nested maps).",
    why: "The specification defines `metadata` as a map from string keys to string values so every client can read it \
          the same way. YAML turns `version: 1.0` into a number and `tags: [a, b]` into a list; quote the value \
          (`version: \"1.0\"`).",
    fails: Example { file: "skills/pdf-processing/SKILL.md", text: "---\nname: pdf-processing\ndescription: Extract text from PDFs.\nmetadata:\n  version: 1.0\n---\n" },
    passes: Example { file: "skills/pdf-processing/SKILL.md", text: "---\nname: pdf-processing\ndescription: Extract text from PDFs.\nmetadata:\n  version: \"1.0\"\n---\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let problem = match skill.field("metadata") {
            None => continue,
            Some(Value::Object(map)) => {
                let bad: Vec<String> = map.iter().filter(|(_, v)| !v.is_string()).map(|(k, v)| format!("`{k}` is `{v}`")).collect();
                if bad.is_empty() {
                    continue;
                }
                format!("has values that are not strings: {}", bad.join(", "))
            }
            Some(other) => format!("must be a mapping of strings to strings, not `{other}`"),
        };
        findings.push(
            Diagnostic::error(format!("frontmatter `metadata` {problem}"))
                .in_file(&skill.file)
                .at(skill.key_span("metadata"))
                .help("quote every value, e.g. `version: \"1.0\"`"),
        );
    }
    findings
}
