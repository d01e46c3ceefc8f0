//! KIRO003: a steering file's frontmatter has a field Kiro does not read.

use crate::rules::frontmatter::unknown_fields;
use crate::rules::kiro::{fields, steering};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A steering file's frontmatter has a field other than `inclusion`, `fileMatchPattern`, `name` and `description`.",
    why: "Kiro reads those four fields of a steering file and ignores the rest, so a field borrowed from another \
          product (Cursor's `globs`, `alwaysApply`) or misspelt (`fileMatchPatterns`) has no effect: the file is \
          included by its `inclusion` alone. Source: kiro.dev/docs/steering; the list is Kiro's host model, \
          `data/hosts/kiro.toml`.",
    fails: Example {
        file: ".kiro/steering/ui.md",
        text: "---\ninclusion: fileMatch\nfileMatchPattern: \"src/**/*.tsx\"\nglobs: \"src/**/*.tsx\"\n---\nUse function components.\n",
    },
    passes: Example {
        file: ".kiro/steering/ui.md",
        text: "---\ninclusion: fileMatch\nfileMatchPattern: \"src/**/*.tsx\"\n---\nUse function components.\n",
    },
    notes: "A field that differs from a known one only in case gets a safe fix (rename it).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let known = fields();
    steering(cx).flat_map(|doc| unknown_fields(doc, &known, "Kiro")).collect()
}
