//! GEMINI002: a top-level settings key that is not a Gemini CLI settings category.

use crate::agent_files::FileKind;
use crate::diagnostic::did_you_mean;
use crate::rules::gemini::parse_settings;
use crate::rules::prelude::*;

const TOP_LEVEL: [&str; 26] = [
    "$schema",
    "general",
    "output",
    "ui",
    "ide",
    "privacy",
    "billing",
    "model",
    "modelConfigs",
    "agents",
    "context",
    "tools",
    "mcp",
    "useWriteTodos",
    "security",
    "advanced",
    "experimental",
    "skills",
    "hooksConfig",
    "hooks",
    "contextManagement",
    "admin",
    "mcpServers",
    "telemetry",
    "policyPaths",
    "adminPolicyPaths",
];

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The project's `.gemini/settings.json` has a top-level key that is not one of Gemini CLI's settings categories.",
    why: "Gemini CLI settings are grouped by category (`general`, `ui`, `model`, `context`, `tools`, `mcp`, \
          `mcpServers`, `security`…). A key outside them, such as the pre-categories `contextFileName` or a typo \
          of a category, is not where the CLI looks, so the setting does not take effect as written. Sources: \
          google-gemini/gemini-cli:docs/reference/configuration.md@5411f113, `schemas/settings.schema.json`.",
    fails: Example { file: ".gemini/settings.json", text: "{\n  \"contextFileName\": \"AGENTS.md\"\n}\n" },
    passes: Example { file: ".gemini/settings.json", text: "{\n  \"context\": { \"fileName\": \"AGENTS.md\" }\n}\n" },
    notes: "The finding points at the top-level key itself, never at a nested key of the same name.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::GeminiSettings) {
        let Ok(settings) = parse_settings(&doc.text) else { continue };
        for (key, span) in settings.top_level.iter().filter(|(k, _)| !TOP_LEVEL.contains(&k.as_str())) {
            let help = match did_you_mean(key, TOP_LEVEL) {
                Some(s) => format!("did you mean `{s}`?"),
                None => "move the setting under its category (see the Gemini CLI configuration reference)".to_string(),
            };
            findings.push(
                Diagnostic::finding(format!("`{key}` is not a Gemini CLI settings category"))
                    .in_file(&doc.file)
                    .at(Some(span.clone()))
                    .label("unknown key")
                    .help(help)
                    .groupable(),
            );
        }
    }
    findings
}
