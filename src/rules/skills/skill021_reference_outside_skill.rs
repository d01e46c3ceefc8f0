//! SKILL021: SKILL.md links to a file outside the skill's folder.

use crate::rules::prelude::*;
use crate::rules::refs::{self, Resolved, Target};

pub const RULE: Rule = Rule {
    code: Code::SKILL021,
    name: "reference-outside-skill",
    family: Family::Skills,
    severity: Severity::Warning,
    summary: "A SKILL.md links (with `../`) to a file of the project outside the skill's own folder.",
    why: "A skill is a self-contained folder: it is installed by copying that folder (into `~/.claude/skills/`, a \
          plugin or another repository), and its file references are \"relative paths from the skill root\" \
          (Agent Skills specification, https://agentskills.io/specification#file-references; \
          /work/shared/corpus/spec/agentskills-specification.mdx). A link climbing out of the folder works in the \
          source repository and nowhere the skill is installed.",
    fails: Example {
        file: "skills/release/SKILL.md",
        text: "---\nname: release\ndescription: Cut a release. Use when the user asks to publish a version.\n---\nFollow [the checklist](../../docs/release-checklist.md).\n",
    },
    passes: Example {
        file: "skills/release/SKILL.md",
        text: "---\nname: release\ndescription: Cut a release. Use when the user asks to publish a version.\n---\nFollow [the checklist](references/release-checklist.md).\n",
    },
    notes: "Only links to files that exist are reported here (a missing one is LINK001, one leaving the project \
            LINK002). A skill whose SKILL.md is at the project root has no outside.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let Some((dir, _)) = skill.rel.rsplit_once('/') else { continue };
        for link in refs::links(&skill.text) {
            let Target::Relative { path, .. } = refs::target(&link.dest) else { continue };
            let Resolved::Exists(rel) = refs::resolve(cx, dir, &path) else { continue };
            if rel == dir || rel.starts_with(&format!("{dir}/")) {
                continue;
            }
            findings.push(
                Diagnostic::warning(format!("link to `{}` leaves the skill's folder (`{rel}`)", link.dest))
                    .in_file(&skill.file)
                    .at(Some(link.span))
                    .label("outside the skill")
                    .help("copy the file into the skill (e.g. `references/`) and link to the copy, or link to its URL"),
            );
        }
    }
    findings
}
