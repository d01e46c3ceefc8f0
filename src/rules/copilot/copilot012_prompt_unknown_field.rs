//! COPILOT012: a frontmatter field prompt files do not have.

use crate::agent_files::FileKind;
use crate::rules::copilot::parsed;
use crate::rules::frontmatter::unknown_fields;
use crate::rules::prelude::*;

const KNOWN: [&str; 7] = ["description", "name", "argument-hint", "agent", "mode", "model", "tools"];

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A prompt file's frontmatter has a field other than `description`, `name`, `argument-hint`, `agent`, `model` and `tools`.",
    why: "VS Code reads these fields of a prompt file and ignores the rest, so a misspelt `tool` or `agents` \
          silently leaves the prompt with the default tools or agent. Source: \
          https://code.visualstudio.com/docs/copilot/customization/prompt-files.",
    fails: Example {
        file: ".github/prompts/review.prompt.md",
        text: "---\ndescription: Review the diff\ntool: ['search']\n---\nReview the staged changes.\n",
    },
    passes: Example {
        file: ".github/prompts/review.prompt.md",
        text: "---\ndescription: Review the diff\ntools: ['search']\n---\nReview the staged changes.\n",
    },
    notes:
        "`mode` (the old name of `agent`) is reported by COPILOT010. A field that differs from a known one only in case gets a safe fix.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    parsed(cx, FileKind::CopilotPrompt).flat_map(|doc| unknown_fields(doc, &KNOWN, "VS Code")).collect()
}
