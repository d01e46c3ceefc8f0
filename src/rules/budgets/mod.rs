//! The budgets family: token budgets and the context window (the findings of the budget stage).

// The rule files of this folder, one per code of the family in the table (src/codes.rs).
rule_modules!();

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Token budgets and the context window (the findings of the budget stage).";
