//! CURSOR001: a `.mdc` rule without frontmatter.

use crate::agent_files::FileKind;
use crate::rules::frontmatter::{raw_front, RawError};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Cursor project rule (`.cursor/rules/*.mdc`) does not start with a `---` frontmatter block.",
    why: "Cursor decides when a project rule applies from its frontmatter alone: `alwaysApply: true` (Always), `globs` \
          (Auto Attached), `description` (Agent Requested). A rule without frontmatter is only ever included by hand \
          (`@rule`), which is rarely what its author meant. Source: https://cursor.com/docs/context/rules.",
    fails: Example { file: ".cursor/rules/typescript.mdc", text: "# TypeScript\n\nUse strict mode.\n" },
    passes: Example {
        file: ".cursor/rules/typescript.mdc",
        text: "---\ndescription: TypeScript conventions for this repository\nglobs: **/*.ts, **/*.tsx\nalwaysApply: false\n---\n# TypeScript\n\nUse strict mode.\n",
    },
    notes: "An empty `.mdc` file is reported by CURSOR012 (empty body) instead.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::CursorRule) {
        if doc.text.trim().is_empty() || raw_front(&doc.text) != Err(RawError::Missing) {
            continue;
        }
        let first = doc.text.find('\n').unwrap_or(doc.text.len());
        findings.push(
            Diagnostic::finding(format!("{} has no frontmatter: Cursor applies it only when mentioned with @", doc.rel))
                .in_file(&doc.file)
                .at(Some(0..first))
                .label("no `---` frontmatter")
                .help("start the file with `---`, then `description:`, `globs:` and `alwaysApply:` lines, then `---`"),
        );
    }
    findings
}
