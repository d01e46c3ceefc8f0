//! SKILL015: a catalogue entry over about 100 tokens.

use crate::rules::prelude::*;
use crate::rules::skills::CATALOGUE_ENTRY_MAX_TOKENS;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A skill's catalogue entry (`- name: description`, as the skills step renders it) takes more than 100 tokens.",
    why: "Every skill's entry is in the system prompt of every conversation. The specification budgets about 100 tokens \
          of metadata per skill; fifty skills at 250 tokens each are 12,500 tokens before the user says anything.",
    fails: Example {
        file: "skills/skill-creator/SKILL.md",
        text: "---\nname: skill-creator\ndescription: (600 characters: when to use it, when not to, every sub-feature and a list of examples…)\n---\n",
    },
    passes: Example {
        file: "skills/skill-creator/SKILL.md",
        text: "---\nname: skill-creator\ndescription: Create or update a skill. Use when the user wants to capture a workflow as a reusable skill.\n---\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let (Some(name), Some(description)) = (skill.string("name"), skill.string("description")) else { continue };
        if let Some(tokens) = cx.count_over(&crate::skills::catalogue_line(name, description), CATALOGUE_ENTRY_MAX_TOKENS as u64) {
            let tokens = grouped(tokens);
            findings.push(
                Diagnostic::finding(format!(
                    "the catalogue entry of skill `{name}` is {}{tokens} tokens ({}); the specification budgets about {CATALOGUE_ENTRY_MAX_TOKENS}",
                    cx.approx(),
                    cx.tokenizer.name()
                ))
                .in_file(&skill.file)
                .at(skill.key_span("description"))
                .label(format!("{tokens} tokens with the name"))
                .help("shorten the description to what the skill does and when to use it"),
            );
        }
    }
    findings
}
