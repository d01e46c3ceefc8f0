//! CODEX006: a `.codex/config.toml` setting whose value is not one Codex accepts.

use toml_edit::TableLike;

use crate::diagnostic::did_you_mean;
use crate::rules::codex::{codex_configs, config_enums, key_span, named_tables, value_span};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "`approval_policy`, `sandbox_mode`, `model_reasoning_effort`, `model_reasoning_summary`, `model_verbosity` or `web_search` in `.codex/config.toml` (or a profile) has a value Codex does not accept.",
    why: "These settings take one of a fixed set of values; Codex refuses a configuration with another one and does \
          not start. The values are the enums of the JSON Schema Codex generates from its configuration types \
          (openai/codex:codex-rs/core/config.schema.json@000c857e: `AskForApproval`, `SandboxMode`, `ReasoningEffort`, \
          `ReasoningSummary`, `Verbosity`, `WebSearchMode`).",
    fails: Example { file: ".codex/config.toml", text: "sandbox_mode = \"workspace_write\"\n\n[profiles.fast]\nmodel_reasoning_effort = \"max\"\n" },
    passes: Example { file: ".codex/config.toml", text: "sandbox_mode = \"workspace-write\"\n\n[profiles.fast]\nmodel_reasoning_effort = \"low\"\n" },
    notes: "`approval_policy` written as a `{ granular = … }` table is not checked.",
    stage: Stage::Lint(check),
};

fn values(file: &str, table: &dyn TableLike, enums: &[(&str, Vec<&str>)], place: &str, findings: &mut Vec<Diagnostic>) {
    for (key, allowed) in enums {
        let Some(item) = table.get(key) else { continue };
        // A table (`approval_policy = { granular = … }`) is another form, not a wrong value.
        if item.is_table_like() {
            continue;
        }
        let written = item.as_str();
        if written.is_some_and(|v| allowed.contains(&v)) {
            continue;
        }
        let shown = written.map_or_else(|| item.to_string().trim().to_string(), |v| format!("\"{v}\""));
        let help = match written.and_then(|v| did_you_mean(v, allowed.iter().copied())) {
            Some(s) => format!("did you mean `\"{s}\"`?"),
            None => format!("use one of: {}", allowed.iter().map(|v| format!("\"{v}\"")).collect::<Vec<_>>().join(", ")),
        };
        findings.push(
            Diagnostic::finding(format!("`{key}` {place} is {shown}, which Codex does not accept"))
                .in_file(file)
                .at(value_span(item).or_else(|| key_span(table, key)))
                .label("not an accepted value")
                .help(help),
        );
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let (enums, mut findings) = (config_enums(), Vec::new());
    for (doc, toml) in codex_configs(cx) {
        let root = toml.as_table();
        values(&doc.file, root, &enums, "in config.toml", &mut findings);
        for (name, _, profile) in named_tables(root, "profiles") {
            values(&doc.file, profile, &enums, &format!("in profile `{name}`"), &mut findings);
        }
    }
    findings
}
