//! The cache family: prompt caching: what keeps the start of the prompt byte-stable between requests.

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod cache001_dynamic_before_static;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Prompt caching: what keeps the start of the prompt byte-stable between requests.";
