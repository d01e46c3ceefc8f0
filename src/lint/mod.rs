//! Stage 7 (lint): run the rule catalogue ([`crate::rules`]) over a loaded agent and every mode
//! and scenario rendered and measured, or (zero-config) over the SKILL.md and memory files of a
//! directory. [`check`] is the whole of `ctxc check` as a library call: load, render, measure,
//! budgets, lint, then `[lint]` / command-line selection and suppression comments.

pub mod check;
pub mod config;
pub mod files;
pub mod suppress;

use crate::diagnostic::{Diagnostic, Sources};
use crate::manifest::model::{Agent, Category, CategoryTool, StepKind};
use crate::manifest::Loaded;
use crate::measure::Measured;
use crate::models::Tokenizer;
use crate::project::ProjectRoot;
use crate::render::Rendered;
use crate::tokens::TokenCounter;

pub use check::{check, CheckReport, Outcome};
pub use config::{Options, RawLint, Settings, SkillLevel};
pub use files::{MemoryDoc, SkillDoc};

/// One mode in one scenario: the rendered prompt and its measurement.
#[derive(Debug, Clone)]
pub struct Run {
    pub rendered: Rendered,
    pub measured: Measured,
}

/// A loaded agent and every mode × scenario that rendered.
#[derive(Debug, Clone, Copy)]
pub struct AgentRun<'a> {
    pub loaded: &'a Loaded,
    pub runs: &'a [Run],
}

/// What rule checks read.
pub struct Context<'a> {
    /// The agent, when a manifest was loaded (`None` in zero-config linting).
    pub agent: Option<AgentRun<'a>>,
    pub skills: &'a [SkillDoc],
    pub memory: &'a [MemoryDoc],
    /// Every file read, by display path.
    pub sources: &'a Sources,
    pub root: &'a ProjectRoot,
    pub counter: &'a TokenCounter,
    /// The tokenizer counts are made with (o200k_base in zero-config linting).
    pub tokenizer: Tokenizer,
    pub settings: Settings,
}

impl Context<'_> {
    pub fn count(&self, text: &str) -> usize {
        self.counter.count(self.tokenizer, text)
    }

    /// The loaded agent, when there is one.
    pub fn agent(&self) -> Option<&Agent> {
        self.agent.map(|a| &a.loaded.agent)
    }

    /// Every mode × scenario that rendered (empty in zero-config linting).
    pub fn runs(&self) -> &[Run] {
        self.agent.map_or(&[], |a| a.runs)
    }

    /// Every tool of the agent with its category, in declaration order (none without an agent).
    pub fn tools(&self) -> Vec<(&Category, &CategoryTool)> {
        self.agent().map_or_else(Vec::new, |a| a.categories.iter().flat_map(|c| c.tools.iter().map(move |t| (c, t))).collect())
    }

    /// Whether the agent's pipeline has a step of this kind.
    pub fn has_step(&self, kind: StepKind) -> bool {
        self.agent().is_some_and(|a| a.steps.iter().any(|s| s.kind == kind))
    }

    /// The display path of a path relative to the project root.
    pub fn display(&self, rel: &str) -> String {
        self.root.display_path(rel)
    }

    /// "~" before estimated counts, as everywhere else.
    pub fn approx(&self) -> &'static str {
        if self.tokenizer.is_exact() {
            ""
        } else {
            "~"
        }
    }
}

/// Runs every lint rule. Findings carry their rule's code and default severity, sorted by file,
/// position and code.
pub fn lint(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for rule in crate::rules::ALL {
        let Some(check) = rule.stage.check() else { continue };
        for mut d in check(cx) {
            d.code = Some(rule.code.to_string());
            d.severity = rule.severity;
            findings.push(d);
        }
    }
    sort(&mut findings);
    findings
}

/// Orders findings by file, position, code and message, so output is stable.
pub fn sort(findings: &mut [Diagnostic]) {
    findings.sort_by(|a, b| {
        let key = |d: &Diagnostic| (d.file.clone(), d.span.as_ref().map_or(0, |s| s.start), d.code.clone(), d.message.clone());
        key(a).cmp(&key(b))
    });
}
