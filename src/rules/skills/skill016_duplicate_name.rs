//! SKILL016: two skills with one name.

use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::SKILL016,
    name: "duplicate-name",
    family: Family::Skills,
    severity: Severity::Warning,
    summary: "Two SKILL.md files declare the same skill `name`.",
    why: "Skills are activated by name, so only one of the two can be reached. In a manifest the skill from the later \
          `[skills] dirs` entry replaces the earlier one (an intended override is fine, but it is easy to shadow a \
          skill by accident); other agents may load both and pick either.",
    fails: Example {
        file: "skills/notes/SKILL.md",
        text: "---\nname: notes\ndescription: Take meeting notes.\n---\n\n# and team-skills/notes-v2/SKILL.md also says `name: notes`\n",
    },
    passes: Example {
        file: "skills/notes/SKILL.md",
        text: "---\nname: notes\ndescription: Take meeting notes.\n---\n\n# and team-skills/notes-v2/SKILL.md says `name: notes-v2`\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (i, skill) in cx.skills.iter().enumerate() {
        let Some(name) = skill.string("name").filter(|n| !n.trim().is_empty()) else { continue };
        let Some(first) = cx.skills[..i].iter().find(|s| s.string("name") == Some(name)) else { continue };
        findings.push(
            Diagnostic::warning(format!("skill `{name}` is also defined in {}; only one of them can be activated by name", first.file))
                .in_file(&skill.file)
                .at(skill.value_span("name"))
                .label("second definition")
                .help("rename one of them; in a manifest, the skill from the later `[skills] dirs` entry wins"),
        );
    }
    findings
}
