//! CLAUDE010: a built-in tool written in the wrong case in a subagent's tool lists.

use crate::agent_files::FileKind;
use crate::rules::claude::{miscased_tools, with_fields};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A subagent's `tools` or `disallowedTools` names a built-in tool in the wrong case (`bash` for `Bash`).",
    why: "Tool names are matched exactly. `tools: read, grep` grants nothing — the subagent starts without the tools \
          it was written for — and a miscased `disallowedTools` entry takes nothing away. Source: \
          https://code.claude.com/docs/en/sub-agents (tools list) and https://code.claude.com/docs/en/settings \
          (tools available to Claude).",
    fails: Example { file: ".claude/agents/reviewer.md", text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\ntools: read, grep, glob\n---\nYou review code.\n" },
    passes: Example {
        file: ".claude/agents/reviewer.md",
        text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\ntools: Read, Grep, Glob\n---\nYou review code.\n",
    },
    notes: "A safe fix writes the tool's name as Claude Code spells it. A tool Claude Code has removed is never the \
            spelling offered (`ls` is not rewritten to `LS`): CLAUDE057 reports it.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, fields) in with_fields(cx, FileKind::ClaudeAgent) {
        for list in fields.iter().filter(|f| f.key == "tools" || f.key == "disallowedTools") {
            findings.extend(miscased_tools(doc, list));
        }
    }
    findings
}
