//! The templates family: minijinja templates and placeholders left in the rendered prompt.

// The rule files of this folder, one per code of the family in the table (src/codes.rs).
rule_modules!();

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "minijinja templates and placeholders left in the rendered prompt.";
