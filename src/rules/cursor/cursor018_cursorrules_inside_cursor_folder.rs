//! CURSOR018: a `.cursorrules` file inside a `.cursor/` folder.

use crate::agent_files::{Doc, FileKind};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A `.cursorrules` file is inside a `.cursor/` folder, where Cursor never reads it.",
    why: "Cursor reads the legacy `.cursorrules` from the root of the project and project rules from \
          `.cursor/rules/`. A `.cursorrules` placed in `.cursor/` (a natural guess when moving rules \"into the Cursor \
          folder\") is neither: none of its instructions reach the model, and nothing says so. Source: \
          https://cursor.com/docs/context/rules (project rules in `.cursor/rules`; `.cursorrules` in the project root, \
          legacy).",
    fails: Example { file: ".cursor/.cursorrules", text: "Use TypeScript strict mode.\n" },
    passes: Example {
        file: ".cursor/rules/typescript.mdc",
        text: "---\ndescription: TypeScript conventions\nglobs: **/*.ts\n---\nUse TypeScript strict mode.\n",
    },
    notes: "Such a file gets this finding only: the other `.cursorrules` rules (CURSOR014–CURSOR016) are about a file Cursor reads.",
    stage: Stage::Lint(check),
};

/// Whether a `.cursorrules` file sits in a `.cursor/` folder.
pub fn inside_cursor_folder(doc: &Doc) -> bool {
    doc.rel.strip_suffix(".cursorrules").is_some_and(|dir| dir == ".cursor/" || dir.ends_with("/.cursor/"))
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    cx.files_of(FileKind::CursorRulesLegacy)
        .filter(|d| inside_cursor_folder(d))
        .map(|d| {
            let root = d.rel.strip_suffix(".cursor/.cursorrules").unwrap_or_default();
            Diagnostic::finding(format!("{} is inside `.cursor/`, where Cursor never reads a `.cursorrules` file", d.rel))
                .in_file(&d.file)
                .at(Some(0..0))
                .help(format!("move the rules into `{root}.cursor/rules/*.mdc` files (or, legacy, to `{root}.cursorrules`)"))
        })
        .collect()
}
