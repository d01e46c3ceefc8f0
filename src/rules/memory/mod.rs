//! The memory family: static memory files (AGENTS.md, CLAUDE.md and the files the manifest lists).

// The rule files of this folder, one per code of the family in the table (src/codes.rs).
rule_modules!();

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Static memory files (AGENTS.md, CLAUDE.md and the files the manifest lists).";
