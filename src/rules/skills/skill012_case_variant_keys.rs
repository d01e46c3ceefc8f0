//! SKILL012: frontmatter keys that differ only by case.

use crate::memo::KeyMap;
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
        // The first key of each spelling, by its lowercase form.
        let mut first: KeyMap<String, &str> = KeyMap::default();
        for (key, _) in skill.fields() {
            let key = key.as_str();
            let twin = match first.entry(key.to_ascii_lowercase()) {
                std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(key);
                    None
                }
            };
            let spec = SPEC_FIELDS.iter().find(|f| f.eq_ignore_ascii_case(key) && **f != key);
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
