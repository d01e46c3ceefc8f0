//! CLAUDE042: a `permissions.defaultMode` that is not a permission mode.

use crate::agent_files::FileKind;
use crate::diagnostic::did_you_mean;
use crate::rules::claude::PERMISSION_MODES;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_value, json_docs};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "`permissions.defaultMode` is not `default`, `acceptEdits`, `plan`, `dontAsk`, `bypassPermissions` or `auto`.",
    why: "`defaultMode` sets the permission mode sessions start in. Values are case-sensitive; an unknown one is \
          ignored and sessions start in the default mode, asking for approvals the team meant to skip (or skipping \
          the plan step it meant to force). Source: https://code.claude.com/docs/en/iam (permission modes) and \
          https://code.claude.com/docs/en/settings.",
    fails: Example { file: ".claude/settings.json", text: "{\n  \"permissions\": {\n    \"defaultMode\": \"planMode\"\n  }\n}\n" },
    passes: Example { file: ".claude/settings.json", text: "{\n  \"permissions\": {\n    \"defaultMode\": \"plan\"\n  }\n}\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudeSettings]) {
        let Some(mode) = json.as_ref().as_ref().ok().and_then(|v| v.pointer("/permissions/defaultMode")) else { continue };
        let value = mode.as_str().map_or_else(|| mode.to_string(), str::to_string);
        if PERMISSION_MODES.contains(&value.as_str()) {
            continue;
        }
        let help = match did_you_mean(&value, PERMISSION_MODES) {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!("use one of {}", PERMISSION_MODES.map(|m| format!("`{m}`")).join(", ")),
        };
        let d = Diagnostic::finding(format!("defaultMode `{value}` is not a permission mode")).help(help);
        findings.push(at_value(d, doc, &[Step::Key("permissions"), Step::Key("defaultMode")]));
    }
    findings
}
