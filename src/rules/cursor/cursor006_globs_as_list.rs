//! CURSOR006: `globs` written as a YAML list instead of a comma-separated string.

use crate::diagnostic::{Edit, Fix};
use crate::rules::kinds::{cursor_rules, split_globs, unquote};
use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::CURSOR006,
    name: "globs-as-list",
    family: Family::Cursor,
    severity: Severity::Warning,
    summary: "A Cursor project rule writes `globs` as a YAML list (`[…]` or `- item` lines) instead of a comma-separated string.",
    why: "Cursor's own rule-writing rule says `globs` is \"a comma-separated list, not an array\" and \"should NOT \
          include brackets or quotes\"; the rules editor writes `globs: **/*.ts, **/*.tsx`. A list may be read \
          differently by other Cursor versions and by tools that read `.mdc` files. Sources: \
          https://cursor.com/docs/context/rules; skillsaw `cursor-rules-valid`.",
    fails: Example {
        file: ".cursor/rules/web.mdc",
        text: "---\ndescription: Web code\nglobs: [\"**/*.ts\", \"**/*.tsx\"]\n---\nUse ESM.\n",
    },
    passes: Example { file: ".cursor/rules/web.mdc", text: "---\ndescription: Web code\nglobs: **/*.ts, **/*.tsx\n---\nUse ESM.\n" },
    notes: "Safe fix: the same globs, comma-separated, without quotes.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, front) in cursor_rules(cx) {
        let Some(field) = front.get("globs") else { continue };
        let globs: Vec<String> = if let Some(inner) = field.value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
            split_globs(inner, 0).into_iter().map(|(g, _)| unquote(g).to_string()).filter(|g| !g.is_empty()).collect()
        } else if field.value.is_empty() && !field.items.is_empty() {
            field.items.iter().map(|(g, _)| unquote(g).to_string()).collect()
        } else {
            continue;
        };
        let joined = globs.join(", ");
        let span = field.key_span.start..field.line_span.end;
        let newline = if doc.text[..span.end].ends_with("\r\n") { "\r\n" } else { "\n" };
        let replacement = format!("globs: {joined}{newline}");
        let mut d = Diagnostic::warning("`globs` is written as a list; Cursor expects a comma-separated string")
            .in_file(&doc.file)
            .at(Some(field.value_span.clone()))
            .label("a list")
            .help(format!("write `globs: {joined}`"));
        if !globs.is_empty() && doc.text[..span.end].ends_with('\n') {
            d = d.fix(Fix::safe("write the globs comma-separated", vec![Edit::replace(&doc.file, span, replacement)]));
        }
        findings.push(d);
    }
    findings
}
