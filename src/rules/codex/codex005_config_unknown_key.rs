//! CODEX005: a key of `.codex/config.toml`, of a profile or of an MCP server that Codex does not read.

use toml_edit::TableLike;

use crate::diagnostic::did_you_mean;
use crate::rules::codex::{codex_configs, config_spec, key_span, named_tables};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A key of `.codex/config.toml` (at the top, in a `[profiles.NAME]`, `[mcp_servers.NAME]` or `[agents.NAME]` table) is not one Codex reads.",
    why: "Codex reads the keys of its configuration types and ignores the others, so a misspelt or invented key \
          (`approval-policy`, `sandbox`, an MCP server's `type`) changes nothing while looking like a setting. The \
          known keys come from the JSON Schema Codex generates from those types \
          (openai/codex:codex-rs/core/config.schema.json@000c857e: `ConfigToml`, `ConfigProfile`, `RawMcpServerConfig`, `AgentRoleToml`); \
          the lists are Codex's host model, `data/hosts/codex.toml`.",
    fails: Example { file: ".codex/config.toml", text: "approval-policy = \"on-request\"\n\n[mcp_servers.docs]\ntype = \"stdio\"\ncommand = \"docs-mcp\"\n" },
    passes: Example { file: ".codex/config.toml", text: "approval_policy = \"on-request\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n" },
    notes: "The keys inside other tables (`[features]`, `[tui]`, `[model_providers.NAME]`…) are not checked.",
    stage: Stage::Lint(check),
};

/// The findings for the keys of `table` that are not in `known`.
fn unknown(file: &str, table: &dyn TableLike, known: &[&str], place: &str, findings: &mut Vec<Diagnostic>) {
    for (key, _) in table.iter().filter(|(k, _)| !known.contains(k)) {
        let help = match did_you_mean(key, known.iter().copied()) {
            Some(s) => format!("did you mean `{s}`?"),
            None => "delete it, or check its name and table in Codex's configuration reference".to_string(),
        };
        findings.push(
            Diagnostic::finding(format!("`{key}` is not a key Codex reads {place}"))
                .in_file(file)
                .at(key_span(table, key))
                .label("unknown key")
                .help(help),
        );
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let spec = config_spec();
    let top: Vec<&str> = spec.read_fields().collect();
    let profile_keys: Vec<&str> = spec.read_fields_under("profiles.*").collect();
    let server_keys: Vec<&str> = spec.read_fields_under("mcp_servers.*").collect();
    let role_keys: Vec<&str> = spec.read_fields_under("agents.*").collect();
    let mut findings = Vec::new();
    for (doc, toml) in codex_configs(cx) {
        let root = toml.as_table();
        unknown(&doc.file, root, &top, "in config.toml", &mut findings);
        for (name, _, profile) in named_tables(root, "profiles") {
            unknown(&doc.file, profile, &profile_keys, &format!("in profile `{name}`"), &mut findings);
        }
        for (name, _, server) in named_tables(root, "mcp_servers") {
            unknown(&doc.file, server, &server_keys, &format!("in MCP server `{name}`"), &mut findings);
        }
        for (name, _, role) in named_tables(root, "agents") {
            unknown(&doc.file, role, &role_keys, &format!("in agent role `{name}`"), &mut findings);
        }
    }
    findings
}
