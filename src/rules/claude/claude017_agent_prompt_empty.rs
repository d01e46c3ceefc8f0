//! CLAUDE017: a subagent with no system prompt.

use crate::agent_files::FileKind;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A subagent has frontmatter but nothing after it: no system prompt.",
    why: "The Markdown after a subagent's frontmatter is its system prompt — the only instructions it gets, since a \
          subagent does not see the main conversation's system prompt. An empty body leaves the delegated agent with \
          the task text alone. Source: https://code.claude.com/docs/en/sub-agents (\"the body becomes the system \
          prompt\").",
    fails: Example { file: ".claude/agents/reviewer.md", text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\n---\n" },
    passes: Example {
        file: ".claude/agents/reviewer.md",
        text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\n---\nYou are a senior reviewer. Check each change for bugs and missing tests.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ClaudeAgent).filter(|d| d.front.is_ok() && d.body().trim().is_empty()) {
        let end = doc.body_start();
        findings.push(
            Diagnostic::finding(format!("subagent {} has no system prompt after its frontmatter", doc.rel))
                .in_file(&doc.file)
                .at(Some(end.saturating_sub(4)..end))
                .help("write the agent's instructions below the closing `---`"),
        );
    }
    findings
}
