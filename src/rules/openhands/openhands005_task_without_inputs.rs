//! OPENHANDS005: `type: task` without inputs.

use crate::rules::openhands::{microagents, openhands_inferred_type};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A microagent declares `type: task` but has no `inputs`, so OpenHands loads it as a knowledge or repo microagent.",
    why: "A task microagent is one with `inputs` (OpenHands infers the type from the fields and adds the `/<name>` \
          trigger). Without inputs it is a knowledge microagent (if it has triggers) or an always-on repo \
          microagent, and the user is never asked for values. Source: \
          All-Hands-AI/OpenHands:openhands/microagent/microagent.py@156d0686.",
    fails: Example { file: ".openhands/microagents/fix_test.md", text: "---\nname: fix_test\ntype: task\n---\nFix the failing test {{ TEST_NAME }}.\n" },
    passes: Example {
        file: ".openhands/microagents/fix_test.md",
        text: "---\nname: fix_test\ntype: task\ninputs:\n  - name: TEST_NAME\n    description: The failing test\n---\nFix the failing test {{ TEST_NAME }}.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in microagents(cx).filter(|d| d.string("type") == Some("task")) {
        let inferred = openhands_inferred_type(doc);
        if inferred == "task" {
            continue;
        }
        findings.push(
            Diagnostic::finding(format!("`type: task` is not what OpenHands loads: without `inputs` it is a {inferred} microagent"))
                .in_file(&doc.file)
                .at(doc.value_span("type"))
                .label(format!("loaded as `{inferred}`"))
                .help("add `inputs:` (each with `name` and `description`), or declare the type it is"),
        );
    }
    findings
}
