//! The templates family: minijinja templates and placeholders left in the rendered prompt.

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod tpl001_template_error;
pub mod tpl002_undeclared_variable;
pub mod tpl003_leftover_placeholder;
pub mod tpl004_template_limits;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "minijinja templates and placeholders left in the rendered prompt.";
