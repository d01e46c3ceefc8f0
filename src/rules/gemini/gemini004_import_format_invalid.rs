//! GEMINI004: `context.importFormat` other than `tree` or `flat`.

use crate::rules::gemini::gemini_settings;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "`context.importFormat` in `.gemini/settings.json` is neither `\"tree\"` nor `\"flat\"`.",
    why: "`importFormat` decides how `@file` imports of GEMINI.md are laid out in the context: `tree` (the default, \
          nested where imported) or `flat`. Another value is not one of the formats the import processor knows. \
          Sources: google-gemini/gemini-cli:docs/reference/memport.md@5411f113, docs/reference/configuration.md@5411f113.",
    fails: Example { file: ".gemini/settings.json", text: "{\n  \"context\": { \"importFormat\": \"nested\" }\n}\n" },
    passes: Example { file: ".gemini/settings.json", text: "{\n  \"context\": { \"importFormat\": \"flat\" }\n}\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, settings) in gemini_settings(cx) {
        let Some(format) = settings.value.get("context").and_then(|c| c.get("importFormat")) else { continue };
        if matches!(format.as_str(), Some("tree" | "flat")) {
            continue;
        }
        findings.push(
            Diagnostic::finding(format!("`context.importFormat` is `{format}`, not `\"tree\"` or `\"flat\"`"))
                .in_file(&doc.file)
                .at(settings.key_span(&["context", "importFormat"]))
                .label("unknown format")
                .help("use `\"tree\"` (the default) or `\"flat\"`"),
        );
    }
    findings
}
