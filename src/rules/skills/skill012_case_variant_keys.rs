//! SKILL012: frontmatter keys that differ only by case.

use crate::rules::prelude::*;
use crate::rules::skill_fields::SPEC_FIELDS;

pub const RULE: Rule = Rule {
    code: Code::SKILL012,
    name: "case-variant-keys",
    family: Family::Skills,
    severity: Severity::Error,
    summary: "Two frontmatter keys differ only by case (`name` and `Name`), or a key is a specification field in the wrong case (`Description`).",
    why: "YAML keys are case-sensitive, so `Description:` is not `description:`: the skill has no description as far as \
          the specification is concerned, and which of two case variants an agent reads depends on its parser.",
    fails: Example { file: "skills/notes/SKILL.md", text: "---\nname: notes\nDescription: Take meeting notes.\n---\n" },
    passes: Example { file: "skills/notes/SKILL.md", text: "---\nname: notes\ndescription: Take meeting notes.\n---\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let keys: Vec<&str> = skill.fields().iter().map(|(k, _)| k.as_str()).collect();
        for (i, key) in keys.iter().enumerate() {
            let twin = keys[..i].iter().find(|other| other.eq_ignore_ascii_case(key));
            let spec = SPEC_FIELDS.iter().find(|f| f.eq_ignore_ascii_case(key) && *f != key);
            let message = match (twin, spec) {
                (Some(twin), _) => format!("frontmatter keys `{twin}` and `{key}` differ only by case"),
                (None, Some(spec)) => format!("frontmatter key `{key}` is the specification's `{spec}` in the wrong case"),
                (None, None) => continue,
            };
            let help = match spec {
                Some(spec) => format!("write it as `{spec}` (keys are case-sensitive)"),
                None => "keep one of them (keys are case-sensitive)".to_string(),
            };
            findings.push(Diagnostic::error(message).in_file(&skill.file).at(skill.key_span(key)).help(help));
        }
    }
    findings
}
