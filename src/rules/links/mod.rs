//! The links family: references between agent files: relative links, `@imports` and the files bundled with a skill.

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod link001_broken_link;
pub mod link002_link_outside_project;
pub mod link003_machine_specific_path;
pub mod link004_broken_anchor;
pub mod link005_import_cycle;
pub mod link006_link_case_mismatch;
pub mod link007_backslash_path;
pub mod link008_empty_link;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "References between agent files: relative links, `@imports` and the files bundled with a skill.";
