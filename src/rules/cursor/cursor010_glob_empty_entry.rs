//! CURSOR010: an empty entry in a comma-separated `globs`.

use crate::diagnostic::{Edit, Fix};
use crate::rules::cursor::{cursor_rules, string_globs};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Cursor project rule's `globs` has an empty entry (`a,,b` or a trailing comma).",
    why: "Globs are separated by commas; an empty entry between two commas or after the last one is a typo, and \
          depending on how it is read it either matches nothing or drops the glob that was meant. Source: \
          https://cursor.com/docs/context/rules.",
    fails: Example { file: ".cursor/rules/web.mdc", text: "---\ndescription: Web code\nglobs: **/*.ts,, **/*.tsx,\n---\nUse ESM.\n" },
    passes: Example { file: ".cursor/rules/web.mdc", text: "---\ndescription: Web code\nglobs: **/*.ts, **/*.tsx\n---\nUse ESM.\n" },
    notes: "Safe fix: the globs rewritten without the empty entries.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, front) in cursor_rules(cx) {
        let Some(field) = front.get("globs") else { continue };
        let globs = string_globs(field);
        if globs.len() < 2 || globs.iter().all(|(g, _)| !g.is_empty()) {
            continue;
        }
        let kept: Vec<&str> = globs.iter().map(|(g, _)| *g).filter(|g| !g.is_empty()).collect();
        let span = field.value_span.clone();
        let mut d = Diagnostic::finding(format!("`globs` has an empty entry: `{}`", field.value))
            .in_file(&doc.file)
            .at(Some(span.clone()))
            .label("empty entry between commas")
            .help("remove the extra comma");
        if !field.value.contains(['"', '\'']) {
            d = d.fix(Fix::safe("remove the empty entries", vec![Edit::replace(&doc.file, span, kept.join(", "))]));
        }
        findings.push(d);
    }
    findings
}
