//! KIRO005: a `fileMatchPattern` that is not a glob or a list of globs.

use serde_json::Value;

use crate::rules::globs::glob_problem;
use crate::rules::kiro::steering;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A steering file's `fileMatchPattern` is empty, not a string or list of strings, or a glob with broken syntax.",
    why: "Kiro includes a `fileMatch` steering file when a path in the context matches its `fileMatchPattern`, a \
          glob or a list of globs. An empty pattern, a number, or a glob with an unclosed `[` or `{` matches no path, \
          so the file is never included. Source: kiro.dev/docs/steering.",
    fails: Example {
        file: ".kiro/steering/web.md",
        text: "---\ninclusion: fileMatch\nfileMatchPattern: \"src/**/*.{ts,tsx\"\n---\nPrefer named exports.\n",
    },
    passes: Example {
        file: ".kiro/steering/web.md",
        text: "---\ninclusion: fileMatch\nfileMatchPattern: \"src/**/*.{ts,tsx}\"\n---\nPrefer named exports.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in steering(cx) {
        let Some(value) = doc.field("fileMatchPattern") else { continue };
        let mut report = |problem: String, at| {
            findings.push(
                Diagnostic::finding(format!("`fileMatchPattern` {problem}"))
                    .in_file(&doc.file)
                    .at(at)
                    .label("matches nothing")
                    .help("write a glob such as `\"src/**/*.ts\"`, or a list of them"),
            );
        };
        match value {
            Value::String(glob) => match (glob.trim().is_empty(), glob_problem(glob)) {
                (true, _) => report("is empty".to_string(), doc.value_span("fileMatchPattern")),
                (_, Some(problem)) => report(format!("`{glob}` is not a valid glob: {problem}"), doc.value_span("fileMatchPattern")),
                _ => {}
            },
            Value::Array(items) if !items.is_empty() => {
                for (i, item) in items.iter().enumerate() {
                    let at = doc.item_span("fileMatchPattern", i).or_else(|| doc.value_span("fileMatchPattern"));
                    match item.as_str() {
                        Some(glob) if glob.trim().is_empty() => report(format!("item {} is empty", i + 1), at),
                        Some(glob) => {
                            if let Some(problem) = glob_problem(glob) {
                                report(format!("`{glob}` is not a valid glob: {problem}"), at);
                            }
                        }
                        None => report(format!("item {} is not a string", i + 1), at),
                    }
                }
            }
            Value::Array(_) => report("is an empty list".to_string(), doc.value_span("fileMatchPattern")),
            other => report(format!("is {other}, not a glob"), doc.value_span("fileMatchPattern")),
        }
    }
    findings
}
