//! COPILOT021: the deprecated `infer` field of a custom agent.

use crate::agent_files::FileKind;
use crate::rules::copilot::parsed;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A custom agent sets `infer`, which is deprecated in favour of `user-invocable` and `disable-model-invocation`.",
    why: "Whether people can pick an agent and whether other agents may call it as a subagent are now two fields, \
          `user-invocable` and `disable-model-invocation`; `infer` is kept only for old files and may stop working. \
          Source: https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference.",
    fails: Example {
        file: ".github/agents/linter.agent.md",
        text: "---\ndescription: Fixes lint errors\ninfer: false\n---\nFix lint errors.\n",
    },
    passes: Example {
        file: ".github/agents/linter.agent.md",
        text: "---\ndescription: Fixes lint errors\ndisable-model-invocation: true\n---\nFix lint errors.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in parsed(cx, FileKind::CopilotAgent).filter(|d| d.field("infer").is_some()) {
        findings.push(
            Diagnostic::finding("`infer` is deprecated")
                .in_file(&doc.file)
                .at(doc.key_span("infer"))
                .label("deprecated field")
                .help("use `disable-model-invocation` (may other agents call it?) and `user-invocable` (may people pick it?)"),
        );
    }
    findings
}
