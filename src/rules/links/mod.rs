//! The links family: references between agent files: relative links, `@imports` and the files bundled with a skill.

// The rule files of this folder, one per code of the family in the table (src/codes.rs).
rule_modules!();

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "References between agent files: relative links, `@imports` and the files bundled with a skill.";
