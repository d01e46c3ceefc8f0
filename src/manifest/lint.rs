//! `[lint]`: which rules run and at what severity, as the manifest writes it. The lint stage
//! ([`crate::lint`]) validates the codes and merges it with the command-line options.

use indexmap::IndexMap;
#[cfg(test)]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::span::Spanned;

/// `[lint]`: which rules run and at what severity.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawLint {
    /// Rule codes or code prefixes to run, e.g. `["SKILL", "TOOL002"]` (default: every rule; `ALL` names every rule).
    #[serde(default)]
    pub select: Option<Vec<Spanned<String>>>,
    /// Rule codes or code prefixes not to report (wins over `select`).
    #[serde(default)]
    pub ignore: Vec<Spanned<String>>,
    /// Severity per rule code or code prefix, e.g. `{ SKILL013 = "error", CACHE = "warning" }`; the longest match wins.
    #[serde(default)]
    pub severity: IndexMap<String, LintLevel>,
    /// Agent Skills validation level: `lenient` (default: fields frameworks add are allowed) or `strict`.
    #[serde(default)]
    pub skills: Option<SkillLevel>,
    /// Token limit of one memory file such as AGENTS.md (MEM002; default 8000).
    #[serde(default)]
    pub memory_max_tokens: Option<u64>,
    /// Run the rules in preview too (default false; `ctxc rules` marks them).
    #[serde(default)]
    pub preview: Option<bool>,
}

/// A severity set in `[lint] severity`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum LintLevel {
    Error,
    Warning,
}

/// How strictly SKILL.md frontmatter is checked against the Agent Skills specification.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum SkillLevel {
    /// Fields that frameworks add (version, author, tags, …) are warnings (SKILL011); those Claude Code reads, and
    /// Zeus's in an agent on the zeus preset, are allowed.
    #[default]
    Lenient,
    /// Only the fields of the specification are allowed: any other is an error (SKILL011).
    Strict,
}
