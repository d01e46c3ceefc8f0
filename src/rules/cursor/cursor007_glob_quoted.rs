//! CURSOR007: globs quoted one by one in a comma-separated `globs`.

use crate::diagnostic::{Edit, Fix};
use crate::rules::cursor::cursor_rules;
use crate::rules::frontmatter::unquote;
use crate::rules::globs::split_globs;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Cursor project rule quotes the globs of a comma-separated `globs` one by one (`\"a\", \"b\"`) without list brackets.",
    why: "`globs` is either a comma-separated string (`src/**/*.ts, src/**/*.tsx`, the style Cursor's rules editor \
          writes) or a YAML list (`[\"src/**/*.ts\", \"src/**/*.tsx\"]`). Quoted globs separated by commas are neither: \
          as YAML the line does not parse, and read as a string each glob keeps its quotes and matches no file, so \
          the rule is never attached. Source: https://cursor.com/docs/context/rules.",
    fails: Example { file: ".cursor/rules/go.mdc", text: "---\ndescription: Go style\nglobs: \"**/*.go\", \"go.mod\"\n---\nRun gofmt.\n" },
    passes: Example { file: ".cursor/rules/go.mdc", text: "---\ndescription: Go style\nglobs: **/*.go, go.mod\n---\nRun gofmt.\n" },
    notes: "One quoted glob (`globs: \"**/*.go\"`) is a valid YAML string and is not reported, nor is a list. \
            Safe fix: the globs without their quotes.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, front) in cursor_rules(cx) {
        let Some(field) = front.get("globs") else { continue };
        if field.value.starts_with('[') {
            continue;
        }
        let globs = split_globs(&field.value, field.value_span.start);
        let quoted = |g: &str| g.len() >= 2 && unquote(g).len() != g.len();
        if globs.len() < 2 || !globs.iter().any(|(g, _)| quoted(g)) {
            continue;
        }
        let bare: Vec<&str> = globs.iter().map(|(g, _)| unquote(g)).collect();
        if bare.iter().any(|g| g.contains(['"', '\''])) {
            continue;
        }
        let joined = bare.join(", ");
        findings.push(
            Diagnostic::finding(format!("the globs are quoted one by one: `{}`", field.value))
                .in_file(&doc.file)
                .at(Some(field.value_span.clone()))
                .label("quoted globs without list brackets")
                .help(format!("write `globs: {joined}`"))
                .fix(Fix::safe("remove the quotes", vec![Edit::replace(&doc.file, field.value_span.clone(), joined)])),
        );
    }
    findings
}
