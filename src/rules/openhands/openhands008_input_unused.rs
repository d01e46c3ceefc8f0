//! OPENHANDS008: a task input the body never uses.

use crate::rules::openhands::{microagent_inputs, microagents, template_variables};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A task microagent declares an input that its body never uses as `{{ NAME }}` or `${NAME}`.",
    why: "OpenHands asks the user for every declared input; one the body never refers to makes the user type a \
          value that goes nowhere, and usually means the variable in the text is misspelt. Sources: \
          All-Hands-AI/OpenHands:openhands/microagent/microagent.py@156d0686, `skills/README.md@156d0686`.",
    fails: Example {
        file: ".openhands/microagents/fix_test.md",
        text: "---\nname: fix_test\ninputs:\n  - name: TEST_NAME\n    description: The failing test\n---\nFix the failing test.\n",
    },
    passes: Example {
        file: ".openhands/microagents/fix_test.md",
        text: "---\nname: fix_test\ninputs:\n  - name: TEST_NAME\n    description: The failing test\n---\nFix the failing test {{ TEST_NAME }}.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in microagents(cx) {
        let used: Vec<String> = template_variables(doc).into_iter().map(|(n, _)| n).collect();
        let body = doc.body();
        for name in microagent_inputs(doc) {
            // A name written in a code span or block still counts as used.
            if used.iter().any(|u| u == name) || body.contains(&format!("{{{{{name}}}}}")) || body.contains(&format!("${{{name}}}")) {
                continue;
            }
            let span = doc.key_span("inputs").and_then(|k| doc.text[k.start..].find(name).map(|i| k.start + i..k.start + i + name.len()));
            let single = format!("{{{name}}}");
            let message = match body.contains(&single) {
                true => format!("input `{name}` is never used in the body: `{single}` has single braces, which are not replaced"),
                false => format!("input `{name}` is never used in the body"),
            };
            findings.push(
                Diagnostic::finding(message)
                    .in_file(&doc.file)
                    .at(span.or_else(|| doc.key_span("inputs")))
                    .label("unused input")
                    .help(format!("refer to it as `{{{{ {name} }}}}` where the value belongs, or remove the input")),
            );
        }
    }
    findings
}
