//! The Copilot family: GitHub Copilot instructions, prompt files and custom agents.

use crate::agent_files::{Doc, FileKind};
use crate::rules::context::Context;

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod copilot001_instructions_empty;
pub mod copilot002_instructions_frontmatter;
pub mod copilot003_invalid_frontmatter;
pub mod copilot004_apply_to_missing;
pub mod copilot005_apply_to_not_string;
pub mod copilot006_apply_to_invalid_glob;
pub mod copilot007_exclude_agent_invalid;
pub mod copilot008_instructions_unknown_field;
pub mod copilot009_empty_body;
pub mod copilot010_prompt_mode_deprecated;
pub mod copilot011_prompt_agent_unknown;
pub mod copilot012_prompt_unknown_field;
pub mod copilot013_input_variable_malformed;
pub mod copilot014_tools_not_list;
pub mod copilot015_tools_duplicate;
pub mod copilot016_agent_description_missing;
pub mod copilot017_agent_unknown_field;
pub mod copilot018_agent_target_invalid;
pub mod copilot019_agent_body_too_long;
pub mod copilot020_chatmode_legacy;
pub mod copilot021_agent_infer_deprecated;
pub mod copilot022_agent_flag_not_boolean;
pub mod copilot023_handoff_invalid;
pub mod copilot024_github_target_unsupported;
pub mod copilot025_model_list_in_string;

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
