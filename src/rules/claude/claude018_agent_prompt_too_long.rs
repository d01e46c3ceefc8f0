//! CLAUDE018: a subagent prompt over the token budget.

use crate::agent_files::FileKind;
use crate::rules::claude::{field, fields, Field};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A subagent's file is larger than `[lint] memory_max_tokens` (default 8000 tokens).",
    why: "A subagent's whole file becomes the system prompt of every run it is delegated, in a fresh context window \
          that also has to hold the task, the files it reads and its answer. The docs recommend focused agents with \
          one responsibility; a prompt over 8000 tokens is usually reference material that belongs in a skill or \
          in files the agent reads when needed. Source: https://code.claude.com/docs/en/sub-agents (best practices: \
          \"design focused subagents\").",
    fails: Example { file: ".claude/agents/architect.md", text: "---\nname: architect\ndescription: Designs services. Use for new components.\n---\n(40 KB: every pattern, every framework, sample code)\n" },
    passes: Example {
        file: ".claude/agents/architect.md",
        text: "---\nname: architect\ndescription: Designs services. Use for new components.\n---\n(5 KB of instructions; patterns are in docs/patterns.md, read when needed)\n",
    },
    notes: "The budget is the one memory files have (MEM002), so one setting governs both. Only a file Claude Code \
            loads as a subagent is measured: one without frontmatter, `name` or `description` is never anyone's prompt \
            (CLAUDE001, CLAUDE003 and CLAUDE005 report those).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let limit = cx.settings.memory_max_tokens;
    let mut findings = Vec::new();
    // No tokenizer run for a file with fewer bytes than the limit: it cannot hold more tokens.
    // Only a file Claude Code loads: one with a `name` and a `description` (read after the size, which is cheaper).
    let loaded = |fields: Vec<Field>| {
        ["name", "description"].iter().all(|key| field(&fields, key).and_then(|f| f.value.as_str()).is_some_and(|s| !s.trim().is_empty()))
    };
    let agents = cx.files_of(FileKind::ClaudeAgent).filter(|d| d.text.len() as u64 > limit).filter(|doc| fields(doc).is_some_and(loaded));
    for doc in agents {
        let tokens = cx.count(&doc.text) as u64;
        if tokens > limit {
            let first_line = doc.text.find('\n').unwrap_or(doc.text.len());
            findings.push(
                Diagnostic::finding(format!(
                    "subagent {} is {}{} tokens ({}), over the budget of {}",
                    doc.rel,
                    cx.approx(),
                    grouped(tokens),
                    cx.tokenizer.name(),
                    grouped(limit)
                ))
                .in_file(&doc.file)
                .at(Some(0..first_line))
                .help("keep the agent's role and rules here and move reference material to files it reads when needed"),
            );
        }
    }
    findings
}
