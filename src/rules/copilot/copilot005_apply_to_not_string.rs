//! COPILOT005: `applyTo` written as a list.

use crate::agent_files::FileKind;
use crate::diagnostic::{Edit, Fix};
use crate::rules::copilot::parsed;
use crate::rules::prelude::*;
use serde_json::Value;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A path-specific instructions file writes `applyTo` as a list or another non-string value.",
    why: "`applyTo` is one glob string; several globs are separated by commas inside it (`\"**/*.ts,**/*.tsx\"`). \
          A YAML list is not the documented form and may not be applied. Source: \
          https://docs.github.com/en/copilot/how-tos/configure-custom-instructions-in-your-ide/add-repository-instructions-in-your-ide.",
    fails: Example { file: ".github/instructions/web.instructions.md", text: "---\napplyTo: ['**/*.ts', '**/*.tsx']\n---\nUse ESM.\n" },
    passes: Example { file: ".github/instructions/web.instructions.md", text: "---\napplyTo: '**/*.ts, **/*.tsx'\n---\nUse ESM.\n" },
    notes: "A list written on the `applyTo` line gets a safe fix: the same globs as one comma-separated string.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in parsed(cx, FileKind::CopilotScopedInstructions) {
        let Some(value) = doc.field("applyTo") else { continue };
        if value.is_string() {
            continue;
        }
        let span = doc.value_span("applyTo");
        let mut d = Diagnostic::finding(format!("`applyTo` is {}, not a glob string", describe(value)))
            .in_file(&doc.file)
            .at(span.clone())
            .label("expected a string")
            .help("write the globs as one string, separated by commas: `applyTo: \"**/*.ts, **/*.tsx\"`");
        let globs: Option<Vec<&str>> = value.as_array().map(|a| a.iter().filter_map(Value::as_str).collect());
        if let (Some(globs), Some(span)) = (globs, span) {
            let one_line = doc.text[span.clone()].starts_with('[');
            if one_line && !globs.is_empty() && globs.len() == value.as_array().map_or(0, Vec::len) {
                d = d.fix(Fix::safe(
                    "write the globs as one string",
                    vec![Edit::replace(&doc.file, span, format!("\"{}\"", globs.join(", ")))],
                ));
            }
        }
        findings.push(d);
    }
    findings
}

fn describe(value: &Value) -> &'static str {
    match value {
        Value::Array(_) => "a list",
        Value::Null => "empty",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        _ => "a mapping",
    }
}
