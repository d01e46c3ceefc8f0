//! CLINE003: a Cline rule's frontmatter has a field Cline does not read.

use crate::rules::cline::{cline_rules, fields};
use crate::rules::frontmatter::unknown_fields;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Cline rule's frontmatter has a field other than `paths` (often Cursor's `globs` or `alwaysApply`).",
    why: "`paths` is the one condition Cline reads in a rule's frontmatter; a rule copied from Cursor with `globs` or \
          `alwaysApply`, or a misspelt `path`, is applied to every request rather than to the files it names. Source: \
          https://docs.cline.bot/features/cline-rules/conditional-rules (checked 2026-11-29); the list is Cline's host \
          model, `data/hosts/cline.toml`.",
    fails: Example { file: ".clinerules/api.md", text: "---\nglobs: \"api/**/*.py\"\n---\nValidate every request body.\n" },
    passes: Example { file: ".clinerules/api.md", text: "---\npaths:\n  - \"api/**/*.py\"\n---\nValidate every request body.\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let known = fields();
    cline_rules(cx).flat_map(|doc| unknown_fields(doc, &known, "Cline")).collect()
}
