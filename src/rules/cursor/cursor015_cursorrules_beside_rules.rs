//! CURSOR015: `.cursorrules` beside `.cursor/rules/`.

use crate::agent_files::FileKind;
use crate::rules::cursor::cursor018_cursorrules_inside_cursor_folder::inside_cursor_folder;
use crate::rules::cursor::cursor_rule_beside;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A folder has both the legacy `.cursorrules` file and project rules in `.cursor/rules/`.",
    why: "Two places for the same rules drift apart: the deprecated `.cursorrules` is always applied while the \
          project rules are scoped, so the model may get both an old and a new version of an instruction. Sources: \
          https://cursor.com/docs/context/rules; skillsaw `cursor-rules-valid` (`.cursorrules` coexisting with \
          `.cursor/rules/`).",
    fails: Example { file: ".cursorrules", text: "Use TypeScript strict mode.\n(and .cursor/rules/typescript.mdc exists)\n" },
    passes: Example {
        file: ".cursor/rules/typescript.mdc",
        text: "---\ndescription: TypeScript conventions\nglobs: **/*.ts\n---\nUse TypeScript strict mode.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::CursorRulesLegacy).filter(|d| !d.text.trim().is_empty() && !inside_cursor_folder(d)) {
        let Some(rule) = cursor_rule_beside(cx, doc) else { continue };
        findings.push(
            Diagnostic::finding(format!(
                "{} is Cursor's deprecated rules file, and its folder also has `.cursor/rules/` ({})",
                doc.rel, rule.rel
            ))
            .in_file(&doc.file)
            .at(Some(0..0))
            .help("move what is still needed into `.cursor/rules/*.mdc` and delete `.cursorrules`"),
        );
    }
    findings
}
