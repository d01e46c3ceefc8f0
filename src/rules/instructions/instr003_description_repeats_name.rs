//! INSTR003: a routing description that only repeats the name.

use crate::rules::instructions::instr001_description_too_short::MIN_WORDS;
use crate::rules::instructions::{descriptions, normalized, word_count};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A description says no more than the name it describes (`name: code-reviewer`, `description: Code reviewer`).",
    why: "The name is already shown to the model next to the description; a description that restates it adds \
          nothing to route on — neither what the item does nor when to use it (Agent Skills specification, \
          https://agentskills.io/specification#description-field; Claude Code subagents, \
          https://code.claude.com/docs/en/sub-agents).",
    fails: Example { file: ".claude/agents/code-reviewer.md", text: "---\nname: code-reviewer\ndescription: Code reviewer agent\n---\nReview the diff.\n" },
    passes: Example {
        file: ".claude/agents/code-reviewer.md",
        text: "---\nname: code-reviewer\ndescription: Reviews diffs for bugs and style. Use proactively after code changes.\n---\nReview the diff.\n",
    },
    notes: "Descriptions under three words are INSTR001's. Compared as lowercase words; `skill`, `agent`, `subagent`, `rule`, `mode`, `the`, `a` and `an` are ignored.",
    stage: Stage::Lint(check),
};

const FILLER: [&str; 8] = ["skill", "agent", "subagent", "rule", "mode", "the", "a", "an"];

/// The words of a [`normalized`] text that are no filler.
fn words(normalized: &str) -> impl Iterator<Item = &str> + Clone {
    normalized.split(' ').filter(|w| !w.is_empty() && !FILLER.contains(w))
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for d in descriptions(cx) {
        let (described, named) = (normalized(&d.description), normalized(&d.name));
        let said = words(&described);
        if said.clone().next().is_none() || !said.eq(words(&named)) {
            continue;
        }
        // Shorter descriptions are INSTR001's (counted only for the few that repeat the name:
        // segmenting words is the slow part).
        if word_count(&d.description) < MIN_WORDS {
            continue;
        }
        findings.push(
            Diagnostic::finding(format!("description `{}` only repeats the name `{}`", d.description, d.name))
                .in_file(d.file)
                .at(d.span)
                .label("says nothing the name does not")
                .help("say what it does and when to use it"),
        );
    }
    findings
}
