//! SKILL013: a SKILL.md body over 500 lines.

use crate::rules::prelude::*;
use crate::rules::skills::BODY_MAX_LINES;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The Markdown body of a SKILL.md (after the frontmatter) is longer than 500 lines.",
    why: "An activated skill's whole SKILL.md enters the context. The specification recommends keeping it under 500 \
          lines and moving reference material into separate files the agent reads only when needed (progressive \
          disclosure).",
    fails: Example { file: "skills/visual-plan/SKILL.md", text: "---\nname: visual-plan\ndescription: Plan UI work visually.\n---\n(526 lines of instructions and reference tables)\n" },
    passes: Example {
        file: "skills/visual-plan/SKILL.md",
        text: "---\nname: visual-plan\ndescription: Plan UI work visually.\n---\n(180 lines of instructions)\n\nSee [the component reference](references/components.md) for every component.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills.iter().filter(|s| s.front.is_ok()) {
        let lines = skill.body().lines().count();
        if lines > BODY_MAX_LINES {
            let start = skill.body_start();
            findings.push(
                Diagnostic::finding(format!("SKILL.md body is {lines} lines long; the specification recommends under {BODY_MAX_LINES}"))
                    .in_file(&skill.file)
                    .at(Some(start..start))
                    .label("body starts here")
                    .help("move reference material into files next to SKILL.md and link to them"),
            );
        }
    }
    findings
}
