//! The Codex family: the AGENTS.md chain Codex reads, its cap and AGENTS.override.md.

use crate::rules::context::Context;

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod codex001_chain_over_budget;
pub mod codex002_override_shadows;
pub mod codex003_empty_agents_md;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Codex: the AGENTS.md chain, its 32 KiB cap and AGENTS.override.md.";

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
