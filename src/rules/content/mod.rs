//! The content family: what the rendered prompt contains: secrets, repeated text.

// The rule files of this folder, one per code of the family in the table (src/codes.rs).
rule_modules!();

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "What the rendered prompt contains: secrets, repeated text.";
