//! SKILL016: two skills with one name.

use crate::memo::KeyMap;
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
    let mut first_of: KeyMap<&str, &str> = KeyMap::default();
    for skill in cx.skills {
        let Some(name) = skill.string("name").filter(|n| !n.trim().is_empty()) else { continue };
        let Some(first) = first_of.get(name) else {
            first_of.insert(name, &skill.file);
            continue;
        };
        findings.push(
            Diagnostic::warning(format!("skill `{name}` is also defined in {first}; only one of them can be activated by name"))
                .in_file(&skill.file)
                .at(skill.value_span("name"))
                .label("second definition")
                .help("rename one of them; in a manifest, the skill from the later `[skills] dirs` entry wins"),
        );
    }
    findings
}
