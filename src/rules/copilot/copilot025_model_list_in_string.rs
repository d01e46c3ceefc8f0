//! COPILOT025: several models written in one `model` string.

use crate::agent_files::FileKind;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A custom agent or prompt file writes several models in one `model` string (`GPT-4.1 | 'gpt-5'`, `a, b`).",
    why: "`model` names one model, or, in custom agents, a YAML list of models tried in order. One string holding \
          several names with `|` or `,` matches no model, so the default model is used. Sources: \
          https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference; \
          https://code.visualstudio.com/docs/copilot/customization/prompt-files.",
    fails: Example {
        file: ".github/agents/reviewer.agent.md",
        text: "---\ndescription: Reviews code\nmodel: GPT-4.1 | 'gpt-5'\n---\nReview.\n",
    },
    passes: Example {
        file: ".github/agents/reviewer.agent.md",
        text: "---\ndescription: Reviews code\nmodel: ['GPT-4.1', 'GPT-5']\n---\nReview.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files.iter().filter(|d| matches!(d.kind, FileKind::CopilotPrompt | FileKind::CopilotAgent) && d.front.is_ok()) {
        let Some(model) = doc.string("model") else { continue };
        let parts: Vec<&str> = model.split(['|', ',']).map(|p| p.trim().trim_matches(['\'', '"'])).filter(|p| !p.is_empty()).collect();
        if parts.len() < 2 {
            continue;
        }
        let help = match doc.kind {
            FileKind::CopilotAgent => {
                format!("write a list: `model: [{}]`", parts.iter().map(|p| format!("'{p}'")).collect::<Vec<_>>().join(", "))
            }
            _ => format!("name one model, e.g. `model: {}`", parts[0]),
        };
        findings.push(
            Diagnostic::finding(format!("`model` is one string naming {} models: `{model}`", parts.len()))
                .in_file(&doc.file)
                .at(doc.value_span("model"))
                .label("one string")
                .help(help),
        );
    }
    findings
}
