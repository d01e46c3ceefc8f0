//! CURSOR016: an empty `.cursorrules`.

use crate::agent_files::FileKind;
use crate::rules::cursor::cursor018_cursorrules_inside_cursor_folder::inside_cursor_folder;
use crate::rules::frontmatter::empty_file;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A `.cursorrules` file is empty or only whitespace.",
    why: "`.cursorrules` is read as the project's always-applied rules (by Cursor, and by OpenHands as a repository \
          microagent); an empty one gives no rules and suggests the real ones were lost. Sources: \
          https://cursor.com/docs/context/rules; All-Hands-AI/OpenHands:openhands/microagent/microagent.py@156d0686.",
    fails: Example { file: ".cursorrules", text: "(an empty file, or only blank lines)\n" },
    passes: Example { file: ".cursorrules", text: "Use TypeScript strict mode.\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    cx.files_of(FileKind::CursorRulesLegacy)
        .filter(|d| d.text.trim().is_empty() && !inside_cursor_folder(d))
        .map(|d| empty_file(&d.file, &d.rel, "", "delete it, or write the rules in `.cursor/rules/*.mdc`"))
        .collect()
}
