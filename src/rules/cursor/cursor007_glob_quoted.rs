//! CURSOR007: quotes around `globs`.

use crate::diagnostic::{Edit, Fix};
use crate::rules::kinds::{cursor_rules, string_globs};
use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::CURSOR007,
    name: "glob-quoted",
    family: Family::Cursor,
    severity: Severity::Warning,
    summary: "A Cursor project rule puts quotes around its `globs` value or around globs in it.",
    why: "Cursor reads `globs` as a raw comma-separated string; its own rule-writing rule says globs \"should NOT \
          include brackets or quotes\". A quote kept as part of a glob makes it match no file, and the rule is never \
          attached. Source: https://cursor.com/docs/context/rules.",
    fails: Example { file: ".cursor/rules/go.mdc", text: "---\ndescription: Go style\nglobs: \"**/*.go\"\n---\nRun gofmt.\n" },
    passes: Example { file: ".cursor/rules/go.mdc", text: "---\ndescription: Go style\nglobs: **/*.go\n---\nRun gofmt.\n" },
    notes: "Safe fix: the value without its quotes.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, front) in cursor_rules(cx) {
        let Some(field) = front.get("globs") else { continue };
        if field.value.starts_with('[') || !field.value.contains(['"', '\'']) {
            continue;
        }
        let bare: Vec<&str> = string_globs(field).into_iter().map(|(g, _)| g).collect();
        if bare.iter().any(|g| g.contains(['"', '\''])) {
            continue;
        }
        let joined = bare.join(", ");
        findings.push(
            Diagnostic::warning(format!("`globs` is quoted: `{}`", field.value))
                .in_file(&doc.file)
                .at(Some(field.value_span.clone()))
                .label("quotes")
                .help(format!("write `globs: {joined}`"))
                .fix(Fix::safe("remove the quotes", vec![Edit::replace(&doc.file, field.value_span.clone(), joined)])),
        );
    }
    findings
}
