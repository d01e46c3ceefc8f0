//! CURSOR013: a Cursor rule over 500 lines.

use crate::agent_files::FileKind;
use crate::rules::prelude::*;

/// Cursor's documented limit for one rule.
const MAX_LINES: usize = 500;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Cursor project rule or `.cursorrules` file is longer than 500 lines.",
    why: "Cursor's documentation asks to keep each rule under 500 lines and to split large rules into several \
          composable ones: a rule's whole text enters the context every time it applies. Source: \
          https://cursor.com/docs/context/rules (best practices).",
    fails: Example {
        file: ".cursor/rules/everything.mdc",
        text: "---\nalwaysApply: true\n---\n(820 lines of conventions, examples and API notes)\n",
    },
    passes: Example {
        file: ".cursor/rules/everything.mdc",
        text: "---\nalwaysApply: true\n---\n(120 lines of conventions; API notes moved to an Agent Requested rule)\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files.iter().filter(|d| matches!(d.kind, FileKind::CursorRule | FileKind::CursorRulesLegacy)) {
        let lines = doc.text.lines().count();
        if lines > MAX_LINES {
            let first = doc.text.find('\n').unwrap_or(doc.text.len());
            findings.push(
                Diagnostic::finding(format!("{} is {} lines long; Cursor recommends under {MAX_LINES} per rule", doc.rel, grouped(lines)))
                    .in_file(&doc.file)
                    .at(Some(0..first))
                    .help("split it into smaller rules, each with the globs or description that says when it applies"),
            );
        }
    }
    findings
}
