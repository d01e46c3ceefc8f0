//! COPILOT022: a custom agent flag that is not a boolean.

use crate::agent_files::FileKind;
use crate::rules::copilot::parsed;
use crate::rules::prelude::*;

const FLAGS: [&str; 2] = ["user-invocable", "disable-model-invocation"];

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A custom agent's `user-invocable` or `disable-model-invocation` is not `true` or `false`.",
    why: "Both fields are booleans (defaults `true` and `false`). A quoted `\"false\"` or `no` is not `false`, so the \
          agent stays visible, or callable by other agents, against the author's intent. Source: \
          https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference.",
    fails: Example {
        file: ".github/agents/helper.agent.md",
        text: "---\ndescription: Internal helper\nuser-invocable: \"false\"\n---\nHelp.\n",
    },
    passes: Example {
        file: ".github/agents/helper.agent.md",
        text: "---\ndescription: Internal helper\nuser-invocable: false\n---\nHelp.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in parsed(cx, FileKind::CopilotAgent) {
        for flag in FLAGS {
            let Some(value) = doc.field(flag) else { continue };
            if value.is_boolean() {
                continue;
            }
            findings.push(
                Diagnostic::finding(format!("`{flag}` is `{value}`, not a boolean"))
                    .in_file(&doc.file)
                    .at(doc.value_span(flag))
                    .label("expected `true` or `false`")
                    .help(format!("write `{flag}: true` or `{flag}: false`, without quotes")),
            );
        }
    }
    findings
}
