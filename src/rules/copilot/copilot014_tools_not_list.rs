//! COPILOT014: `tools` written as a string.

use crate::agent_files::FileKind;
use crate::diagnostic::{Edit, Fix};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A prompt file or custom agent writes `tools` as a single string instead of a list of tool names.",
    why: "`tools` is a list of tool or tool-set names (`['search', 'edit/editFiles']`). A comma-separated string is \
          one tool name that matches nothing, so the prompt or agent runs without the tools it lists. Sources: \
          https://code.visualstudio.com/docs/copilot/customization/prompt-files; \
          https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference.",
    fails: Example {
        file: ".github/agents/reviewer.agent.md",
        text: "---\ndescription: Reviews pull requests\ntools: search, fetch\n---\nReview the diff.\n",
    },
    passes: Example {
        file: ".github/agents/reviewer.agent.md",
        text: "---\ndescription: Reviews pull requests\ntools: ['search', 'fetch']\n---\nReview the diff.\n",
    },
    notes: "Safe fix: the names as a list.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files.iter().filter(|d| matches!(d.kind, FileKind::CopilotPrompt | FileKind::CopilotAgent) && d.front.is_ok()) {
        let Some(text) = doc.string("tools") else { continue };
        let names: Vec<&str> = text.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
        let list = format!("[{}]", names.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", "));
        let span = doc.value_span("tools");
        let mut d = Diagnostic::finding(format!("`tools` is the string `{text}`, not a list"))
            .in_file(&doc.file)
            .at(span.clone())
            .label("expected a list")
            .help(format!("write `tools: {list}`"));
        if let Some(span) = span.filter(|_| !names.is_empty() && !text.contains(['\'', '"', '\n'])) {
            d = d.fix(Fix::safe("write the tools as a list", vec![Edit::replace(&doc.file, span, list)]));
        }
        findings.push(d);
    }
    findings
}
