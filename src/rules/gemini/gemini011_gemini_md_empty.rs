//! GEMINI011: an empty GEMINI.md.

use crate::rules::frontmatter::empty_file;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A GEMINI.md context file is empty or only whitespace.",
    why: "Gemini CLI concatenates every GEMINI.md from the global one down to the current folder into the model's \
          context; an empty one adds nothing but a file separator and usually means its content was lost or moved. \
          Source: google-gemini/gemini-cli:docs/cli/gemini-md.md@5411f113.",
    fails: Example { file: "GEMINI.md", text: "(an empty file, or only blank lines)\n" },
    passes: Example { file: "GEMINI.md", text: "Run `npm test` before proposing a change.\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    cx.memory
        .iter()
        .filter(|m| m.name() == "GEMINI.md" && m.text.trim().is_empty())
        .map(|d| empty_file(&d.file, &d.rel, "", "write the project's instructions in it, or delete it"))
        .collect()
}
