//! COPILOT024: fields GitHub.com custom agents ignore, on an agent targeted at GitHub.

use crate::agent_files::FileKind;
use crate::rules::copilot::parsed;
use crate::rules::prelude::*;

const VSCODE_ONLY: [&str; 3] = ["model", "argument-hint", "handoffs"];

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A custom agent with `target: github-copilot` sets `model`, `argument-hint` or `handoffs`, which GitHub.com ignores.",
    why: "An agent targeted at the GitHub Copilot coding agent runs on GitHub.com, where `model`, `argument-hint` and \
          `handoffs` are not supported: the agent runs with GitHub's model choice and no handoff buttons. Sources: \
          https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference; skillsaw `copilot-agent-valid`.",
    fails: Example {
        file: ".github/agents/fixer.agent.md",
        text: "---\ndescription: Fixes failing CI\ntarget: github-copilot\nmodel: GPT-5\n---\nFix the build.\n",
    },
    passes: Example {
        file: ".github/agents/fixer.agent.md",
        text: "---\ndescription: Fixes failing CI\ntarget: github-copilot\n---\nFix the build.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in parsed(cx, FileKind::CopilotAgent).filter(|d| d.string("target") == Some("github-copilot")) {
        for key in VSCODE_ONLY.into_iter().filter(|k| doc.field(k).is_some()) {
            findings.push(
                Diagnostic::finding(format!("`{key}` is ignored by agents that target `github-copilot`"))
                    .in_file(&doc.file)
                    .at(doc.key_span(key))
                    .label("not supported on GitHub.com")
                    .help(format!("remove `{key}`, or set `target: vscode` if the agent is meant for VS Code")),
            );
        }
    }
    findings
}
