//! The cache family: prompt caching: what keeps the start of the prompt byte-stable between requests.

// The rule files of this folder, one per code of the family in the table (src/codes.rs).
rule_modules!();

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Prompt caching: what keeps the start of the prompt byte-stable between requests.";
