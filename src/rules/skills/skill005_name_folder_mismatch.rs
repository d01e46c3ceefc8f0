//! SKILL005: a skill whose name differs from its folder.

use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::SKILL005,
    name: "name-folder-mismatch",
    family: Family::Skills,
    severity: Severity::Error,
    summary: "A skill's `name` is not the name of the folder that holds its SKILL.md.",
    why: "The specification requires the name to match the parent directory. Agents find a skill's files by its name; \
          with a mismatch, the catalogue names a skill whose folder cannot be found by that name (or two tools \
          disagree on what the skill is called).",
    fails: Example { file: "skills/template/SKILL.md", text: "---\nname: template-skill\ndescription: Replace with a description of the skill.\n---\n" },
    passes: Example { file: "skills/template-skill/SKILL.md", text: "---\nname: template-skill\ndescription: Replace with a description of the skill.\n---\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let Some(name) = skill.string("name") else { continue };
        if name.trim().is_empty() || skill.folder.is_empty() || name == skill.folder {
            continue;
        }
        findings.push(
            Diagnostic::error(format!("skill name `{name}` does not match its folder `{}`", skill.folder))
                .in_file(&skill.file)
                .at(skill.value_span("name"))
                .label(format!("folder is `{}`", skill.folder))
                .help("rename the folder or the skill so they match"),
        );
    }
    findings
}
