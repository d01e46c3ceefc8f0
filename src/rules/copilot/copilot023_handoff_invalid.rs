//! COPILOT023: a handoff without `label` or `agent`.

use crate::agent_files::FileKind;
use crate::rules::copilot::parsed;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A custom agent's `handoffs` entry lacks a `label` or an `agent`, or sets `send` to a non-boolean.",
    why: "A handoff is a button shown after the agent answers: `label` is its text, `agent` the agent it switches to, \
          `prompt` the text it pre-fills and `send` (boolean) whether it is sent at once. Without a label or a target \
          agent the button cannot be shown or does not go anywhere. Source: \
          https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference.",
    fails: Example { file: ".github/agents/planner.agent.md", text: "---\ndescription: Plans changes\nhandoffs:\n  - label: Start implementation\n    prompt: Implement the plan.\n---\nPlan first.\n" },
    passes: Example {
        file: ".github/agents/planner.agent.md",
        text: "---\ndescription: Plans changes\nhandoffs:\n  - label: Start implementation\n    agent: agent\n    prompt: Implement the plan.\n---\nPlan first.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in parsed(cx, FileKind::CopilotAgent) {
        let Some(handoffs) = doc.field("handoffs") else { continue };
        let Some(list) = handoffs.as_array() else {
            findings.push(
                Diagnostic::finding("`handoffs` is not a list")
                    .in_file(&doc.file)
                    .at(doc.key_span("handoffs"))
                    .help("write `handoffs:` followed by `- label: …` / `agent: …` entries"),
            );
            continue;
        };
        for (i, entry) in list.iter().enumerate() {
            let text = |k: &str| entry.get(k).and_then(|v| v.as_str()).is_some_and(|s| !s.trim().is_empty());
            let mut problems = Vec::new();
            for key in ["label", "agent"] {
                if !text(key) {
                    problems.push(format!("no `{key}`"));
                }
            }
            if entry.get("send").is_some_and(|s| !s.is_boolean()) {
                problems.push("a `send` that is not `true` or `false`".to_string());
            }
            if problems.is_empty() {
                continue;
            }
            findings.push(
                Diagnostic::finding(format!("handoff {} has {}", i + 1, problems.join(" and ")))
                    .in_file(&doc.file)
                    .at(doc.key_span("handoffs"))
                    .label("in this list")
                    .help("each handoff needs `label` (button text) and `agent` (where it goes); `send` is a boolean"),
            );
        }
    }
    findings
}
