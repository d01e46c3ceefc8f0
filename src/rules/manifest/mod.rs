//! The manifest family: the manifest and the files it references: syntax, references, names, reachability.

// The rule files of this folder, one per code of the family in the table (src/codes.rs).
rule_modules!();

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "The manifest and the files it references: syntax, references, names, reachability.";
