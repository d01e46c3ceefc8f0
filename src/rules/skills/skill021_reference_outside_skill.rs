//! SKILL021: SKILL.md links to a file outside the skill's folder, or the folder holds a symbolic
//! link leading out of it.

use crate::rules::prelude::*;
use crate::rules::refs::{self, Bundle, Resolved, Target};

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A SKILL.md links (with `../`) to a file of the project outside the skill's own folder, or a file in the folder is a symbolic link leading out of it.",
    why: "A skill is a self-contained folder: it is installed by copying that folder (into `~/.claude/skills/`, a \
          plugin or another repository), and its file references are \"relative paths from the skill root\" \
          (Agent Skills specification, https://agentskills.io/specification#file-references; \
          /work/shared/corpus/spec/agentskills-specification.mdx). A link climbing out of the folder works in the \
          source repository and nowhere the skill is installed; so does a symbolic link in the folder, which is \
          copied as a link and then points at nothing.",
    fails: Example {
        file: "skills/release/SKILL.md",
        text: "---\nname: release\ndescription: Cut a release. Use when the user asks to publish a version.\n---\nFollow [the checklist](../../docs/release-checklist.md).\n",
    },
    passes: Example {
        file: "skills/release/SKILL.md",
        text: "---\nname: release\ndescription: Cut a release. Use when the user asks to publish a version.\n---\nFollow [the checklist](references/release-checklist.md).\n",
    },
    notes: "Links to other skills (a file in another folder holding a SKILL.md) are not reported: collections ship \
            their skills together and skills name each other. Only links to files that exist are reported here (a missing one is LINK001, one leaving the project \
            LINK002). A skill whose SKILL.md is at the project root has no outside. Symbolic links are reported \
            when they lead out of the skill's folder, out of the project, or to nothing.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let Some((dir, _)) = skill.rel.rsplit_once('/') else { continue };
        let inside = |rel: &str| rel == dir || rel.starts_with(&format!("{dir}/"));
        // Inside another skill of the collection: skills link to each other.
        let in_a_skill =
            |rel: &str| cx.skills.iter().filter_map(|s| s.rel.rsplit_once('/')).any(|(d, _)| rel == d || rel.starts_with(&format!("{d}/")));
        for link in refs::links(cx.root.cache(), &skill.text) {
            let Target::Relative { path, .. } = refs::target(&link.dest) else { continue };
            let Resolved::Exists(rel) = refs::resolve(cx, dir, &path) else { continue };
            if inside(&rel) || in_a_skill(&rel) {
                continue;
            }
            findings.push(
                Diagnostic::finding(format!("link to `{}` leaves the skill's folder (`{rel}`)", link.dest))
                    .in_file(&skill.file)
                    .at(Some(link.span))
                    .label("outside the skill")
                    .help("copy the file into the skill (e.g. `references/`) and link to the copy, or link to its URL"),
            );
        }
        let bundle = Bundle::of(cx, &skill.rel);
        for file in bundle.files.iter().filter(|f| f.symlink && !f.target.as_deref().is_some_and(inside)) {
            let leads = match &file.target {
                Some(target) => format!("to `{target}`, outside the skill's folder"),
                None => "out of the project or to nothing".to_string(),
            };
            let body = skill.body_start();
            findings.push(
                Diagnostic::finding(format!("`{}` in the skill is a symbolic link {leads}", file.rel))
                    .in_file(&skill.file)
                    .at(Some(body..body))
                    .label("link leaves the skill")
                    .help("replace the link with a copy of the file, so the skill works wherever it is installed"),
            );
        }
    }
    findings
}
