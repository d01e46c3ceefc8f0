//! SKILL022: a symbolic link in a skill's folder that leads out of it.

use crate::rules::prelude::*;
use crate::rules::refs::Bundle;

pub const RULE: Rule = Rule {
    code: Code::SKILL022,
    name: "bundled-link-escapes",
    family: Family::Skills,
    severity: Severity::Warning,
    summary: "A file in a skill's folder is a symbolic link to a place outside that folder (or to nothing).",
    why: "Skills travel as folders (copied into `~/.claude/skills/`, zipped for upload, installed from a \
          marketplace); a symbolic link to `../../shared/x.md` is copied as a link and then points at nothing, so \
          the file the skill relies on is missing wherever it is installed (Agent Skills specification, \
          directory structure and file references: https://agentskills.io/specification; \
          /work/shared/corpus/spec/agentskills-specification.mdx).",
    fails: Example {
        file: "skills/release/SKILL.md",
        text: "---\nname: release\ndescription: Cut a release. Use when the user asks to publish a version.\n---\nFollow references/checklist.md.\n\n# references/checklist.md -> ../../../docs/checklist.md\n",
    },
    passes: Example {
        file: "skills/release/SKILL.md",
        text: "---\nname: release\ndescription: Cut a release. Use when the user asks to publish a version.\n---\nFollow references/checklist.md (a regular file).\n",
    },
    notes: "ctxc never follows a link out of the project; a link leaving the project or pointing at nothing is \
            reported the same way.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let Some((dir, _)) = skill.rel.rsplit_once('/') else { continue };
        let bundle = Bundle::of(cx, &skill.rel);
        for file in bundle.files.iter().filter(|f| f.symlink) {
            let inside = file.target.as_deref().is_some_and(|t| t.starts_with(&format!("{dir}/")));
            if inside {
                continue;
            }
            let leads = match &file.target {
                Some(target) => format!("to `{target}`, outside the skill's folder"),
                None => "out of the project or to nothing".to_string(),
            };
            findings.push(
                Diagnostic::warning(format!("`{}` in the skill is a symbolic link {leads}", file.rel))
                    .in_file(cx.display(&bundle.path(&file.rel)))
                    .label("link leaves the skill")
                    .help("replace the link with a copy of the file, so the skill works wherever it is installed"),
            );
        }
    }
    findings
}
