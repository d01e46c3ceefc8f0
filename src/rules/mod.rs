//! The rule catalogue: every check ctxc can report, with a stable code, a default severity and
//! its documentation. One file per rule (`src/rules/<family>/<code>_<name>.rs`) holds the rule's
//! documentation and, for lint rules, its check. [`ALL`] is the one list of rules; `ctxc rules`,
//! `ctxc explain`, SARIF's `tool.driver.rules` and `docs/rules.md` are all generated from it.
//!
//! Registering a rule is a one-file change here: add its module name to the family's list in
//! the `registry!` invocation below (and write the rule file).

pub mod chains;
pub mod claude_files;
pub mod context;
pub mod descriptions;
pub mod docs;
pub mod gemini_settings;
pub mod json_schema;
pub mod json_span;
pub mod kinds;
pub mod locate;
pub mod markdown;
pub mod refs;
pub mod secrets;
pub mod skill_fields;
pub mod suppress;

/// What rule files import.
pub mod prelude {
    pub use super::context::Context;
    pub use super::{locate, Example, Family, Rule, Stage};
    pub use crate::codes::Code;
    pub use crate::diagnostic::{grouped, Diagnostic, Edit, Fix, Severity};
}

use serde::Serialize;

pub use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Severity};
use context::Context;

/// A group of rules; the family decides the code prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    Manifest,
    Tools,
    Skills,
    Memory,
    Templates,
    Cache,
    Content,
    Budgets,
    Settings,
    Claude,
    Mcp,
    Cursor,
    Copilot,
    Gemini,
    OpenHands,
    Codex,
    Links,
    Instructions,
}

impl Family {
    pub const ALL: [Family; 18] = [
        Family::Manifest,
        Family::Tools,
        Family::Skills,
        Family::Memory,
        Family::Templates,
        Family::Cache,
        Family::Content,
        Family::Budgets,
        Family::Settings,
        Family::Claude,
        Family::Mcp,
        Family::Cursor,
        Family::Copilot,
        Family::Gemini,
        Family::OpenHands,
        Family::Codex,
        Family::Links,
        Family::Instructions,
    ];

    /// The code prefix of the family's rules.
    pub fn prefix(self) -> &'static str {
        match self {
            Family::Manifest => "MAN",
            Family::Tools => "TOOL",
            Family::Skills => "SKILL",
            Family::Memory => "MEM",
            Family::Templates => "TPL",
            Family::Cache => "CACHE",
            Family::Content => "SEC",
            Family::Budgets => "BUDGET",
            Family::Settings => "SET",
            Family::Claude => "CLAUDE",
            Family::Mcp => "MCP",
            Family::Cursor => "CURSOR",
            Family::Copilot => "COPILOT",
            Family::Gemini => "GEMINI",
            Family::OpenHands => "OPENHANDS",
            Family::Codex => "CODEX",
            Family::Links => "LINK",
            Family::Instructions => "INSTR",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Family::Manifest => "manifest",
            Family::Tools => "tools",
            Family::Skills => "skills",
            Family::Memory => "memory",
            Family::Templates => "templates",
            Family::Cache => "cache",
            Family::Content => "content",
            Family::Budgets => "budgets",
            Family::Settings => "settings",
            Family::Claude => "claude",
            Family::Mcp => "mcp",
            Family::Cursor => "cursor",
            Family::Copilot => "copilot",
            Family::Gemini => "gemini",
            Family::OpenHands => "openhands",
            Family::Codex => "codex",
            Family::Links => "links",
            Family::Instructions => "instructions",
        }
    }

    /// One line on what the family covers, for the docs page.
    pub fn about(self) -> &'static str {
        match self {
            Family::Manifest => "The manifest and the files it references: syntax, references, names, reachability.",
            Family::Tools => "Tool definitions as the provider receives them: names, descriptions, parameter schemas, access per mode.",
            Family::Skills => "SKILL.md files against the Agent Skills specification (lenient by default, strict on request).",
            Family::Memory => "Static memory files (AGENTS.md, CLAUDE.md and the files the manifest lists).",
            Family::Templates => "minijinja templates and placeholders left in the rendered prompt.",
            Family::Cache => "Prompt caching: what keeps the start of the prompt byte-stable between requests.",
            Family::Content => "What the rendered prompt contains: secrets, repeated text.",
            Family::Budgets => "Token budgets and the context window (the findings of the budget stage).",
            Family::Settings => "Settings sanity: the window settings of the Deep Agents, Zeph and AgentScope presets (SET0NN, the settings stage), and the summarization, reserve, retrieval and history settings (SET1NN, the lint stage).",
            Family::Claude => "Claude Code files: subagents, slash commands, settings (hooks and permissions), plugin manifests, CLAUDE.md.",
            Family::Mcp => "MCP server configurations (`.mcp.json`) and MCP tool definitions wherever they appear.",
            Family::Cursor => "Cursor project rules (`.cursor/rules/*.mdc`) and the legacy `.cursorrules`.",
            Family::Copilot => "GitHub Copilot instructions, path-specific instructions, prompt files and custom agents.",
            Family::Gemini => "Gemini CLI: GEMINI.md context files and `.gemini/settings.json`.",
            Family::OpenHands => "OpenHands microagents (`.openhands/microagents/`).",
            Family::Codex => "Codex: the AGENTS.md chain, its 32 KiB cap and AGENTS.override.md.",
            Family::Links => "References between agent files: relative links, `@imports` and the files bundled with a skill.",
            Family::Instructions => "What agent files tell the model: descriptions that can route, instructions that agree across the files one agent loads.",
        }
    }
}

