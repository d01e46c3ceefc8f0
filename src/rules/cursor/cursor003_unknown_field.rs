//! CURSOR003: a frontmatter field Cursor does not read.

use crate::rules::cursor::cursor_rules;

use crate::rules::frontmatter::unknown_key;
use crate::rules::prelude::*;

/// The frontmatter fields of a Cursor project rule.
pub const KNOWN: [&str; 3] = ["description", "globs", "alwaysApply"];

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Cursor project rule's frontmatter has a field other than `description`, `globs` and `alwaysApply`.",
    why: "Cursor reads three frontmatter fields and ignores the rest, so a misspelt one (`alwaysapply`, `glob`) \
          silently changes when the rule applies. Source: https://cursor.com/docs/context/rules.",
    fails: Example {
        file: ".cursor/rules/react.mdc",
        text: "---\ndescription: React components\nglob: **/*.tsx\n---\nUse function components.\n",
    },
    passes: Example {
        file: ".cursor/rules/react.mdc",
        text: "---\ndescription: React components\nglobs: **/*.tsx\n---\nUse function components.\n",
    },
    notes: "A field that differs from a known one only in case gets a safe fix (rename it).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, front) in cursor_rules(cx) {
        for field in front.fields.iter().filter(|f| !KNOWN.contains(&f.key.as_str())) {
            let taken = |k: &str| front.fields.iter().any(|f| f.key == k);
            findings.push(unknown_key(&doc.file, &field.key, field.key_span.clone(), &KNOWN, "Cursor", taken));
        }
    }
    findings
}
