//! The memory family: static memory files (AGENTS.md, CLAUDE.md and the files the manifest lists).

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod mem001_missing_memory_file;
pub mod mem002_memory_too_large;
pub mod mem003_unresolved_import;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Static memory files (AGENTS.md, CLAUDE.md and the files the manifest lists).";
