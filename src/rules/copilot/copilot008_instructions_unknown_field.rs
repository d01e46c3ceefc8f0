//! COPILOT008: a frontmatter field path-specific instructions do not use.

use crate::agent_files::FileKind;
use crate::rules::copilot::parsed;
use crate::rules::frontmatter::unknown_fields;
use crate::rules::prelude::*;

const KNOWN: [&str; 4] = ["applyTo", "excludeAgent", "description", "name"];

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A `.instructions.md` file's frontmatter has a field other than `applyTo`, `excludeAgent`, `description` and `name`.",
    why: "Copilot reads `applyTo` and `excludeAgent`; VS Code also shows `name` and `description`. Anything else is \
          ignored, so a misspelt `applyto` or `apply_to` leaves the file unscoped. Sources: \
          https://docs.github.com/en/copilot/how-tos/configure-custom-instructions-in-your-ide/add-repository-instructions-in-your-ide; \
          https://code.visualstudio.com/docs/copilot/customization/custom-instructions.",
    fails: Example { file: ".github/instructions/python.instructions.md", text: "---\napplyto: \"**/*.py\"\n---\nUse type hints.\n" },
    passes: Example { file: ".github/instructions/python.instructions.md", text: "---\napplyTo: \"**/*.py\"\n---\nUse type hints.\n" },
    notes: "A field that differs from a known one only in case gets a safe fix (rename it).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    parsed(cx, FileKind::CopilotScopedInstructions).flat_map(|doc| unknown_fields(doc, &KNOWN, "Copilot")).collect()
}
