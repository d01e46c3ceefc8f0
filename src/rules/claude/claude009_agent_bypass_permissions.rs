//! CLAUDE009: a subagent that runs with every permission check off.

use crate::agent_files::FileKind;
use crate::rules::claude::{field, with_fields};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A subagent sets `permissionMode: bypassPermissions`.",
    why: "In `bypassPermissions` mode every tool call runs without asking — file writes, shell commands, network \
          access — for anyone who checks out the repository and lets Claude delegate to this agent. Only `deny` \
          rules still apply. Prefer `acceptEdits` or explicit `allow` rules. Source: \
          https://code.claude.com/docs/en/sub-agents and https://code.claude.com/docs/en/iam (permission modes).",
    fails: Example { file: ".claude/agents/fixer.md", text: "---\nname: fixer\ndescription: Fixes failing tests. Use when the test suite fails.\npermissionMode: bypassPermissions\n---\nYou fix tests.\n" },
    passes: Example {
        file: ".claude/agents/fixer.md",
        text: "---\nname: fixer\ndescription: Fixes failing tests. Use when the test suite fails.\npermissionMode: acceptEdits\n---\nYou fix tests.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, fields) in with_fields(cx, FileKind::ClaudeAgent) {
        let Some(mode) = field(&fields, "permissionMode").filter(|m| m.value.as_str() == Some("bypassPermissions")) else { continue };
        findings.push(
            Diagnostic::finding(format!("subagent {} runs with `bypassPermissions`: no tool call asks for approval", doc.rel))
                .in_file(&doc.file)
                .at(mode.span())
                .help("use `acceptEdits`, or keep the default mode and allow the commands the agent needs in settings.json"),
        );
    }
    findings
}
