//! CURSOR012: a Cursor rule with no text.

use crate::agent_files::FileKind;
use crate::rules::frontmatter::empty_body;
use crate::rules::frontmatter::{raw_front, RawError};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Cursor project rule has nothing after its frontmatter (or is empty).",
    why: "The text after the frontmatter is what Cursor adds to the model's context; a rule without it applies and \
          says nothing. Source: https://cursor.com/docs/context/rules.",
    fails: Example {
        file: ".cursor/rules/style.mdc",
        text: "---\ndescription: Code style for the whole repository\nalwaysApply: true\n---\n",
    },
    passes: Example {
        file: ".cursor/rules/style.mdc",
        text: "---\ndescription: Code style for the whole repository\nalwaysApply: true\n---\nUse 4-space indentation.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::CursorRule) {
        let start = match raw_front(&doc.text) {
            Ok(front) => front.body_start,
            Err(RawError::Missing) => 0,
            Err(RawError::Unterminated(_)) => continue,
        };
        findings.extend(empty_body(doc, start, "rule's instructions"));
    }
    findings
}
