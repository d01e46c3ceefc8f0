//! The Codex family: the AGENTS.md chain Codex reads, its cap and AGENTS.override.md, and the
//! project's `.codex/config.toml` (read with toml_edit, which keeps the place of every key).

use std::ops::Range;

use toml_edit::{ImDocument, Item, TableLike};

use crate::agent_files::{Doc, FileKind};
use crate::rules::context::Context;

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod codex001_chain_over_budget;
pub mod codex002_override_shadows;
pub mod codex003_empty_agents_md;
pub mod codex004_config_invalid_toml;
pub mod codex005_config_unknown_key;
pub mod codex006_config_value_invalid;
pub mod codex007_mcp_server_transport;
pub mod codex008_profile_undefined;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Codex: the AGENTS.md chain, its 32 KiB cap and AGENTS.override.md, and `.codex/config.toml`.";

/// Codex's default `project_doc_max_bytes`: the budget of the whole AGENTS.md chain.
pub const CODEX_BUDGET: usize = 32 * 1024;

/// The file Codex reads in each folder of the project, by folder (`""` for the root): the
/// first that exists of `AGENTS.override.md` and `AGENTS.md`
/// (openai/codex:codex-rs/core/src/project_doc.rs@0bd53e45). A whitespace-only one is chosen
/// too, and then contributes nothing.
pub fn codex_docs<'a>(cx: &Context<'a>) -> std::collections::BTreeMap<&'a str, &'a crate::agent_files::MemoryDoc> {
    let mut docs = std::collections::BTreeMap::new();
    // An agent's manifest loads its memory files itself: Codex's chain does not apply.
    if cx.agent.is_some() {
        return docs;
    }
    for name in ["AGENTS.md", "AGENTS.override.md"] {
        for doc in cx.memory.iter().filter(|m| m.name() == name) {
            docs.insert(doc.rel.rsplit_once('/').map_or("", |(d, _)| d), doc);
        }
    }
    docs
}

/// The folders from the root down to `dir`, root first (`""` is the root).
pub fn folders_down_to(dir: &str) -> Vec<&str> {
    let mut folders = vec![""];
    folders.extend(dir.match_indices('/').map(|(i, _)| &dir[..i]).chain((!dir.is_empty()).then_some(dir)));
    folders
}

/// Where the facts about `config.toml` below come from: the JSON Schema Codex generates from its
/// config types (`ConfigToml`, `ConfigProfile`, `RawMcpServerConfig`), read 2026-11-29.
pub const CONFIG_SOURCE: &str = "openai/codex:codex-rs/core/config.schema.json@000c857e";

/// The top-level keys of `config.toml` (the schema's `ConfigToml` properties).
pub const CONFIG_KEYS: &[&str] = &[
    "agents", "allow_login_shell", "analytics", "approval_policy", "approvals_reviewer", "apps", "apps_mcp_product_sku",
    "audio", "auto_review", "background_terminal_max_timeout", "chatgpt_base_url", "check_for_update_on_startup",
    "cli_auth_credentials_store", "compact_prompt", "debug", "default_permissions", "desktop", "developer_instructions",
    "disable_paste_burst", "experimental_compact_prompt_file", "experimental_realtime_start_instructions",
    "experimental_realtime_ws_backend_prompt", "experimental_realtime_ws_base_url", "experimental_realtime_ws_model",
    "experimental_realtime_ws_startup_context", "experimental_thread_config_endpoint", "experimental_thread_store",
    "experimental_use_unified_exec_tool", "features", "feedback", "file_opener", "forced_chatgpt_workspace_id",
    "forced_login_method", "ghost_snapshot", "hide_agent_reasoning", "history", "hooks", "include_apps_instructions",
    "include_collaboration_mode_instructions", "include_environment_context", "include_permissions_instructions",
    "instructions", "log_dir", "marketplaces", "mcp_oauth_callback_port", "mcp_oauth_callback_url",
    "mcp_oauth_credentials_store", "mcp_servers", "memories", "model", "model_auto_compact_token_limit",
    "model_auto_compact_token_limit_scope", "model_catalog_json", "model_context_window", "model_instructions_file",
    "model_provider", "model_providers", "model_reasoning_effort", "model_reasoning_summary",
    "model_supports_reasoning_summaries", "model_verbosity", "notice", "notify", "openai_base_url", "oss_provider", "otel",
    "permissions", "personality", "plan_mode_reasoning_effort", "plugins", "profile", "profiles",
    "project_doc_fallback_filenames", "project_doc_max_bytes", "project_root_markers", "projects", "realtime",
    "review_model", "sandbox_mode", "sandbox_workspace_write", "service_tier", "shell_environment_policy",
    "show_raw_agent_reasoning", "skills", "sqlite_home", "suppress_unstable_features_warning", "tool_output_token_limit",
    "tool_suggest", "tools", "tui", "web_search", "windows",
];

