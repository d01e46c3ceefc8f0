//! CURSOR002: a `.mdc` frontmatter block that is never closed.

use crate::agent_files::FileKind;
use crate::rules::frontmatter::{raw_front, RawError};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A Cursor project rule opens its frontmatter with `---` and never closes it.",
    why: "Without the closing `---` line Cursor cannot tell the rule's settings from its text: the `description`, \
          `globs` and `alwaysApply` lines are not read as settings, so the rule does not apply as written. \
          Source: https://cursor.com/docs/context/rules.",
    fails: Example {
        file: ".cursor/rules/python.mdc",
        text: "---\ndescription: Python style\nglobs: **/*.py\n# Python\n\nUse type hints.\n",
    },
    passes: Example {
        file: ".cursor/rules/python.mdc",
        text: "---\ndescription: Python style\nglobs: **/*.py\n---\n# Python\n\nUse type hints.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::CursorRule) {
        if let Err(RawError::Unterminated(span)) = raw_front(&doc.text) {
            findings.push(
                Diagnostic::finding(format!("the frontmatter of {} is never closed", doc.rel))
                    .in_file(&doc.file)
                    .at(Some(span))
                    .label("opened here, no closing `---`")
                    .help("add a `---` line after the last setting"),
            );
        }
    }
    findings
}
