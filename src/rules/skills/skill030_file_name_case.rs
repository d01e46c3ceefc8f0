//! SKILL030: a skill file named `skill.md` (or another case of `SKILL.md`).

use crate::agent_files::SKILL_FILE;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A skill's file is named in another case than `SKILL.md` (for example `skill.md`).",
    why: "The specification names the file one way: \"A skill is a directory containing, at minimum, a `SKILL.md` file\" \
          (https://agentskills.io/specification). Clients that look the file up by that exact name on a case-sensitive \
          file system do not find `skill.md`, and the skill silently does not exist for them; the reference validator \
          accepts `skill.md` but rejects any other case (`Skill.md`: \"Missing required file: SKILL.md\").",
    fails: Example {
        file: "skills/release-notes/skill.md",
        text: "---\nname: release-notes\ndescription: Draft release notes from merged pull requests.\n---\n",
    },
    passes: Example {
        file: "skills/release-notes/SKILL.md",
        text: "---\nname: release-notes\ndescription: Draft release notes from merged pull requests.\n---\n",
    },
    notes: "ctxc lints the file whatever its case (as `skills-ref` reads `skill.md`), and says to rename it. No automatic fix: \
            fixes edit text, and this one renames a file.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    cx.skills
        .iter()
        .filter(|skill| skill.name() != SKILL_FILE)
        .map(|skill| {
            Diagnostic::finding(format!("skill file is named `{}`, not `{SKILL_FILE}`", skill.name()))
                .in_file(&skill.file)
                .help(format!("rename it to `{SKILL_FILE}`: clients look for that exact name"))
        })
        .collect()
}
