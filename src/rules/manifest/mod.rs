//! The manifest family: the manifest and the files it references: syntax, references, names, reachability.

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod man001_manifest_syntax;
pub mod man002_missing_file;
pub mod man003_path_outside_root;
pub mod man004_unreachable_step;
pub mod man005_unknown_flag;
pub mod man006_invalid_condition;
pub mod man007_unknown_variant;
pub mod man008_duplicate_id;
pub mod man009_unknown_name;
pub mod man010_invalid_value;
pub mod man011_unknown_model;
pub mod man012_unknown_rule_code;
pub mod man013_invalid_suppression;
pub mod man014_requires_newer_ctxc;
pub mod man015_internal_error;
pub mod man016_setting_without_chat_template;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "The manifest and the files it references: syntax, references, names, reachability.";