/// The keys of one `[profiles.NAME]` table (the schema's `ConfigProfile` properties).
pub const PROFILE_KEYS: &[&str] = &[
    "analytics", "approval_policy", "approvals_reviewer", "chatgpt_base_url", "experimental_compact_prompt_file",
    "experimental_use_unified_exec_tool", "features", "include_apps_instructions", "include_collaboration_mode_instructions",
    "include_environment_context", "include_permissions_instructions", "model", "model_catalog_json",
    "model_instructions_file", "model_provider", "model_reasoning_effort", "model_reasoning_summary", "model_verbosity",
    "oss_provider", "personality", "plan_mode_reasoning_effort", "sandbox_mode", "service_tier", "tools", "tui",
    "web_search", "windows",
];

/// The keys of one `[mcp_servers.NAME]` table (the schema's `RawMcpServerConfig` properties).
pub const MCP_SERVER_KEYS: &[&str] = &[
    "args", "bearer_token_env_var", "command", "cwd", "default_tools_approval_mode", "disabled_tools", "enabled",
    "enabled_tools", "env", "env_http_headers", "env_vars", "environment_id", "http_headers", "name", "oauth",
    "oauth_resource", "required", "scopes", "startup_timeout_ms", "startup_timeout_sec", "supports_parallel_tool_calls",
    "tool_timeout_sec", "tools", "url",
];

/// The settings whose value is one of a fixed set of strings, and the set (the schema's enums:
/// `AskForApproval`, `SandboxMode`, `ReasoningEffort`, `ReasoningSummary`, `Verbosity`,
/// `WebSearchMode`). `approval_policy` may also be a `{ granular = … }` table, which is not a string.
pub const CONFIG_ENUMS: &[(&str, &[&str])] = &[
    ("approval_policy", &["untrusted", "on-failure", "on-request", "never"]),
    ("sandbox_mode", &["read-only", "workspace-write", "danger-full-access"]),
    ("model_reasoning_effort", &["none", "minimal", "low", "medium", "high", "xhigh"]),
    ("plan_mode_reasoning_effort", &["none", "minimal", "low", "medium", "high", "xhigh"]),
    ("model_reasoning_summary", &["auto", "concise", "detailed", "none"]),
    ("model_verbosity", &["low", "medium", "high"]),
    ("web_search", &["disabled", "cached", "live"]),
];

/// A `config.toml` parsed (the places of its keys and values kept).
pub type CodexToml<'t> = ImDocument<&'t str>;

/// The file parsed as TOML, or where and why it does not parse.
pub fn parse_config(text: &str) -> Result<CodexToml<'_>, (Range<usize>, String)> {
    ImDocument::parse(text).map_err(|e| (e.span().unwrap_or(0..0), e.message().trim().to_string()))
}

/// Every `.codex/config.toml` that parses, with its document (CODEX004 reports the others).
pub fn codex_configs<'a>(cx: &Context<'a>) -> Vec<(&'a Doc, CodexToml<'a>)> {
    cx.files_of(FileKind::CodexConfig).filter_map(|d| parse_config(&d.text).ok().map(|t| (d, t))).collect()
}

/// Where `key` of `table` is written.
pub fn key_span(table: &dyn TableLike, key: &str) -> Option<Range<usize>> {
    table.key(key).and_then(toml_edit::Key::span)
}

/// Where an item's value is written (`None` for a table written as a header).
pub fn value_span(item: &Item) -> Option<Range<usize>> {
    item.as_value().and_then(toml_edit::Value::span)
}

/// The named tables under `key` (`[profiles.NAME]`, `[mcp_servers.NAME]`, or the inline forms),
/// with where each name is written.
pub fn named_tables<'d>(root: &'d dyn TableLike, key: &str) -> Vec<(&'d str, Option<Range<usize>>, &'d dyn TableLike)> {
    let Some(map) = root.get(key).and_then(Item::as_table_like) else { return Vec::new() };
    map.iter().filter_map(|(name, item)| Some((name, key_span(map, name), item.as_table_like()?))).collect()
}
