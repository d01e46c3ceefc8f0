//! CLAUDE006: a subagent description too short to route on.

use crate::agent_files::FileKind;
use crate::rules::claude_files::{field, with_fields};
use crate::rules::prelude::*;

/// Fewer words than this cannot say both what an agent does and when to use it.
const MIN_WORDS: usize = 4;

pub const RULE: Rule = Rule {
    code: Code::CLAUDE006,
    name: "agent-description-too-short",
    family: Family::Claude,
    severity: Severity::Warning,
    summary: "A subagent's `description` has fewer than 4 words.",
    why: "The description is all Claude reads when it decides whether to delegate: the docs ask for a \
          \"natural language description of when the subagent should be invoked\" and suggest phrases like \"use \
          proactively\". A label such as `Code reviewer` says neither what the agent does nor when, so Claude rarely \
          picks it. Source: https://code.claude.com/docs/en/sub-agents.",
    fails: Example { file: ".claude/agents/reviewer.md", text: "---\nname: reviewer\ndescription: Code reviewer\n---\nYou review code.\n" },
    passes: Example {
        file: ".claude/agents/reviewer.md",
        text: "---\nname: reviewer\ndescription: Reviews changed code for bugs and missing tests. Use proactively after every change.\n---\nYou review code.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, fields) in with_fields(cx, FileKind::ClaudeAgent) {
        let Some(description) = field(&fields, "description") else { continue };
        let Some(text) = description.value.as_str().map(str::trim).filter(|s| !s.is_empty()) else { continue };
        let words = text.split_whitespace().count();
        if words < MIN_WORDS {
            findings.push(
                Diagnostic::warning(format!("subagent description `{text}` has {words} word(s), too few to decide when to delegate"))
                    .in_file(&doc.file)
                    .at(description.span())
                    .help("say what the agent does and when to use it, e.g. \"Reviews changed code for bugs. Use after every change.\""),
            );
        }
    }
    findings
}
