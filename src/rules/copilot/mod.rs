//! The Copilot family: GitHub Copilot instructions, prompt files and custom agents.

use crate::agent_files::{Doc, FileKind};
use crate::rules::context::Context;

// The rule files of this folder, one per code of the family in the table (src/codes.rs).
rule_modules!();

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "GitHub Copilot instructions, path-specific instructions, prompt files and custom agents.";

/// The files of a kind whose YAML frontmatter parsed (the kind's parse rule reports the others).
pub fn parsed<'a>(cx: &Context<'a>, kind: FileKind) -> impl Iterator<Item = &'a Doc> {
    cx.files_of(kind).filter(|d| d.front.is_ok())
}

/// The display names of Copilot custom agents (`name`, else the file name without its suffix).
pub fn copilot_agent_names<'a>(cx: &Context<'a>) -> Vec<&'a str> {
    let stem = |d: &'a Doc| d.name().trim_end_matches(".agent.md").trim_end_matches(".chatmode.md");
    cx.files_of(FileKind::CopilotAgent).flat_map(|d| [d.string("name"), Some(stem(d))]).flatten().collect()
}
