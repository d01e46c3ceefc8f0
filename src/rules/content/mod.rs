//! The content family: what the rendered prompt contains: secrets, repeated text.

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod sec001_openai_key;
pub mod sec002_anthropic_key;
pub mod sec003_github_token;
pub mod sec004_aws_key;
pub mod sec005_private_key;
pub mod sec006_generic_secret;
pub mod sec007_repeated_paragraph;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "What the rendered prompt contains: secrets, repeated text.";
