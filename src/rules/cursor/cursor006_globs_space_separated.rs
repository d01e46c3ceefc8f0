//! CURSOR006: globs separated by spaces instead of commas.

use crate::diagnostic::{Edit, Fix};
use crate::rules::cursor::{cursor_rules, string_globs};
use crate::rules::globs::glob_problem;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An entry of a Cursor project rule's `globs` holds several globs separated by spaces.",
    why: "Cursor splits `globs` at commas only: `*.ts *.tsx` is one glob containing a space, which matches no file. \
          Source: https://cursor.com/docs/context/rules.",
    fails: Example { file: ".cursor/rules/web.mdc", text: "---\ndescription: Web code\nglobs: **/*.ts **/*.tsx\n---\nUse ESM.\n" },
    passes: Example { file: ".cursor/rules/web.mdc", text: "---\ndescription: Web code\nglobs: **/*.ts, **/*.tsx\n---\nUse ESM.\n" },
    notes: "Unsafe fix (a path may contain a space): commas between the parts.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, front) in cursor_rules(cx) {
        let Some(field) = front.get("globs") else { continue };
        for (glob, span) in string_globs(field) {
            let parts: Vec<&str> = glob.split_whitespace().collect();
            // A glob with a syntax error is CURSOR008's.
            if parts.len() < 2 || !parts.iter().all(|p| p.contains(['*', '/', '.'])) || glob.contains(" #") || glob_problem(glob).is_some()
            {
                continue;
            }
            findings.push(
                Diagnostic::finding(format!("`{glob}` is one glob with spaces in it; Cursor separates globs with commas"))
                    .in_file(&doc.file)
                    .at(Some(span.clone()))
                    .label("spaces, not commas")
                    .help(format!("write `{}`", parts.join(", ")))
                    .fix(Fix::unsafe_("separate the globs with commas", vec![Edit::replace(&doc.file, span, parts.join(", "))])),
            );
        }
    }
    findings
}
