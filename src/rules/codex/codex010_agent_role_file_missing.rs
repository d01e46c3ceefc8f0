//! CODEX010: an agent role's `config_file` that does not exist.

use crate::rules::codex::{codex_configs, named_tables, value_span};
use crate::rules::prelude::*;
use crate::rules::refs::{resolve, Resolved};

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "The `config_file` of an `[agents.NAME]` role of `.codex/config.toml` names a file that does not exist.",
    why: "A role's `config_file` is the configuration layer Codex applies when it spawns the role (its model, \
          instructions, sandbox); a relative path is read from the folder of the `config.toml` that names it. A file \
          that is not there cannot be applied (openai/codex:codex-rs/core/config.schema.json@000c857e, `AgentRoleToml`).",
    fails: Example {
        file: ".codex/config.toml",
        text: "[agents.reviewer]\ndescription = \"Reviews diffs.\"\nconfig_file = \"agents/reviewer.toml\"\n",
    },
    passes: Example { file: ".codex/config.toml", text: "[agents.reviewer]\ndescription = \"Reviews diffs.\"\n" },
    notes: "An absolute path is not checked: it names a file of the machine Codex runs on, not of the project.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, toml) in codex_configs(cx) {
        let dir = doc.rel.rsplit_once('/').map_or("", |(d, _)| d);
        for (name, _, role) in named_tables(toml.as_table(), "agents") {
            let Some(item) = role.get("config_file") else { continue };
            let Some(path) = item.as_str() else { continue };
            if path.starts_with('/') || path.starts_with('~') || path.contains(':') {
                continue;
            }
            let Resolved::Missing(rel) = resolve(cx, dir, path) else { continue };
            findings.push(
                Diagnostic::finding(format!("`config_file` of agent role `{name}`: `{rel}` does not exist"))
                    .in_file(&doc.file)
                    .at(value_span(item))
                    .label("no such file")
                    .help(format!("create `{rel}` (a path is read from the folder of {}), or fix the path", doc.rel)),
            );
        }
    }
    findings
}
