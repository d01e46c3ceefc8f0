//! GEMINI014: a `gemini-extension.json` without a `name` or `version`, or with a name the CLI refuses.

use serde_json::Value;

use crate::agent_files::FileKind;
use crate::rules::json_span::{at_key, at_value, json_docs, Step};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A Gemini CLI extension's `gemini-extension.json` has no `name` or no `version` (or an empty one), or a `name` with characters other than letters, digits and `-`.",
    why: "Gemini CLI loads an extension only when its manifest has a non-empty `name` and `version`, and a name made \
          of `a-z`, `A-Z`, `0-9` and `-` alone; otherwise it skips the extension with a warning (\"Invalid \
          configuration … missing \\\"name\\\"\", \"Invalid extension name\"). Source: \
          google-gemini/gemini-cli:packages/cli/src/config/extension-manager.ts@bc7b3739 (`loadExtensionConfig`, \
          `validateName`).",
    fails: Example { file: "gemini-extension.json", text: "{\n  \"name\": \"acme/docs_search\",\n  \"description\": \"Searches the docs.\"\n}\n" },
    passes: Example { file: "gemini-extension.json", text: "{\n  \"name\": \"acme-docs-search\",\n  \"version\": \"0.3.0\",\n  \"description\": \"Searches the docs.\"\n}\n" },
    notes: "",
    stage: Stage::Lint(check),
};

/// The fields without which the CLI skips an extension (data/hosts/gemini-cli.toml).
fn required() -> Vec<&'static str> {
    FileKind::GeminiExtension.spec_of("gemini-cli").required_fields().collect()
}

/// Whether the CLI takes the value as present (`!config.name` is false for it).
fn present(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Number(n)) => n.as_f64() != Some(0.0),
        Some(_) => true,
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::GeminiExtension]) {
        let Ok(Value::Object(manifest)) = &*json else { continue };
        for key in required() {
            if !present(manifest.get(key)) {
                let d = Diagnostic::finding(format!("{} has no `{key}`: Gemini CLI skips the extension", doc.rel))
                    .label(format!("no `{key}`"))
                    .help(format!("add a non-empty `\"{key}\"`"));
                findings.push(match manifest.contains_key(key) {
                    true => at_value(d, doc, &[Step::Key(key)]),
                    false => d.in_file(&doc.file).at(Some(0..0)),
                });
            }
        }
        let Some(name) = manifest.get("name").and_then(Value::as_str).filter(|n| !n.is_empty()) else { continue };
        if name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            continue;
        }
        let suggested: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
        findings.push(at_key(
            Diagnostic::finding(format!("extension name `{name}` has characters Gemini CLI refuses"))
                .label("only letters, digits and `-`")
                .help(format!("rename it, e.g. `{suggested}`")),
            doc,
            &[Step::Key("name")],
        ));
    }
    findings
}
