//! WINDSURF003: a Windsurf rule's frontmatter has a field Windsurf does not read.

use crate::rules::frontmatter::unknown_fields;
use crate::rules::prelude::*;
use crate::rules::windsurf::{fields, windsurf_rules};

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Windsurf rule's frontmatter has a field other than `trigger`, `globs` and `description`.",
    why: "Windsurf reads a rule's activation mode from `trigger`, `globs` and `description`; a field borrowed from \
          Cursor (`alwaysApply`) or Kiro (`inclusion`), or a misspelt one (`glob`), is ignored, and the rule is applied \
          by its `trigger` alone. Source: https://docs.windsurf.com/windsurf/cascade/memories (checked 2026-11-29); the \
          list is Windsurf's host model, `data/hosts/windsurf.toml`.",
    fails: Example { file: ".windsurf/rules/python.md", text: "---\ntrigger: always_on\nalwaysApply: true\n---\nUse type hints.\n" },
    passes: Example { file: ".windsurf/rules/python.md", text: "---\ntrigger: always_on\n---\nUse type hints.\n" },
    notes: "A field that differs from a known one only in case gets a safe fix (rename it).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let known = fields();
    windsurf_rules(cx).flat_map(|doc| unknown_fields(doc, &known, "Windsurf")).collect()
}
