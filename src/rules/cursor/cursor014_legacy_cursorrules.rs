//! CURSOR014: a `.cursorrules` file.

use crate::agent_files::FileKind;
use crate::rules::cursor::cursor018_cursorrules_inside_cursor_folder::inside_cursor_folder;
use crate::rules::cursor::cursor_rule_beside;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The project has a `.cursorrules` file, which Cursor deprecated in favour of project rules in `.cursor/rules/`.",
    why: "`.cursorrules` is the legacy, always-applied rules file (deprecated since Cursor 0.45); project rules in \
          `.cursor/rules/*.mdc` can be scoped by globs or loaded on request, so they cost context only when needed. \
          Sources: https://cursor.com/docs/context/rules; https://zenn.dev/reyurnible/articles/448c50c171f8fb.",
    fails: Example { file: ".cursorrules", text: "Use TypeScript strict mode.\n" },
    passes: Example {
        file: ".cursor/rules/typescript.mdc",
        text: "---\ndescription: TypeScript conventions\nglobs: **/*.ts\n---\nUse TypeScript strict mode.\n",
    },
    notes: "When `.cursor/rules/` also exists beside it, CURSOR015 reports the file instead.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx
        .files_of(FileKind::CursorRulesLegacy)
        .filter(|d| !d.text.trim().is_empty() && !inside_cursor_folder(d) && cursor_rule_beside(cx, d).is_none())
    {
        findings.push(
            Diagnostic::finding(format!("{} is Cursor's deprecated rules file", doc.rel))
                .in_file(&doc.file)
                .at(Some(0..0))
                .help("move its rules to `.cursor/rules/*.mdc` files, each with `description`, `globs` or `alwaysApply`"),
        );
    }
    findings
}
