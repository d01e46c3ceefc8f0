//! INSTR005: two items an agent routes between with the same description.

use std::collections::BTreeMap;

use crate::agent_files::FileKind;
use crate::diagnostic::Related;
use crate::rules::instructions::{descriptions, normalized};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "Two skills, subagents, agent-requested Cursor rules or Copilot agents with different names have the same description.",
    why: "The model picks between items by their descriptions: two identical ones cannot be told apart, so the \
          choice is arbitrary and one of them may never be used (Agent Skills specification, \
          https://agentskills.io/specification#description-field; Claude Code subagents, \
          https://code.claude.com/docs/en/sub-agents). It is usually a copied file whose description was not \
          rewritten.",
    fails: Example {
        file: ".github/agents/planner.agent.md",
        text: "---\ndescription: Generate an implementation plan for new features or refactoring existing code.\n---\n# and implementation-plan.agent.md has the same description\n",
    },
    passes: Example {
        file: ".github/agents/planner.agent.md",
        text: "---\ndescription: Break a feature request into ordered tasks with estimates. Use before starting a large change.\n---\nPlan the work.\n",
    },
    notes: "Compared per kind, as lowercase words. Copies with the same name (one skill mirrored for two products; \
            names compared as lowercase words, so `Thinking-Beast-Mode` and `Thinking Beast Mode` are one) are not \
            reported.",
    stage: Stage::Lint(check),
};

/// The first item with a description: its name, file and the description's range.
type Place = (String, String, Option<std::ops::Range<usize>>);

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut first: BTreeMap<(FileKind, String), Place> = BTreeMap::new();
    let mut findings = Vec::new();
    for d in descriptions(cx) {
        let words = normalized(&d.description);
        if words.split(' ').count() < 3 {
            continue;
        }
        match first.get(&(d.kind, words.clone())) {
            Some((name, file, span)) if normalized(name) != normalized(&d.name) => findings.push(
                Diagnostic::finding(format!("`{}` has the same description as `{name}`", d.name))
                    .in_file(d.file)
                    .at(d.span)
                    .label("same description")
                    .help("say what sets each apart, so the model can choose between them")
                    .related(vec![Related { file: file.clone(), span: span.clone(), message: format!("`{name}` has it too") }]),
            ),
            Some(_) => {}
            None => {
                first.insert((d.kind, words), (d.name.clone(), d.file.to_string(), d.span.clone()));
            }
        }
    }
    findings
}
