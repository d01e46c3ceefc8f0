//! CLAUDE057: a subagent or command tool list naming a tool Claude Code has removed.

use crate::agent_files::FileKind;
use crate::rules::claude::{removed_tools_in, with_fields};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A subagent's `tools` or `disallowedTools`, or a command's `allowed-tools`, names a tool Claude Code has removed (`LS`, `MultiEdit`).",
    why: "Claude Code dropped `LS` (listing files is `Glob`'s or `Bash`'s work) and `MultiEdit` (folded into `Edit`, which \
          now takes several replacements). An entry naming either grants nothing and, in `disallowedTools`, takes \
          nothing away; a subagent written as `tools: Read, LS` has no way to list a folder unless it also has `Glob` \
          or `Bash`. Sources: https://code.claude.com/docs/en/settings (tools available to Claude: neither is listed), \
          anthropics/claude-code#11125 (MultiEdit gone since 2.0), and the CLI's own warning for a deny rule naming \
          `MultiEdit` (\"matches no known tool\").",
    fails: Example {
        file: ".claude/agents/explorer.md",
        text: "---\nname: explorer\ndescription: Maps an unfamiliar codebase. Use before planning a change.\ntools: Read, Grep, LS\n---\nYou map code.\n",
    },
    passes: Example {
        file: ".claude/agents/explorer.md",
        text: "---\nname: explorer\ndescription: Maps an unfamiliar codebase. Use before planning a change.\ntools: Read, Grep, Glob\n---\nYou map code.\n",
    },
    notes: "Names are compared in any case (`ls` too), so CLAUDE010 and CLAUDE024 never offer to rewrite `ls` to a removed `LS`. \
            No fix: which tool should take its place is the author's choice.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let lists = [(FileKind::ClaudeAgent, &["tools", "disallowedTools"][..]), (FileKind::ClaudeCommand, &["allowed-tools"][..])];
    let mut findings = Vec::new();
    for (kind, keys) in lists {
        for (doc, fields) in with_fields(cx, kind) {
            for list in fields.iter().filter(|f| keys.contains(&f.key.as_str())) {
                findings.extend(removed_tools_in(doc, list));
            }
        }
    }
    findings
}
