//! SKILL014: a SKILL.md body over 5000 tokens.

use crate::rules::prelude::*;
use crate::rules::skills::BODY_MAX_TOKENS;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The Markdown body of a SKILL.md is larger than 5000 tokens (with the agent's tokenizer; o200k_base without a manifest).",
    why: "The specification recommends instructions under 5000 tokens: the body is loaded whole on activation and stays \
          in the context for the rest of the conversation, crowding out history and triggering summarization sooner.",
    fails: Example { file: "skills/skill-creator/SKILL.md", text: "---\nname: skill-creator\ndescription: Create new skills.\n---\n(about 7,000 tokens of instructions)\n" },
    passes: Example {
        file: "skills/skill-creator/SKILL.md",
        text: "---\nname: skill-creator\ndescription: Create new skills.\n---\n(about 2,000 tokens of instructions, linking to references/*.md)\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills.iter().filter(|s| s.front.is_ok()) {
        if let Some(tokens) = cx.count_over(skill.body(), BODY_MAX_TOKENS as u64) {
            let tokens = grouped(tokens);
            let start = skill.body_start();
            findings.push(
                Diagnostic::finding(format!(
                    "SKILL.md body is {}{tokens} tokens ({}); the specification recommends under {}",
                    cx.approx(),
                    cx.tokenizer.name(),
                    grouped(BODY_MAX_TOKENS)
                ))
                .in_file(&skill.file)
                .at(Some(start..start))
                .label("body starts here")
                .help("move reference material into files next to SKILL.md and link to them"),
            );
        }
    }
    findings
}
