//! COPILOT011: a prompt file's `agent` names no agent.

use crate::agent_files::FileKind;
use crate::diagnostic::did_you_mean;
use crate::rules::copilot::{copilot_agent_names, parsed};
use crate::rules::prelude::*;

const BUILT_IN: [&str; 3] = ["ask", "edit", "agent"];

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A prompt file's `agent` (or old `mode`) is neither `ask`, `edit`, `agent` nor the name of a custom agent in the repository.",
    why: "The prompt runs in the agent it names: a built-in one (`ask`, `edit`, `agent`) or a custom agent. A name \
          that matches none does not run the prompt where its author meant. Source: \
          https://code.visualstudio.com/docs/copilot/customization/prompt-files.",
    fails: Example {
        file: ".github/prompts/plan.prompt.md",
        text: "---\ndescription: Plan a change\nagent: asks\n---\nPlan the change described below.\n",
    },
    passes: Example {
        file: ".github/prompts/plan.prompt.md",
        text: "---\ndescription: Plan a change\nagent: ask\n---\nPlan the change described below.\n",
    },
    notes: "Custom agents are looked up in the repository's `.github/agents/*.agent.md` and `.github/chatmodes/*.chatmode.md` \
            (by `name`, else file name); agents defined only in a user profile are not known to ctxc.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let custom = copilot_agent_names(cx);
    let mut findings = Vec::new();
    for doc in parsed(cx, FileKind::CopilotPrompt) {
        let Some(key) = ["agent", "mode"].into_iter().find(|k| doc.field(k).is_some()) else { continue };
        let Some(name) = doc.string(key) else { continue };
        if BUILT_IN.contains(&name) || custom.contains(&name) {
            continue;
        }
        let help = match did_you_mean(name, BUILT_IN.iter().copied().chain(custom.iter().copied())) {
            Some(s) => format!("did you mean `{s}`?"),
            None => "use `ask`, `edit`, `agent`, or the name of a custom agent in `.github/agents/`".to_string(),
        };
        findings.push(
            Diagnostic::finding(format!("`{key}: {name}` names no built-in or custom agent"))
                .in_file(&doc.file)
                .at(doc.value_span(key))
                .label("unknown agent")
                .help(help),
        );
    }
    findings
}
