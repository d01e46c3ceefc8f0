//! GEMINI001: `.gemini/settings.json` that is not valid JSON.

use crate::agent_files::FileKind;
use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::GEMINI001,
    name: "settings-invalid-json",
    family: Family::Gemini,
    severity: Severity::Error,
    summary: "The project's `.gemini/settings.json` is not valid JSON.",
    why: "Gemini CLI merges the project settings over the user's; a file that does not parse contributes none of its \
          settings (context files, MCP servers, tool limits), so the project runs with defaults. Source: \
          google-gemini/gemini-cli:docs/reference/configuration.md@5411f113.",
    fails: Example { file: ".gemini/settings.json", text: "{\n  \"context\": { \"fileName\": \"AGENTS.md\", }\n}\n" },
    passes: Example { file: ".gemini/settings.json", text: "{\n  \"context\": { \"fileName\": \"AGENTS.md\" }\n}\n" },
    notes: "Other GEMINI rules skip a settings file that does not parse.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::GeminiSettings) {
        if let Err((offset, message)) = &*doc.json() {
            let at = (*offset).min(doc.text.len());
            findings.push(
                Diagnostic::error(format!("{} is not valid JSON: {message}", doc.rel))
                    .in_file(&doc.file)
                    .at(Some(at..at))
                    .label("here")
                    .help("fix the JSON (no trailing commas or comments outside strings)"),
            );
        }
    }
    findings
}
