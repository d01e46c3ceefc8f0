//! COPILOT018: a custom agent `target` Copilot does not know.

use crate::agent_files::FileKind;
use crate::diagnostic::did_you_mean;
use crate::rules::copilot::parsed;
use crate::rules::prelude::*;

pub const TARGETS: [&str; 2] = ["vscode", "github-copilot"];

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A custom agent's `target` is neither `vscode` nor `github-copilot`.",
    why: "`target` says where the agent runs: in VS Code (`vscode`) or as a GitHub Copilot coding agent \
          (`github-copilot`). Another value matches neither, so the agent is not offered where it was meant to be. \
          Source: https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference.",
    fails: Example {
        file: ".github/agents/triage.agent.md",
        text: "---\ndescription: Triage new issues\ntarget: github\n---\nLabel the issue.\n",
    },
    passes: Example {
        file: ".github/agents/triage.agent.md",
        text: "---\ndescription: Triage new issues\ntarget: github-copilot\n---\nLabel the issue.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in parsed(cx, FileKind::CopilotAgent) {
        let Some(value) = doc.field("target") else { continue };
        let text = value.as_str().map_or_else(|| value.to_string(), str::to_string);
        if TARGETS.contains(&text.as_str()) {
            continue;
        }
        let help = did_you_mean(&text, TARGETS).map_or("use `vscode` or `github-copilot`".to_string(), |s| format!("did you mean `{s}`?"));
        findings.push(
            Diagnostic::finding(format!("`target` is `{text}`, not `vscode` or `github-copilot`"))
                .in_file(&doc.file)
                .at(doc.value_span("target"))
                .label("unknown target")
                .help(help),
        );
    }
    findings
}
