//! The Codex family: the AGENTS.md chain Codex reads, its cap and AGENTS.override.md, and the
//! project's `.codex/config.toml` (read with toml_edit, which keeps the place of every key).

use std::ops::Range;
use std::sync::Arc;

use toml_edit::{ImDocument, Item, TableLike};

use crate::agent_files::{Doc, FileKind};
use crate::hosts::{self, FileSpec};
use crate::memo::Kind;
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
pub mod codex009_agent_role_description_missing;
pub mod codex010_agent_role_file_missing;
pub mod codex011_agent_file_invalid;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str =
    "Codex: the AGENTS.md chain, its 32 KiB cap and AGENTS.override.md, `.codex/config.toml` and the custom agents of `.codex/agents/`.";

/// Codex's default `project_doc_max_bytes`, the budget of the whole AGENTS.md chain, from its host
/// model (`[startup.memory] max_bytes` in data/hosts/codex.toml, which the host view reads too).
pub fn codex_budget() -> usize {
    let memory = hosts::embedded("codex").startup.as_ref().and_then(|s| s.memory.as_ref());
    // ok: embedded data, not input: every CODEX001 fixture and the host view's tests read it.
    memory.and_then(|m| m.max_bytes).expect("data/hosts/codex.toml gives the chain's max_bytes") as usize
    // ok: embedded data, every CODEX001 fixture reads it
}

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

/// What Codex reads in `.codex/config.toml` (data/hosts/codex.toml: the keys at the top, of
/// `[profiles.NAME]` and of `[mcp_servers.NAME]`, from the schema's `ConfigToml`, `ConfigProfile`
/// and `RawMcpServerConfig`).
pub fn config_spec() -> &'static FileSpec {
    FileKind::CodexConfig.spec_of("codex")
}

/// The settings whose value is one of a fixed set of strings, and the set: the value sets of
/// data/hosts/codex.toml named after a key config.toml holds (the schema's enums).
pub fn config_enums() -> Vec<(&'static str, Vec<&'static str>)> {
    let codex = hosts::embedded("codex");
    let mut names: Vec<&str> = Vec::new();
    for name in codex.values.iter().map(|v| v.name.as_str()).filter(|name| config_spec().reads(name)) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.into_iter().map(|name| (name, codex.values(name))).collect()
}

/// A `config.toml` parsed (the places of its keys and values kept).
pub type CodexToml = ImDocument<String>;

/// A `config.toml` parsed, or where and why it does not parse.
pub type ParsedToml = Result<Arc<CodexToml>, (Range<usize>, String)>;

/// The file parsed as TOML, memoized by content in its run (every CODEX rule on it asks).
pub fn parse_config(doc: &Doc) -> ParsedToml {
    doc.cache.get_or_insert(Kind::Toml, doc.text.hash(), || {
        ImDocument::parse(doc.text.to_string()).map(Arc::new).map_err(|e| (e.span().unwrap_or(0..0), e.message().trim().to_string()))
    })
}

/// Every `.codex/config.toml` that parses, with its document (CODEX004 reports the others).
pub fn codex_configs<'a>(cx: &Context<'a>) -> Vec<(&'a Doc, Arc<CodexToml>)> {
    cx.files_of(FileKind::CodexConfig).filter_map(|d| parse_config(d).ok().map(|t| (d, t))).collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memo::{Cache, SharedText};

    #[test]
    fn every_value_set_of_codex_names_a_setting_of_config_toml() {
        let named: Vec<&str> = config_enums().iter().map(|(name, _)| *name).collect();
        assert_eq!(
            named,
            [
                "approval_policy",
                "sandbox_mode",
                "model_reasoning_effort",
                "plan_mode_reasoning_effort",
                "model_reasoning_summary",
                "model_verbosity",
                "web_search"
            ]
        );
        assert!(config_enums().iter().all(|(_, values)| !values.is_empty()));
        assert_eq!(hosts::embedded("codex").values.len(), named.len(), "a value set named after no setting");
    }

    #[test]
    fn a_config_is_parsed_once_per_run() {
        let text = SharedText::new("model = \"gpt-5\"\n[profiles.fast]\nmodel_verbosity = \"low\"\n");
        let cache = Arc::new(Cache::default());
        let doc = Doc::new(FileKind::CodexConfig, ".codex/config.toml".into(), ".codex/config.toml".into(), text.clone(), &cache);
        let twin = Doc::new(FileKind::CodexConfig, "b/.codex/config.toml".into(), "b/.codex/config.toml".into(), text, &cache);
        let (first, again) = (parse_config(&doc).expect("parses"), parse_config(&twin).expect("parses"));
        assert!(Arc::ptr_eq(&first, &again), "the second rule reuses the first one's parse");
        let broken = Doc::new(FileKind::CodexConfig, "c".into(), "c".into(), SharedText::new("model = \n"), &cache);
        assert!(parse_config(&broken).is_err());
    }
}
