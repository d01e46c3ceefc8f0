//! OPENCODE004: an OpenCode command's frontmatter has a field OpenCode does not read.

use crate::agent_files::FileKind;
use crate::rules::opencode::{parsed, unknown};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An OpenCode command's frontmatter has a field other than `description`, `agent`, `model`, `subtask` and `name`.",
    why: "OpenCode's command schema reads those fields and drops the rest, so a field copied from a Claude Code command \
          (`allowed-tools`, `argument-hint`) or a misspelt one (`subTask`) changes nothing: the command runs with the \
          default agent and model. Source: `packages/opencode/src/config/command.ts` in anomalyco/opencode; the list is \
          OpenCode's host model, `data/hosts/opencode.toml`.",
    fails: Example {
        file: ".opencode/commands/test.md",
        text: "---\ndescription: Run the tests\nallowed-tools: Bash(npm test)\n---\nRun `npm test` and summarise the failures.\n",
    },
    passes: Example {
        file: ".opencode/commands/test.md",
        text: "---\ndescription: Run the tests\nagent: build\n---\nRun `npm test` and summarise the failures.\n",
    },
    notes: "A field that differs from a known one only in case gets a safe fix (rename it).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    parsed(cx, FileKind::OpencodeCommand).flat_map(|doc| unknown(doc, FileKind::OpencodeCommand)).collect()
}
