//! COPILOT003: frontmatter that is not valid YAML.

use crate::agent_files::FileKind;
use crate::rules::frontmatter::frontmatter_error;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "The frontmatter of a Copilot instructions, prompt or custom agent file is not valid YAML, or is never closed.",
    why: "VS Code and GitHub read these files' settings (`applyTo`, `agent`, `tools`, `description`…) from YAML \
          frontmatter; when it does not parse, none of them apply: instructions are not attached, tools not \
          restricted. Sources: https://code.visualstudio.com/docs/copilot/customization/prompt-files; \
          https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference.",
    fails: Example { file: ".github/instructions/python.instructions.md", text: "---\napplyTo: **/*.py\n---\nUse type hints.\n" },
    passes: Example { file: ".github/instructions/python.instructions.md", text: "---\napplyTo: \"**/*.py\"\n---\nUse type hints.\n" },
    notes: "Other Copilot rules skip a file whose frontmatter does not parse.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let kinds = [FileKind::CopilotScopedInstructions, FileKind::CopilotPrompt, FileKind::CopilotAgent];
    cx.files
        .iter()
        .filter(|d| kinds.contains(&d.kind))
        .filter_map(|d| {
            frontmatter_error(d, "quote values that start with `*`, `[`, `{` or contain `: `; close the frontmatter with `---`")
        })
        .collect()
}
