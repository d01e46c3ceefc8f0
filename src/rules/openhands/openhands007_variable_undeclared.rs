//! OPENHANDS007: a variable in a task microagent that no input declares.

use crate::rules::openhands::{microagent_inputs, microagents, template_variables};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A task microagent's body uses a variable (`{{ NAME }}` or `${NAME}`) that none of its `inputs` declares.",
    why: "When a task microagent runs, OpenHands asks the user for each declared input; a variable no input declares \
          is never asked for, so the model receives the placeholder instead of a value. Sources: \
          All-Hands-AI/OpenHands:openhands/microagent/microagent.py@156d0686 (variables `${name}`), \
          `skills/README.md@156d0686` (shipped task skills use `{{ NAME }}`).",
    fails: Example {
        file: ".openhands/microagents/fix_test.md",
        text: "---\nname: fix_test\ninputs:\n  - name: TEST_NAME\n    description: The failing test\n---\nOn branch {{ BRANCH }}, fix {{ TEST_NAME }}.\n",
    },
    passes: Example {
        file: ".openhands/microagents/fix_test.md",
        text: "---\nname: fix_test\ninputs:\n  - name: TEST_NAME\n    description: The failing test\n  - name: BRANCH\n    description: The branch to work on\n---\nOn branch {{ BRANCH }}, fix {{ TEST_NAME }}.\n",
    },
    notes: "Only microagents with `inputs` (task microagents) are checked; code spans and blocks are skipped (shell `${VAR}`).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in microagents(cx) {
        let inputs = microagent_inputs(doc);
        if inputs.is_empty() {
            continue;
        }
        let mut reported: Vec<String> = Vec::new();
        for (name, span) in template_variables(doc) {
            if inputs.contains(&name.as_str()) || reported.contains(&name) {
                continue;
            }
            findings.push(
                Diagnostic::finding(format!("variable `{name}` is not declared in `inputs`; OpenHands never asks for it"))
                    .in_file(&doc.file)
                    .at(Some(span))
                    .label("undeclared")
                    .help(format!("add an input `- name: {name}` with a `description`, or fix the name")),
            );
            reported.push(name);
        }
    }
    findings
}
