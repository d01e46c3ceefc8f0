//! COPILOT015: a tool listed twice.

use std::collections::HashMap;

use crate::agent_files::FileKind;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A prompt file or custom agent lists the same tool twice in `tools`.",
    why: "A tool is available or not; listing it twice changes nothing and usually hides a different tool that was \
          meant (a copy-paste slip). Sources: https://code.visualstudio.com/docs/copilot/customization/prompt-files; \
          https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference.",
    fails: Example {
        file: ".github/agents/reviewer.agent.md",
        text: "---\ndescription: Reviews pull requests\ntools: ['search', 'fetch', 'search']\n---\nReview the diff.\n",
    },
    passes: Example {
        file: ".github/agents/reviewer.agent.md",
        text: "---\ndescription: Reviews pull requests\ntools: ['search', 'fetch', 'usages']\n---\nReview the diff.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files.iter().filter(|d| matches!(d.kind, FileKind::CopilotPrompt | FileKind::CopilotAgent) && d.front.is_ok()) {
        let Some(tools) = doc.field("tools").and_then(|t| t.as_array()) else { continue };
        // Each name seen so far, and whether it was reported: one look-up per item.
        let mut seen: HashMap<&str, bool> = HashMap::new();
        for (i, name) in tools.iter().enumerate() {
            let Some(name) = name.as_str() else { continue };
            let Some(reported) = seen.get_mut(name) else {
                seen.insert(name, false);
                continue;
            };
            if !std::mem::replace(reported, true) {
                let span = doc.item_span("tools", i);
                findings.push(
                    Diagnostic::finding(format!("tool `{name}` is listed twice"))
                        .in_file(&doc.file)
                        .at(span.or_else(|| doc.key_span("tools")))
                        .label("listed again")
                        .help("remove the second entry"),
                );
            }
        }
    }
    findings
}
