//! CODEX009: an agent role of `.codex/config.toml` with neither `description` nor `config_file`.

use crate::rules::codex::{codex_configs, named_tables};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An `[agents.NAME]` role of `.codex/config.toml` has no `description`, and no `config_file` that could give one.",
    why: "Codex tells the model which roles it can spawn, and what each is for, from the role's `description`; the \
          description is required unless the role file named by `config_file` supplies it. A role with neither gives \
          the model nothing to choose it by (openai/codex:codex-rs/core/config.schema.json@000c857e, `AgentRoleToml`).",
    fails: Example { file: ".codex/config.toml", text: "[agents.reviewer]\nnickname_candidates = [\"Rev\"]\n" },
    passes: Example {
        file: ".codex/config.toml",
        text: "[agents.reviewer]\ndescription = \"Reviews a diff for bugs and missing tests; spawn after each change.\"\n",
    },
    notes: "`[agents]`'s own settings (`max_threads`, `max_depth`, …) are not roles and are not checked here.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, toml) in codex_configs(cx) {
        for (name, at, role) in named_tables(toml.as_table(), "agents") {
            if role.contains_key("description") || role.contains_key("config_file") {
                continue;
            }
            findings.push(
                Diagnostic::finding(format!("agent role `{name}` has no `description`"))
                    .in_file(&doc.file)
                    .at(at)
                    .label("no description")
                    .help("add `description = \"…\"`: what the role does and when to spawn it"),
            );
        }
    }
    findings
}
