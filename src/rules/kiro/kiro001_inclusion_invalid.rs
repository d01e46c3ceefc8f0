//! KIRO001: a steering file's `inclusion` is not one of Kiro's inclusion modes.

use crate::diagnostic::did_you_mean;
use crate::rules::kiro::{steering, INCLUSION_MODES};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A steering file's `inclusion` is not `always`, `fileMatch`, `auto` or `manual`.",
    why: "Kiro decides when a steering file enters the context from its `inclusion`: every request (`always`, the \
          default), when a matching file is in play (`fileMatch`), when its description fits the request (`auto`), or \
          when the user names it (`manual`). Another value (`file_match`, `Always`, `on-demand`) is none of these, so \
          the file is not included as its author meant. Source: kiro.dev/docs/steering.",
    fails: Example {
        file: ".kiro/steering/api.md",
        text: "---\ninclusion: filematch\nfileMatchPattern: \"api/**/*.ts\"\n---\nValidate every request body.\n",
    },
    passes: Example {
        file: ".kiro/steering/api.md",
        text: "---\ninclusion: fileMatch\nfileMatchPattern: \"api/**/*.ts\"\n---\nValidate every request body.\n",
    },
    notes: "The modes are case-sensitive (`fileMatch`).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in steering(cx) {
        let Some(value) = doc.field("inclusion") else { continue };
        let written = value.as_str();
        if written.is_some_and(|v| INCLUSION_MODES.contains(&v)) {
            continue;
        }
        let shown = written.map_or_else(|| value.to_string(), str::to_string);
        let help = match written.and_then(|v| did_you_mean(v, INCLUSION_MODES)) {
            Some(s) => format!("did you mean `{s}`?"),
            None => "use `always`, `fileMatch`, `auto` or `manual`".to_string(),
        };
        findings.push(
            Diagnostic::finding(format!("`inclusion: {shown}` is not a Kiro inclusion mode"))
                .in_file(&doc.file)
                .at(doc.value_span("inclusion"))
                .label("unknown mode")
                .help(help),
        );
    }
    findings
}
