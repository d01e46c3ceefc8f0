//! OPENHANDS006: a task input without `name` or `description`.

use crate::rules::openhands::microagents;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A microagent's `inputs` is not a list of entries that each have a string `name` and `description`.",
    why: "`inputs` is validated as `list[InputMetadata]`, and `InputMetadata` requires both `name` and `description` \
          (strings). A missing one fails validation, and OpenHands does not load the microagent. Source: \
          All-Hands-AI/OpenHands:openhands/microagent/types.py@156d0686.",
    fails: Example {
        file: ".openhands/microagents/fix_test.md",
        text: "---\nname: fix_test\ninputs:\n  - name: TEST_NAME\n---\nFix {{ TEST_NAME }}.\n",
    },
    passes: Example {
        file: ".openhands/microagents/fix_test.md",
        text: "---\nname: fix_test\ninputs:\n  - name: TEST_NAME\n    description: The failing test\n---\nFix {{ TEST_NAME }}.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in microagents(cx) {
        let Some(inputs) = doc.field("inputs") else { continue };
        let problem = match inputs.as_array() {
            None => Some("`inputs` is not a list".to_string()),
            Some(list) => list.iter().enumerate().find_map(|(i, input)| {
                let missing: Vec<&str> =
                    ["name", "description"].into_iter().filter(|k| !input.get(k).is_some_and(|v| v.is_string())).collect();
                (!missing.is_empty()).then(|| {
                    let which = input.get("name").and_then(|n| n.as_str()).map_or(format!("input {}", i + 1), |n| format!("input `{n}`"));
                    format!("{which} has no string {}", missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(" or "))
                })
            }),
        };
        if let Some(problem) = problem {
            findings.push(
                Diagnostic::finding(format!("{problem}; OpenHands rejects the microagent"))
                    .in_file(&doc.file)
                    .at(doc.key_span("inputs"))
                    .label("invalid inputs")
                    .help("write each input as `- name: NAME` with `description: …` below it"),
            );
        }
    }
    findings
}
