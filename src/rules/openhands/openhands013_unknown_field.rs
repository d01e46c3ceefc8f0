//! OPENHANDS013: a frontmatter field OpenHands ignores.

use crate::rules::frontmatter::unknown_fields;

use crate::rules::openhands::microagents;
use crate::rules::prelude::*;

/// The fields of OpenHands' `MicroagentMetadata`, and the Agent Skills fields the current SDK
/// reads from every skill file, legacy microagents included (`_create_skill_from_metadata`).
const KNOWN: [&str; 13] = [
    "name",
    "type",
    "version",
    "agent",
    "triggers",
    "inputs",
    "mcp_tools",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "allowed_tools",
];

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A microagent's frontmatter has a field OpenHands does not read (not one of `name`, `type`, `version`, `agent`, `triggers`, `inputs`, `mcp_tools` or the Agent Skills fields).",
    why: "OpenHands drops unknown frontmatter fields without a word: a misspelt `trigger` or `input` leaves the \
          microagent without triggers or inputs, and fields such as `author` are not read. The fields it reads are \
          those of `MicroagentMetadata` and, in the current SDK, the Agent Skills fields (`description`, `license`, \
          `compatibility`, `metadata`, `allowed-tools`), read from every skill file, legacy microagents included. \
          Sources: All-Hands-AI/OpenHands:openhands/microagent/types.py@156d0686; \
          OpenHands/software-agent-sdk:openhands-sdk/openhands/sdk/context/skills/skill.py@c10f86fa \
          (`_create_skill_from_metadata`).",
    fails: Example {
        file: ".openhands/microagents/docker.md",
        text: "---\nname: docker\ntrigger:\n  - docker\n---\nUse multi-stage builds.\n",
    },
    passes: Example {
        file: ".openhands/microagents/docker.md",
        text: "---\nname: docker\ntriggers:\n  - docker\n---\nUse multi-stage builds.\n",
    },
    notes: "A field that differs from a known one only in case gets a safe fix (rename it).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    microagents(cx).flat_map(|doc| unknown_fields(doc, &KNOWN, "OpenHands")).collect()
}
