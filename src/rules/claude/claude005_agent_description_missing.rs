//! CLAUDE005: a subagent without a `description`.

use crate::agent_files::FileKind;
use crate::rules::claude::{field, with_fields};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A subagent's frontmatter has no `description` (or an empty one).",
    why: "Claude decides when to delegate to a subagent from its `description` alone; it is a required field, and a \
          subagent without one is never chosen automatically. Source: https://code.claude.com/docs/en/sub-agents \
          (\"description: natural language description of when the subagent should be invoked\").",
    fails: Example { file: ".claude/agents/reviewer.md", text: "---\nname: reviewer\n---\nYou review code.\n" },
    passes: Example {
        file: ".claude/agents/reviewer.md",
        text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\n---\nYou review code.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, fields) in with_fields(cx, FileKind::ClaudeAgent) {
        let description = field(&fields, "description");
        if description.is_some_and(|f| f.value.as_str().is_none_or(|s| !s.trim().is_empty())) {
            continue;
        }
        findings.push(
            Diagnostic::finding(format!("subagent {} has no description", doc.rel))
                .in_file(&doc.file)
                .at(description.and_then(|f| f.key_span.clone()).or(Some(0..3)))
                .help("add a `description` saying what the agent does and when to use it"),
        );
    }
    findings
}
