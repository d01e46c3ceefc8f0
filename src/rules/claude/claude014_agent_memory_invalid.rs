//! CLAUDE014: a subagent `memory` scope that does not exist.

use crate::agent_files::FileKind;
use crate::rules::claude::{field, with_fields};
use crate::rules::prelude::*;

const SCOPES: [&str; 3] = ["user", "project", "local"];

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A subagent's `memory` is not `user`, `project` or `local`.",
    why: "`memory` gives a subagent a persistent memory folder in one scope: `user` (every project), `project` \
          (committed with the repository) or `local` (this checkout only). Any other value gives it none, so what it \
          learns is lost. Source: https://code.claude.com/docs/en/sub-agents (\"memory\" field).",
    fails: Example { file: ".claude/agents/reviewer.md", text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\nmemory: true\n---\nYou review code.\n" },
    passes: Example {
        file: ".claude/agents/reviewer.md",
        text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\nmemory: project\n---\nYou review code.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, fields) in with_fields(cx, FileKind::ClaudeAgent) {
        let Some(memory) = field(&fields, "memory") else { continue };
        let value = memory.value.as_str().map_or_else(|| memory.value.to_string(), str::to_string);
        if !SCOPES.contains(&value.as_str()) {
            findings.push(
                Diagnostic::finding(format!("memory scope `{value}` is not `user`, `project` or `local`"))
                    .in_file(&doc.file)
                    .at(memory.span())
                    .help("use `project` to share the agent's memory through the repository, `user` or `local` otherwise"),
            );
        }
    }
    findings
}
