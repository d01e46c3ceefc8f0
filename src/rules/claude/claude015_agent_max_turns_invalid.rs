//! CLAUDE015: a subagent `maxTurns` that is not a positive whole number.

use crate::agent_files::FileKind;
use crate::rules::claude::{field, with_fields};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A subagent's `maxTurns` is not a positive whole number.",
    why: "`maxTurns` caps how many agentic turns the subagent may take before it stops. Zero, a negative number, a \
          fraction or text is not a limit Claude Code can apply, so the agent runs without the cap its author \
          intended. Source: https://code.claude.com/docs/en/sub-agents (\"maxTurns\").",
    fails: Example { file: ".claude/agents/reviewer.md", text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\nmaxTurns: ten\n---\nYou review code.\n" },
    passes: Example {
        file: ".claude/agents/reviewer.md",
        text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\nmaxTurns: 10\n---\nYou review code.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, fields) in with_fields(cx, FileKind::ClaudeAgent) {
        let Some(turns) = field(&fields, "maxTurns") else { continue };
        // Line-read frontmatter holds strings: a number written plainly is still a number.
        let positive = turns.value.as_u64().or_else(|| turns.value.as_str().and_then(|s| s.trim().parse().ok())).is_some_and(|n| n > 0);
        if !positive {
            let value = turns.value.as_str().map_or_else(|| turns.value.to_string(), str::to_string);
            findings.push(
                Diagnostic::finding(format!("maxTurns `{value}` is not a positive whole number"))
                    .in_file(&doc.file)
                    .at(turns.span())
                    .help("write the largest number of turns the agent may take, e.g. `maxTurns: 20`"),
            );
        }
    }
    findings
}
