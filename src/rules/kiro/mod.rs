//! The Kiro family: steering files (`.kiro/steering/*.md`), Markdown whose YAML frontmatter says
//! when Kiro includes them in the context, and hooks files (`.kiro/hooks/*.json`).

use serde_json::Value;

use crate::agent_files::{Doc, FileKind};
use crate::hosts;
use crate::rules::context::Context;
use crate::rules::frontmatter::has_yaml_error;

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod kiro001_inclusion_invalid;
pub mod kiro002_inclusion_field_missing;
pub mod kiro003_unknown_field;
pub mod kiro004_pattern_ignored;
pub mod kiro005_file_match_pattern_invalid;
pub mod kiro006_empty_body;
pub mod kiro007_frontmatter_invalid;
pub mod kiro008_hooks_invalid;
pub mod kiro009_hook_trigger_unknown;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Kiro: steering files in `.kiro/steering/` and their inclusion modes, and hooks files in `.kiro/hooks/`.";

/// The values of the set `name` in Kiro's host model (data/hosts/kiro.toml): `hook-triggers`,
/// `hook-action-types`.
pub fn kiro_values(name: &str) -> Vec<&'static str> {
    hosts::embedded("kiro").values(name)
}

/// Each entry of the `hooks` list of every `.kiro/hooks/*.json` of version `"v1"` that parsed,
/// with its file and index (KIRO008 reports the other files, once each).
pub fn hook_entries<'a>(cx: &Context<'a>, mut each: impl FnMut(&'a Doc, usize, &Value)) {
    for doc in cx.files_of(FileKind::KiroHooks) {
        let json = doc.json();
        if let Ok(Value::Object(root)) = &*json {
            if root.get("version").and_then(Value::as_str) != Some("v1") {
                continue;
            }
            if let Some(Value::Array(hooks)) = root.get("hooks") {
                for (i, entry) in hooks.iter().enumerate() {
                    each(doc, i, entry);
                }
            }
        }
    }
}

/// The inclusion modes of a steering file (data/hosts/kiro.toml's `inclusion-modes`).
pub fn inclusion_modes() -> Vec<&'static str> {
    kiro_values("inclusion-modes")
}

/// The frontmatter fields Kiro reads in a steering file (data/hosts/kiro.toml).
pub fn fields() -> Vec<&'static str> {
    FileKind::KiroSteering.spec_of("kiro").read_fields().collect()
}

/// The steering files whose frontmatter parsed or is absent (KIRO007 reports the others).
pub fn steering<'a>(cx: &Context<'a>) -> impl Iterator<Item = &'a Doc> {
    cx.files_of(FileKind::KiroSteering).filter(|d| !has_yaml_error(d))
}
