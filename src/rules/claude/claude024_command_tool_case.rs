//! CLAUDE024: a built-in tool written in the wrong case in a command's `allowed-tools`.

use crate::agent_files::FileKind;
use crate::rules::claude::{field, miscased_tools, with_fields};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A slash command's `allowed-tools` names a built-in tool in the wrong case (`bash(git:*)` for `Bash(git:*)`).",
    why: "`allowed-tools` entries are permission rules, matched against tool names exactly. A miscased entry grants \
          nothing, so the command stops to ask (or its `!` lines fail) for tools it was written to use. Source: \
          `anthropics/claude-code:plugins/plugin-dev/skills/command-development/references/frontmatter-reference.md` \
          (allowed-tools) and https://code.claude.com/docs/en/settings (tools available to Claude).",
    fails: Example {
        file: ".claude/commands/status.md",
        text: "---\nallowed-tools: read, bash(git status:*)\n---\nSummarize the working tree.\n",
    },
    passes: Example {
        file: ".claude/commands/status.md",
        text: "---\nallowed-tools: Read, Bash(git status:*)\n---\nSummarize the working tree.\n",
    },
    notes: "A safe fix writes the tool's name as Claude Code spells it. A tool Claude Code has removed is never the \
            spelling offered (`ls` is not rewritten to `LS`): CLAUDE057 reports it.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, fields) in with_fields(cx, FileKind::ClaudeCommand) {
        findings.extend(field(&fields, "allowed-tools").map(|list| miscased_tools(doc, list)).unwrap_or_default());
    }
    findings
}
