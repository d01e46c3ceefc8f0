//! The lint stage: run the rule catalogue ([`crate::rules`]) over a loaded agent and every mode
//! and scenario rendered and measured, or (zero-config) over the SKILL.md and memory files of a
//! directory. [`check()`] is the whole of `ctxc check` as a library call: load, render, measure,
//! budgets, lint, then `[lint]` / command-line selection and suppression comments.

pub mod check;
pub mod config;
pub mod fix;

use crate::codes::Code;
use crate::diagnostic::Diagnostic;
pub use crate::rules::context::{AgentRun, Context, Run, Settings};

pub use check::{check, check_text, CheckReport, Outcome};
pub use config::{Options, RawLint, SkillLevel};

/// Runs the lint rules whose code is `selected` (a rule no one asked for is not run: `--select
/// BUDGET` costs only the budget rules). Findings carry their rule's code and default severity,
/// sorted by file, position and code.
pub fn lint(cx: &Context, selected: impl Fn(Code) -> bool) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for rule in crate::rules::ALL.iter().filter(|rule| selected(rule.code)) {
        let Some(check) = rule.stage.check() else { continue };
        for mut d in check(cx) {
            d.code = Some(rule.code);
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
        let key = |d: &Diagnostic| (d.file.clone(), d.span.as_ref().map_or(0, |s| s.start), d.code, d.message.clone());
        key(a).cmp(&key(b))
    });
}
