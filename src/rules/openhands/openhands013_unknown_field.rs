//! OPENHANDS013: a frontmatter field OpenHands ignores.

use crate::rules::kinds::{microagents, unknown_fields};
use crate::rules::prelude::*;

const KNOWN: [&str; 7] = ["name", "type", "version", "agent", "triggers", "inputs", "mcp_tools"];

pub const RULE: Rule = Rule {
    code: Code::OPENHANDS013,
    name: "unknown-field",
    family: Family::OpenHands,
    severity: Severity::Warning,
    summary: "A microagent's frontmatter has a field other than `name`, `type`, `version`, `agent`, `triggers`, `inputs` and `mcp_tools`.",
    why: "`MicroagentMetadata` is a pydantic model with the default configuration, which drops unknown fields without \
          a word: a misspelt `trigger` or `input` leaves the microagent without triggers or inputs, and fields such as \
          `author` are not read. Source: All-Hands-AI/OpenHands:openhands/microagent/types.py@156d0686.",
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
