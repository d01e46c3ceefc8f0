//! SKILL004: a skill name that breaks the specification's naming rules.

use crate::rules::prelude::*;
use crate::rules::skills::{kebab, name_problems, replace_value};

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A skill `name` is over 64 characters, has characters other than lowercase letters, digits and hyphens, or starts, ends or doubles a hyphen.",
    why: "The specification restricts names so they work as folder names, identifiers and activation keys everywhere; \
          clients that validate (such as `skills-ref validate`) reject the skill.",
    fails: Example { file: "skills/pdf-processing/SKILL.md", text: "---\nname: PDF--Processing\ndescription: Extract text from PDF files.\n---\n" },
    passes: Example { file: "skills/pdf-processing/SKILL.md", text: "---\nname: pdf-processing\ndescription: Extract text from PDF files.\n---\n" },
    notes: "Names are checked in Unicode NFKC form, as `skills-ref` does: lowercase letters of any script are accepted \
            (see \"Conformance with skills-ref\" in docs/lint.md). Fix (unsafe, renames the skill): when the folder's name is \
            the name in kebab case (`PDF_Processing` in `pdf-processing/`), the name becomes the folder's.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let Some(name) = skill.string("name") else { continue };
        let problems = name_problems(name);
        if problems.is_empty() {
            continue;
        }
        let mut d = Diagnostic::finding(format!("skill name `{name}` {}", problems.join("; ")))
            .in_file(&skill.file)
            .at(skill.value_span("name"))
            .label("invalid name")
            .help("names are 1–64 lowercase letters, digits and single hyphens, not at the start or end");
        // Only towards the folder's name: renaming away from it would break SKILL005.
        if let Some(edit) = kebab(name).filter(|k| *k == skill.folder).and_then(|k| replace_value(skill, "name", &k)) {
            d = d.fix(Fix::unsafe_(format!("rename the skill to `{}`", skill.folder), vec![edit]));
        }
        findings.push(d);
    }
    findings
}
