//! CLAUDE045: a settings `model` Claude Code does not know.

use crate::agent_files::FileKind;
use crate::rules::claude::unknown_model;
use crate::rules::json_span::Step;
use crate::rules::json_span::{json_docs, place};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "The `model` setting is not a Claude model alias (`sonnet`, `opus`, `haiku`, …) or a full Claude model id.",
    why: "`model` overrides the default model for everyone who uses the settings file. A value Claude Code does not \
          know fails when the first request is sent. Source: https://code.claude.com/docs/en/settings (\"model\") and \
          https://code.claude.com/docs/en/model-config (aliases and full names).",
    fails: Example { file: ".claude/settings.json", text: "{\n  \"model\": \"sonet\"\n}\n" },
    passes: Example { file: ".claude/settings.json", text: "{\n  \"model\": \"sonnet\"\n}\n" },
    notes: "Accepted: `sonnet`, `opus`, `haiku`, `fable`, `default`, `opusplan`, `sonnet[1m]`, ids starting `claude-` and \
            Bedrock/Vertex ids naming a Claude model. When only the case is wrong a safe fix writes it in lowercase.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudeSettings]) {
        let Some(model) = json.as_ref().as_ref().ok().and_then(|v| v.get("model")) else { continue };
        let span = place(doc, &[Step::Key("model")]).map(|p| p.value);
        findings.extend(unknown_model(doc, model, span, "settings"));
    }
    findings
}
