//! CLAUDE008: a subagent `permissionMode` that is not one of the modes.

use crate::agent_files::FileKind;
use crate::rules::claude::{field, with_fields, PERMISSION_MODES};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A subagent's `permissionMode` is not `default`, `acceptEdits`, `plan`, `dontAsk`, `bypassPermissions` or `auto`.",
    why: "`permissionMode` decides whether the subagent asks before editing files or running commands. A value \
          Claude Code does not know leaves the agent in the default mode, so it behaves differently from what the \
          file says. Values are case-sensitive. Source: https://code.claude.com/docs/en/sub-agents (\"permissionMode\").",
    fails: Example { file: ".claude/agents/fixer.md", text: "---\nname: fixer\ndescription: Fixes failing tests. Use when the test suite fails.\npermissionMode: accept-edits\n---\nYou fix tests.\n" },
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
        let Some(mode) = field(&fields, "permissionMode") else { continue };
        let value = mode.value.as_str().map_or_else(|| mode.value.to_string(), str::to_string);
        if PERMISSION_MODES.contains(&value.as_str()) {
            continue;
        }
        let mut d = Diagnostic::finding(format!("permissionMode `{value}` is not a permission mode"))
            .in_file(&doc.file)
            .at(mode.span())
            .help(format!("use one of {}", PERMISSION_MODES.map(|m| format!("`{m}`")).join(", ")));
        if let Some(suggestion) = crate::diagnostic::did_you_mean(&value, PERMISSION_MODES) {
            d = d.help(format!("did you mean `{suggestion}`?"));
        }
        findings.push(d);
    }
    findings
}
