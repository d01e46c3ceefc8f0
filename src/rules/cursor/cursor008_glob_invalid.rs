//! CURSOR008: a glob with a syntax error.

use crate::rules::cursor::{all_globs, cursor_rules};

use crate::rules::globs::glob_problem;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A glob in a Cursor project rule's `globs` has a syntax error (an unclosed `[` or `{`, a stray `}`, an empty `{}`).",
    why: "An Auto Attached rule is added when a file in the conversation matches one of its globs. A glob that does \
          not parse matches nothing, so the rule never attaches. Source: https://cursor.com/docs/context/rules.",
    fails: Example { file: ".cursor/rules/web.mdc", text: "---\ndescription: Web code\nglobs: src/**/*.{ts,tsx\n---\nUse ESM.\n" },
    passes: Example { file: ".cursor/rules/web.mdc", text: "---\ndescription: Web code\nglobs: src/**/*.{ts,tsx}\n---\nUse ESM.\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, front) in cursor_rules(cx) {
        let Some(field) = front.get("globs") else { continue };
        for (glob, span) in all_globs(field) {
            if let Some(problem) = glob_problem(glob) {
                findings.push(
                    Diagnostic::finding(format!("glob `{glob}` is invalid: {problem}"))
                        .in_file(&doc.file)
                        .at(Some(span))
                        .label("invalid glob")
                        .help("fix the brackets; separate globs with commas, e.g. `src/**/*.ts, src/**/*.tsx`"),
                );
            }
        }
    }
    findings
}
