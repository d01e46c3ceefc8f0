//! CURSOR017: a frontmatter field written twice.

use crate::rules::cursor::cursor_rules;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Cursor project rule's frontmatter sets the same field twice.",
    why: "Only one of the two values is used, and which one depends on the reader; the other is a setting the \
          author believes is in effect. Source: https://cursor.com/docs/context/rules.",
    fails: Example { file: ".cursor/rules/web.mdc", text: "---\nglobs: **/*.ts\ndescription: Web code\nglobs: **/*.tsx\n---\nUse ESM.\n" },
    passes: Example { file: ".cursor/rules/web.mdc", text: "---\nglobs: **/*.ts, **/*.tsx\ndescription: Web code\n---\nUse ESM.\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, front) in cursor_rules(cx) {
        for (i, field) in front.fields.iter().enumerate() {
            if let Some(first) = front.fields[..i].iter().find(|f| f.key == field.key) {
                let (line, _) = crate::diagnostic::line_col(&doc.text, first.key_span.start);
                findings.push(
                    Diagnostic::finding(format!("`{}` is set twice (first on line {line})", field.key))
                        .in_file(&doc.file)
                        .at(Some(field.key_span.clone()))
                        .label("set again")
                        .help("keep one line and merge the values"),
                );
            }
        }
    }
    findings
}
