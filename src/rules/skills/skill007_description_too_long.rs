//! SKILL007: a description over 1024 characters.

use crate::rules::prelude::*;
use crate::rules::skills::DESCRIPTION_MAX;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A skill `description` is longer than 1024 characters.",
    why: "Every skill's description is loaded into the catalogue at startup, in every conversation, whether the skill is \
          used or not. The specification caps it at 1024 characters; details belong in the body, which is loaded only \
          when the skill is activated.",
    fails: Example { file: "skills/claude-api/SKILL.md", text: "---\nname: claude-api\ndescription: (1,068 characters: every feature of the API, listed…)\n---\n" },
    passes: Example {
        file: "skills/claude-api/SKILL.md",
        text: "---\nname: claude-api\ndescription: Build apps with the Claude API and SDKs. Use when code imports anthropic or the user asks about Claude API features.\n---\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let Some(description) = skill.string("description") else { continue };
        let chars = description.chars().count();
        if chars > DESCRIPTION_MAX {
            findings.push(
                Diagnostic::finding(format!("skill description is {chars} characters long, over the specification's {DESCRIPTION_MAX}"))
                    .in_file(&skill.file)
                    .at(skill.key_span("description"))
                    .label(format!("{chars} characters"))
                    .help("keep what the skill does and when to use it; move the details into the body"),
            );
        }
    }
    findings
}
