//! SKILL011: a frontmatter field the specification does not define (strict level only).

use crate::manifest::lint::SkillLevel;
use crate::rules::prelude::*;
use crate::rules::skill_fields::SPEC_FIELDS;

pub const RULE: Rule = Rule {
    code: Code::SKILL011,
    name: "unknown-field",
    family: Family::Skills,
    severity: Severity::Error,
    summary: "Strict level only: SKILL.md frontmatter has a field the Agent Skills specification does not define.",
    why: "Skills are meant to be portable between agents. Fields that one framework adds (Zeus: `version`, `author`, \
          `tags`, `triggers`, `priority`, `enabled`) mean nothing to the others; strict validation keeps a skill to the \
          specification's `name`, `description`, `license`, `compatibility`, `metadata` and `allowed-tools` (put \
          anything else under `metadata`).",
    fails: Example { file: "skills/meeting-notes/SKILL.md", text: "---\nname: meeting-notes\ndescription: Turn a transcript into notes.\nversion: \"1.2\"\n---\n" },
    passes: Example { file: "skills/meeting-notes/SKILL.md", text: "---\nname: meeting-notes\ndescription: Turn a transcript into notes.\nmetadata:\n  version: \"1.2\"\n---\n" },
    notes: "Levels: **lenient** (the default) allows any extra field; **strict** (`--strict`, or `[lint] skills = \"strict\"`) \
            reports every field outside the specification. This is the only rule the level changes. A field that \
            differs from a specification field only by case (`Name`) is SKILL012's.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    if cx.settings.skills != SkillLevel::Strict {
        return Vec::new();
    }
    let mut findings = Vec::new();
    for skill in cx.skills {
        for (key, _) in skill.fields() {
            if SPEC_FIELDS.contains(&key.as_str()) || SPEC_FIELDS.iter().any(|f| f.eq_ignore_ascii_case(key)) {
                continue;
            }
            findings.push(
                Diagnostic::error(format!("frontmatter field `{key}` is not in the Agent Skills specification (strict level)"))
                    .in_file(&skill.file)
                    .at(skill.key_span(key))
                    .label("not a specification field")
                    .help(format!("move it under `metadata` (as a string), or drop it; fields: {}", SPEC_FIELDS.join(", "))),
            );
        }
    }
    findings
}
