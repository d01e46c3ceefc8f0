//! The Kiro family: steering files (`.kiro/steering/*.md`), Markdown whose YAML frontmatter says
//! when Kiro includes them in the context.

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

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Kiro: steering files in `.kiro/steering/` and their inclusion modes.";

/// The inclusion modes of a steering file (data/hosts/kiro.toml's `inclusion-modes`).
pub fn inclusion_modes() -> Vec<&'static str> {
    hosts::embedded("kiro").values("inclusion-modes")
}

/// The frontmatter fields Kiro reads in a steering file (data/hosts/kiro.toml).
pub fn fields() -> Vec<&'static str> {
    FileKind::KiroSteering.spec_of("kiro").read_fields().collect()
}

/// The steering files whose frontmatter parsed or is absent (KIRO007 reports the others).
pub fn steering<'a>(cx: &Context<'a>) -> impl Iterator<Item = &'a Doc> {
    cx.files_of(FileKind::KiroSteering).filter(|d| !has_yaml_error(d))
}