/// Where a rule is checked, which decides how its findings affect the exit code.
#[derive(Clone, Copy)]
pub enum Stage {
    /// Found while loading: the input cannot be loaded, exit 2 (select/ignore do not apply).
    Load,
    /// Found by the lint stage after measuring; this function is the check.
    Lint(fn(&Context) -> Vec<Diagnostic>),
    /// In a manifest, found while loading (exit 2); in zero-config linting (no manifest), found
    /// by this check as an ordinary finding.
    LoadOrLint(fn(&Context) -> Vec<Diagnostic>),
    /// Found by the budget stage (`src/checks/budgets.rs`).
    Budgets,
    /// Found while loading but not fatal (a warning; the run goes on).
    LoadWarning,
    /// Found by the settings stage (`src/checks/settings/`): the reference systems' window settings,
    /// checked against what was measured.
    Settings,
    /// Reported when a rule or the reading of a file panics (a bug in ctxc): the other rules and
    /// files are still checked, exit 2.
    Internal,
}

impl Stage {
    pub fn check(self) -> Option<fn(&Context) -> Vec<Diagnostic>> {
        match self {
            Stage::Lint(f) | Stage::LoadOrLint(f) => Some(f),
            _ => None,
        }
    }

    /// How the rule is reported, in one sentence, for its documentation.
    pub fn describe(self) -> &'static str {
        match self {
            Stage::Load => "Reported as a load error: the input cannot be loaded, exit 2. `[lint]`, `--select` and `--ignore` do not apply.",
            Stage::Lint(_) => "Reported by the lint stage: after every mode and scenario is rendered and measured, or over the files found when there is no manifest.",
            Stage::LoadOrLint(_) => "Reported as a load error (exit 2) when it stops the input from loading; otherwise found by the lint stage and reported as a finding.",
            Stage::Budgets => "Reported by the budget stage, after every mode and scenario is measured.",
            Stage::LoadWarning => "Reported while loading the manifest, as a warning; loading goes on.",
            Stage::Internal => "Reported when a rule, or the reading of a file, fails inside ctxc (a bug): the other rules and files are still checked and reported, exit 2. `[lint]`, `--select` and `--ignore` do not apply.",
            Stage::Settings => "Reported by the settings stage (`src/checks/settings/`), after every mode and scenario is measured, for agents on the `deepagents`, `zeph` or `agentscope` preset; it points at the line that sets the value, or at the `preset` line when the value is the preset's default.",
        }
    }
}

/// An example file for a rule's documentation. `file` names it (and decides the code fence
/// language); `text` is its content.
#[derive(Debug, Clone, Copy)]
pub struct Example {
    pub file: &'static str,
    pub text: &'static str,
}

/// One rule: its identity, its default severity, its documentation and where it is checked.
#[derive(Clone, Copy)]
pub struct Rule {
    /// Stable code: family prefix and three digits, e.g. `SKILL004`.
    pub code: Code,
    /// Short kebab-case name, e.g. `name-invalid`.
    pub name: &'static str,
    pub family: Family,
    pub severity: Severity,
    /// What it checks, in one sentence.
    pub summary: &'static str,
    /// Why it matters (Markdown).
    pub why: &'static str,
    /// An example that fails.
    pub fails: Example,
    /// The fixed example, which passes.
    pub passes: Example,
    /// Extra notes (Markdown), e.g. how the strict and lenient levels differ; may be empty.
    pub notes: &'static str,
    pub stage: Stage,
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rule").field("code", &self.code).field("name", &self.name).finish_non_exhaustive()
    }
}

/// Declares every rule module (one file each, under the family's folder) and the list of all
/// rules, in this order.
macro_rules! registry {
    ($($family:ident { $($code:ident $rule:ident),* $(,)? })*) => {
        $(pub mod $family { $(pub mod $rule;)* })*
        /// Every rule, grouped by family, in code order (the order of [`Code::ALL`]).
        pub const ALL: &[&Rule] = &[$($(&$family::$rule::RULE,)*)*];
    };
}

crate::codes::rule_table!(registry);

/// The rule with this code (case-insensitive; a renamed code gives its rule).
pub fn get(code: &str) -> Option<&'static Rule> {
    Code::parse(code).map(rule)
}

/// The rule with this code or this name (`MAN011` or `unknown-model`, case-insensitive).
pub fn by_code_or_name(code_or_name: &str) -> Option<&'static Rule> {
    get(code_or_name).or_else(|| ALL.iter().copied().find(|r| r.name.eq_ignore_ascii_case(code_or_name)))
}

/// The rule of a code.
pub fn rule(code: Code) -> &'static Rule {
    // ALL is in the order of Code::ALL (a test keeps it so).
    ALL[code as usize]
}

/// Whether `pattern` (a full code or a code prefix such as `SKILL` or `SKILL01`) names `code`.
pub fn matches(pattern: &str, code: &str) -> bool {
    code.len() >= pattern.len() && code[..pattern.len()].eq_ignore_ascii_case(pattern)
}

/// Whether a selector names at least one rule: `ALL`, a code or a code prefix.
pub fn is_known_selector(pattern: &str) -> bool {
    pattern.eq_ignore_ascii_case("ALL") || (!pattern.is_empty() && ALL.iter().any(|r| matches(pattern, r.code.as_str())))
}

/// The closest code to a misspelt one, for "did you mean".
pub fn suggest(wrong: &str) -> Option<&'static str> {
    crate::diagnostic::did_you_mean(&wrong.to_uppercase(), Code::ALL.iter().map(|c| c.as_str()))
}

/// Whether `code` is well formed: a family prefix and three digits.
pub fn well_formed(code: &str, family: Family) -> bool {
    code.strip_prefix(family.prefix()).is_some_and(|digits| digits.len() == 3 && digits.bytes().all(|b| b.is_ascii_digit()))
}
