//! The Windsurf family: workspace rules (`.windsurf/rules/*.md`), Markdown whose YAML frontmatter
//! says when Cascade applies them (`trigger`), checked against `data/hosts/windsurf.toml`.

use crate::agent_files::{Doc, FileKind};
use crate::hosts::{self, Host};
use crate::rules::context::Context;
use crate::rules::frontmatter::has_yaml_error;

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod windsurf001_trigger_invalid;
pub mod windsurf002_trigger_field_missing;
pub mod windsurf003_unknown_field;
pub mod windsurf004_frontmatter_invalid;
pub mod windsurf005_workflow_too_long;
pub mod windsurf006_hook_event_unknown;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str =
    "Windsurf: workspace rules in `.windsurf/rules/` and their activation modes, workflows in `.windsurf/workflows/` and hooks in `.windsurf/hooks.json`.";

/// Windsurf's host model.
pub fn host() -> &'static Host {
    hosts::embedded("windsurf")
}

/// The rules' activation modes (`trigger` values).
pub fn triggers() -> Vec<&'static str> {
    host().values("rule-triggers")
}

/// The frontmatter fields Windsurf reads in a rule.
pub fn fields() -> Vec<&'static str> {
    FileKind::WindsurfRule.spec_of("windsurf").read_fields().collect()
}

/// The Windsurf rules whose frontmatter parsed or is absent (WINDSURF004 reports the others).
pub fn windsurf_rules<'a>(cx: &Context<'a>) -> impl Iterator<Item = &'a Doc> {
    cx.files_of(FileKind::WindsurfRule).filter(|d| !has_yaml_error(d))
}
