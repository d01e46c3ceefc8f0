//! COPILOT010: the old `mode` key in a prompt file.

use crate::agent_files::FileKind;
use crate::diagnostic::{Edit, Fix};
use crate::rules::copilot::parsed;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A prompt file sets `mode`, the old name of `agent`.",
    why: "Prompt files choose the chat agent with `agent` (`ask`, `edit`, `agent` or a custom agent's name); `mode` is \
          the name it had before chat modes became custom agents (github/docs PR #41327 changed `mode: 'agent'` to \
          `agent: 'agent'`). Sources: https://code.visualstudio.com/docs/copilot/customization/prompt-files.",
    fails: Example {
        file: ".github/prompts/plan.prompt.md",
        text: "---\ndescription: Plan a change\nmode: ask\n---\nPlan the change described below.\n",
    },
    passes: Example {
        file: ".github/prompts/plan.prompt.md",
        text: "---\ndescription: Plan a change\nagent: ask\n---\nPlan the change described below.\n",
    },
    notes: "Unsafe fix (a rename): `mode` becomes `agent`, when the file does not set `agent` already.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in parsed(cx, FileKind::CopilotPrompt) {
        let Some(span) = doc.key_span("mode") else { continue };
        let mut d = Diagnostic::finding("`mode` is the old name of `agent` in prompt files")
            .in_file(&doc.file)
            .at(Some(span.clone()))
            .label("renamed to `agent`")
            .help("write `agent:` instead of `mode:`");
        if doc.field("agent").is_none() {
            d = d.fix(Fix::unsafe_("rename `mode` to `agent`", vec![Edit::replace(&doc.file, span, "agent")]));
        }
        findings.push(d);
    }
    findings
}
