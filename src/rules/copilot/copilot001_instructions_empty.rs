//! COPILOT001: an empty `.github/copilot-instructions.md`.

use crate::agent_files::FileKind;
use crate::rules::frontmatter::empty_file;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "`.github/copilot-instructions.md` is empty or only whitespace.",
    why: "Copilot adds the repository instructions file to every chat and review request; an empty file gives no \
          instructions and usually means they were lost or never written. Source: \
          https://docs.github.com/en/copilot/how-tos/configure-custom-instructions-in-your-ide/add-repository-instructions-in-your-ide.",
    fails: Example { file: ".github/copilot-instructions.md", text: "(an empty file, or only blank lines)\n" },
    passes: Example {
        file: ".github/copilot-instructions.md",
        text: "This is a Rust workspace. Run `cargo test` before proposing a change.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    cx.files_of(FileKind::CopilotInstructions)
        .filter(|d| d.text.trim().is_empty())
        .map(|d| empty_file(&d.file, &d.rel, "", "write the repository's build, test and style conventions, or delete the file"))
        .collect()
}
