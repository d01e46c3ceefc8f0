//! SKILL005: a skill whose name differs from its folder.

use crate::rules::prelude::*;
use crate::rules::skills::{kebab, name_problems, nfkc, replace_value};

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A skill's `name` is not the name of the folder that holds its SKILL.md.",
    why: "The specification requires the name to match the parent directory. Agents find a skill's files by its name; \
          with a mismatch, the catalogue names a skill whose folder cannot be found by that name (or two tools \
          disagree on what the skill is called).",
    fails: Example {
        file: "skills/template/SKILL.md",
        text: "---\nname: template-skill\ndescription: Replace with a description of the skill.\n---\n",
    },
    passes: Example {
        file: "skills/template-skill/SKILL.md",
        text: "---\nname: template-skill\ndescription: Replace with a description of the skill.\n---\n",
    },
    notes: "Name and folder are compared in Unicode NFKC form, as `skills-ref` does. A name that is its folder's name \
            spelt against the naming rules (`PDF_Processing` in `pdf-processing/`) is reported once, by SKILL004. \
            Fix (unsafe, renames the skill): when the folder's name is a valid name, the skill takes it.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let Some(name) = skill.string("name") else { continue };
        // Compared in NFKC form (as skills-ref does); a name that is the folder's misspelt
        // (`PDF_Processing` in `pdf-processing/`) is SKILL004's one finding.
        if name.trim().is_empty()
            || skill.folder.is_empty()
            || nfkc(name) == nfkc(&skill.folder)
            || kebab(name).is_some_and(|k| k == skill.folder)
        {
            continue;
        }
        let mut d = Diagnostic::finding(format!("skill name `{name}` does not match its folder `{}`", skill.folder))
            .in_file(&skill.file)
            .at(skill.value_span("name"))
            .label(format!("folder is `{}`", skill.folder))
            .help("rename the folder or the skill so they match");
        if let Some(edit) = Some(&skill.folder).filter(|f| name_problems(f).is_empty()).and_then(|f| replace_value(skill, "name", f)) {
            d = d.fix(Fix::unsafe_(format!("rename the skill to its folder's name `{}`", skill.folder), vec![edit]));
        }
        findings.push(d);
    }
    findings
}
