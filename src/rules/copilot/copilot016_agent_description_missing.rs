//! COPILOT016: a custom agent without a description.

use crate::agent_files::FileKind;
use crate::rules::copilot::parsed;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Copilot custom agent (`.agent.md`, `.chatmode.md`) has no `description`, or an empty one.",
    why: "The description is what the agent picker shows and what a coordinating agent reads to decide whether to \
          hand work to this agent as a subagent; GitHub.com custom agents require it. Sources: \
          https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference; skillsaw `copilot-agent-valid`.",
    fails: Example { file: ".github/agents/planner.agent.md", text: "---\nname: planner\ntools: ['search']\n---\nPlan before editing.\n" },
    passes: Example {
        file: ".github/agents/planner.agent.md",
        text: "---\nname: planner\ndescription: Breaks a feature request into an ordered implementation plan\ntools: ['search']\n---\nPlan before editing.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in parsed(cx, FileKind::CopilotAgent) {
        if doc.string("description").is_some_and(|d| !d.trim().is_empty()) {
            continue;
        }
        let at = doc.key_span("description").or(Some(0..doc.text.find('\n').unwrap_or(0)));
        findings.push(
            Diagnostic::finding(format!("custom agent {} has no description", doc.rel))
                .in_file(&doc.file)
                .at(at)
                .label("no description")
                .help("add `description:` saying what the agent does and when to use it"),
        );
    }
    findings
}
