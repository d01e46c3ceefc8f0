//! CLAUDE043: committed settings that start every session with permission checks off.

use crate::agent_files::FileKind;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_value, json_docs};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The committed `.claude/settings.json` sets `permissions.defaultMode` to `bypassPermissions`.",
    why: "In `bypassPermissions` mode Claude runs every tool without asking. Set in the shared `.claude/settings.json`, \
          it applies to everyone who opens the repository with Claude Code — including on machines with credentials \
          and production access. The docs reserve this mode for isolated environments such as containers. Source: \
          https://code.claude.com/docs/en/iam (permission modes: \"bypassPermissions … only in isolated \
          environments\").",
    fails: Example { file: ".claude/settings.json", text: "{\n  \"permissions\": {\n    \"defaultMode\": \"bypassPermissions\"\n  }\n}\n" },
    passes: Example { file: ".claude/settings.json", text: "{\n  \"permissions\": {\n    \"defaultMode\": \"acceptEdits\"\n  }\n}\n" },
    notes: "`settings.local.json` is personal and not reported.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudeSettings]) {
        let Ok(value) = &*json else { continue };
        if doc.name() == "settings.json" && value.pointer("/permissions/defaultMode").and_then(|m| m.as_str()) == Some("bypassPermissions")
        {
            let d = Diagnostic::finding("the shared settings start every session in `bypassPermissions`: no tool call asks for approval")
                .help("use `acceptEdits` here; set `bypassPermissions` only in `.claude/settings.local.json` inside a sandbox");
            findings.push(at_value(d, doc, &[Step::Key("permissions"), Step::Key("defaultMode")]));
        }
    }
    findings
}
