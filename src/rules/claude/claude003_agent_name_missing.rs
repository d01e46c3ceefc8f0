//! CLAUDE003: a subagent without a `name`.

use crate::agent_files::FileKind;
use crate::rules::claude::{field, with_fields};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A subagent's frontmatter has no `name` (or an empty one).",
    why: "`name` is required: it is the identifier Claude Code delegates to (`Use the reviewer subagent…`) and the key \
          that lets a project agent override a user agent of the same name. Without it the file is not loaded as a \
          subagent. Source: https://code.claude.com/docs/en/sub-agents (\"Required: name, description\").",
    fails: Example {
        file: ".claude/agents/reviewer.md",
        text: "---\ndescription: Reviews pull requests for correctness. Use after every change.\n---\nYou review code.\n",
    },
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
        let name = field(&fields, "name");
        if name.is_some_and(|f| f.value.as_str().is_none_or(|s| !s.trim().is_empty())) {
            continue;
        }
        let stem = doc.name().trim_end_matches(".md");
        findings.push(
            Diagnostic::finding(format!("subagent {} has no name", doc.rel))
                .in_file(&doc.file)
                .at(name.and_then(|f| f.key_span.clone()).or(Some(0..3)))
                .help(format!("add `name: {stem}` (lowercase letters, digits and hyphens) to the frontmatter")),
        );
    }
    findings
}
