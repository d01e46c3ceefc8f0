//! COPILOT009: a Copilot instructions, prompt or agent file with nothing after its frontmatter.

use crate::agent_files::FileKind;
use crate::rules::frontmatter::{empty_body, has_yaml_error};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A path-specific instructions file, prompt file or custom agent has no text after its frontmatter.",
    why: "The Markdown body is the instructions (or the prompt, or the agent's system prompt); with settings only, \
          Copilot attaches or runs it and the model gets nothing to follow. Sources: \
          https://code.visualstudio.com/docs/copilot/customization/prompt-files; \
          https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference.",
    fails: Example { file: ".github/prompts/release-notes.prompt.md", text: "---\ndescription: Draft release notes\nagent: agent\n---\n" },
    passes: Example {
        file: ".github/prompts/release-notes.prompt.md",
        text: "---\ndescription: Draft release notes\nagent: agent\n---\nSummarise the merged pull requests since the last tag.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let kinds = [FileKind::CopilotScopedInstructions, FileKind::CopilotPrompt, FileKind::CopilotAgent];
    let what = |kind| match kind {
        FileKind::CopilotPrompt => "prompt",
        FileKind::CopilotAgent => "agent's instructions",
        _ => "instructions",
    };
    cx.files
        .iter()
        .filter(|d| kinds.contains(&d.kind) && !has_yaml_error(d))
        .filter_map(|d| empty_body(d, d.body_start(), what(d.kind)))
        .collect()
}
