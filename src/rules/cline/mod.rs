//! The Cline family: rules in a `.clinerules` file or the Markdown files of `.clinerules/`
//! (`.cline/rules/`), whose YAML frontmatter may scope a rule to `paths`.

use crate::agent_files::{Doc, FileKind};
use crate::rules::context::Context;
use crate::rules::frontmatter::has_yaml_error;

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod cline001_rule_empty;
pub mod cline002_paths_invalid;
pub mod cline003_unknown_field;
pub mod cline004_frontmatter_invalid;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Cline: rules in `.clinerules` (a file or a folder) and their `paths` conditions.";

/// The Cline rules whose frontmatter parsed or is absent (CLINE004 reports the others).
pub fn cline_rules<'a>(cx: &Context<'a>) -> impl Iterator<Item = &'a Doc> {
    cx.files_of(FileKind::ClineRule).filter(|d| !has_yaml_error(d))
}

/// The frontmatter fields Cline reads in a rule (data/hosts/cline.toml).
pub fn fields() -> Vec<&'static str> {
    FileKind::ClineRule.spec_of("cline").read_fields().collect()
}
