//! The rule catalogue: every check ctxc can report, with a stable code, a default severity and
//! its documentation. A family of rules is a module (`src/rules/<family>/mod.rs`, with the
//! helpers only its rules use); one file per rule (`src/rules/<family>/<code>_<name>.rs`) holds
//! the rule's [`Definition`]: its documentation and, for lint rules, its check. Readers more than
//! one family uses are the files beside this one. [`ALL`] is the one list of rules; `ctxc rules`,
//! `ctxc explain`, SARIF's `tool.driver.rules` and `docs/rules.md` are all generated from it.
//!
//! Registering a rule is one line in the table of `src/codes.rs` (its code and module), the rule
//! file and its `mod` line in the family's `mod.rs`; code, name and family come from the table.

pub mod chains;
pub mod context;
pub mod docs;
pub mod frontmatter;
pub mod globs;
pub mod json_span;
pub mod locate;
pub mod markdown;
pub mod refs;
pub mod secrets;
pub mod suppress;

// The families of the table (src/codes.rs), one folder each.
pub mod budgets;
pub mod cache;
pub mod claude;
pub mod cline;
pub mod codex;
pub mod content;
pub mod copilot;
pub mod cursor;
pub mod gemini;
pub mod instructions;
pub mod kiro;
pub mod links;
pub mod manifest;
pub mod mcp;
pub mod memory;
pub mod opencode;
pub mod openhands;
pub mod settings;
pub mod skills;
pub mod templates;
pub mod tools;
pub mod windsurf;

/// What rule files import.
pub mod prelude {
    pub use super::context::Context;
    pub use super::{locate, Definition, Example, Stage};
    pub use crate::codes::Code;
    pub use crate::diagnostic::{grouped, Diagnostic, Edit, Fix, Severity};
}

use serde::Serialize;

pub use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Severity};
use context::Context;

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

/// What a rule's file defines: its default severity, its documentation and where it is checked.
/// Its identity (code, name, family, lifecycle) is the table's (`src/codes.rs`).
#[derive(Clone, Copy)]
pub struct Definition {
    /// The severity of its findings, unless `[lint] severity` says otherwise. A check does not
    /// choose one: the lint stage gives every finding its rule's.
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

/// One rule as registered: its identity from the table and its file's [`Definition`].
#[derive(Clone, Copy)]
pub struct Rule {
    /// Stable code: family prefix and three digits, e.g. `SKILL004`.
    pub code: Code,
    /// Short kebab-case name, e.g. `name-invalid` (the module name after the code).
    pub name: &'static str,
    pub family: Family,
    pub lifecycle: Lifecycle,
    pub definition: &'static Definition,
}

/// Whether a rule runs by default. Like ruff's rule groups: a new rule can ship in preview, run
/// by those who ask for it, and become stable once its findings have been judged on real files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lifecycle {
    Stable,
    /// Runs only when preview is on (`ctxc check --preview`, `[lint] preview = true`).
    Preview,
}

impl Lifecycle {
    /// Whether a rule of this lifecycle runs, with preview on or off.
    pub fn runs(self, preview: bool) -> bool {
        self == Lifecycle::Stable || preview
    }
}

impl std::ops::Deref for Rule {
    type Target = Definition;

    fn deref(&self) -> &Definition {
        self.definition
    }
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rule").field("code", &self.code).field("name", &self.name).finish_non_exhaustive()
    }
}

/// A rule's lifecycle from the table: stable unless marked, e.g. `(Preview)`.
macro_rules! lifecycle {
    () => {
        Lifecycle::Stable
    };
    ($marked:ident) => {
        Lifecycle::$marked
    };
}

/// Expands the table into the [`Family`] enum and the list of all rules. The family modules
/// (above) and their rule files (in each family's `mod.rs`) are declared with ordinary `mod`
/// lines, so that `cargo fmt` reaches them; a family or rule the table names but no module
/// defines does not compile, and a test (`rule_files_are_the_table`) finds a file the table does
/// not name.
macro_rules! registry {
    ($($family:ident $variant:ident { $($code:ident $rule:ident $(($lifecycle:ident))?),* $(,)? })*) => {

        /// A group of rules: a module of `src/rules/` and a code prefix.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
        #[serde(rename_all = "lowercase")]
        pub enum Family {
            $($variant,)*
        }

        impl Family {
            /// Every family, in the table's order.
            pub const ALL: &[Family] = &[$(Family::$variant,)*];

            /// The code prefix of the family's rules.
            pub fn prefix(self) -> &'static str {
                match self {
                    $(Family::$variant => const { prefix_of(&[$(stringify!($code)),*]) },)*
                }
            }

            /// The family's module name, e.g. `openhands`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Family::$variant => stringify!($family),)*
                }
            }

            /// One line on what the family covers (its module's `ABOUT`).
            pub fn about(self) -> &'static str {
                match self {
                    $(Family::$variant => $family::ABOUT,)*
                }
            }
        }

        /// Every rule, grouped by family, in code order (the order of [`Code::ALL`]). A `static`:
        /// one copy of the rules' texts in the binary, where a `const` was copied into each
        /// codegen unit that reads it (9 copies, 0.7 MB of the release binary, on 2026-11-30).
        pub static ALL: &[Rule] = &[$($(Rule {
            code: Code::$code,
            name: {
                const MODULE: &str = stringify!($rule);
                const SKIP: usize = stringify!($code).len() + 1;
                const NAME: [u8; MODULE.len() - SKIP] = kebab_name(MODULE, SKIP);
                match std::str::from_utf8(&NAME) {
                    Ok(name) => name,
                    Err(_) => panic!("module names are ASCII"),
                }
            },
            family: Family::$variant,
            lifecycle: lifecycle!($($lifecycle)?),
            definition: &$family::$rule::RULE,
        },)*)*];
    };
}

/// A family's code prefix: its codes without their digits (all share it; a test checks).
const fn prefix_of(codes: &[&'static str]) -> &'static str {
    let code = codes[0];
    let mut digits = 0;
    while digits < code.len() && code.as_bytes()[code.len() - 1 - digits].is_ascii_digit() {
        digits += 1;
    }
    code.split_at(code.len() - digits).0
}

/// A rule's name from its module name: what follows the code and `_` (`skip` bytes), with `-`
/// for `_`.
const fn kebab_name<const N: usize>(module: &str, skip: usize) -> [u8; N] {
    let bytes = module.as_bytes();
    let mut name = [0; N];
    let mut i = 0;
    while i < N {
        name[i] = if bytes[skip + i] == b'_' { b'-' } else { bytes[skip + i] };
        i += 1;
    }
    name
}

crate::codes::rule_table!(registry);

/// The rule with this code (case-insensitive; a renamed code gives its rule).
pub fn get(code: &str) -> Option<&'static Rule> {
    Code::parse(code).map(rule)
}

/// The rule with this code or this name (`MAN011` or `unknown-model`, case-insensitive).
pub fn by_code_or_name(code_or_name: &str) -> Option<&'static Rule> {
    get(code_or_name).or_else(|| ALL.iter().find(|r| r.name.eq_ignore_ascii_case(code_or_name)))
}

/// The rule of a code.
pub fn rule(code: Code) -> &'static Rule {
    // ALL is in the order of Code::ALL (a test keeps it so).
    &ALL[code as usize]
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
