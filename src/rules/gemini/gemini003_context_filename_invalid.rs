//! GEMINI003: `context.fileName` that is not a file name or a list of them.

use serde_json::Value;

use crate::rules::gemini::gemini_settings;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "`context.fileName` in `.gemini/settings.json` is not a non-empty file name or a list of them, or names a path.",
    why: "`context.fileName` replaces `GEMINI.md` as the name of the context files Gemini CLI loads from every folder \
          (a string or a list such as `[\"AGENTS.md\", \"GEMINI.md\"]`). An empty value, a non-string, or a path with \
          `/` (a name is looked up in each folder) loads no context file at all. Sources: \
          google-gemini/gemini-cli:docs/cli/gemini-md.md@5411f113, docs/reference/configuration.md@5411f113.",
    fails: Example { file: ".gemini/settings.json", text: "{\n  \"context\": { \"fileName\": [\"docs/AGENTS.md\", \"\"] }\n}\n" },
    passes: Example { file: ".gemini/settings.json", text: "{\n  \"context\": { \"fileName\": [\"AGENTS.md\", \"GEMINI.md\"] }\n}\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, settings) in gemini_settings(cx) {
        let Some(names) = settings.value.get("context").and_then(|c| c.get("fileName")) else { continue };
        let problem = match names {
            Value::String(s) => name_problem(s),
            Value::Array(items) if !items.is_empty() => items.iter().find_map(|i| match i {
                Value::String(s) => name_problem(s),
                other => Some(format!("`{other}` is not a file name")),
            }),
            other => Some(format!("`{other}` is not a file name or a list of file names")),
        };
        if let Some(problem) = problem {
            findings.push(
                Diagnostic::finding(format!("`context.fileName` is invalid: {problem}"))
                    .in_file(&doc.file)
                    .at(settings.key_span(&["context", "fileName"]))
                    .label("invalid")
                    .help("use a file name, or a list of names, e.g. `[\"AGENTS.md\", \"GEMINI.md\"]`"),
            );
        }
    }
    findings
}

fn name_problem(name: &str) -> Option<String> {
    match name.trim() {
        "" => Some("an empty name".to_string()),
        n if n.contains('/') || n.contains('\\') => {
            Some(format!("`{n}` is a path; Gemini CLI looks for a file of this name in each folder"))
        }
        _ => None,
    }
}
