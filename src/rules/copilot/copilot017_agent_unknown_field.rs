//! COPILOT017: a frontmatter field custom agents do not have.

use crate::agent_files::FileKind;
use crate::rules::copilot::parsed;
use crate::rules::frontmatter::unknown_fields;
use crate::rules::prelude::*;

const KNOWN: [&str; 13] = [
    "description",
    "name",
    "tools",
    "model",
    "argument-hint",
    "agents",
    "user-invocable",
    "disable-model-invocation",
    "handoffs",
    "target",
    "mcp-servers",
    "metadata",
    "infer",
];

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Copilot custom agent's frontmatter has a field the custom agent format does not define.",
    why: "VS Code and GitHub read a fixed set of fields (`description`, `name`, `tools`, `model`, `argument-hint`, \
          `agents`, `user-invocable`, `disable-model-invocation`, `handoffs`, `target`, `mcp-servers`, `metadata`) \
          and ignore the rest; fields from other products' agent formats (`mode: subagent`, `hidden: true`) do \
          nothing here. Source: https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference.",
    fails: Example {
        file: ".github/agents/tester.agent.md",
        text: "---\ndescription: Runs the end-to-end tests\nmode: subagent\n---\nRun the tests.\n",
    },
    passes: Example {
        file: ".github/agents/tester.agent.md",
        text: "---\ndescription: Runs the end-to-end tests\nuser-invocable: false\n---\nRun the tests.\n",
    },
    notes: "`infer` (deprecated) is reported by COPILOT021. A field that differs from a known one only in case gets a safe fix.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    parsed(cx, FileKind::CopilotAgent).flat_map(|doc| unknown_fields(doc, &KNOWN, "Copilot")).collect()
}
