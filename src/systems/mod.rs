//! The reference systems' own window settings (Deep Agents, Zeph, AgentScope): the numbers each
//! system defines for its context window, computed per measured mode and scenario for
//! `ctxc cost`, and the sanity checks on them for `ctxc check` (rule codes SET001–SET015,
//! registered in `src/rules/settings/` with `Stage::Settings`). One file per system.

pub mod agentscope;
pub mod deepagents;
pub mod zeph;

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::manifest::model::{Agent, Origin};
use crate::measure::Measured;

/// A system setting's value and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Setting<T> {
    pub value: T,
    /// `manifest`, `override` (--set or a CTXC_ environment variable), `preset NAME`, or the
    /// reference system's own default (named).
    pub source: String,
    /// The dotted manifest key.
    #[serde(skip)]
    pub key: String,
    /// Where diagnostics about it point: the value in the manifest, or the `preset` line.
    #[serde(skip)]
    pub origin: Origin,
    /// Said in diagnostics when the user did not write the value.
    #[serde(skip)]
    pub note: Option<String>,
}

impl<T> Setting<T> {
    /// The same provenance with another value (a default derived from this one's source).
    pub fn map<U>(&self, value: U) -> Setting<U> {
        Setting { value, source: self.source.clone(), key: self.key.clone(), origin: self.origin.clone(), note: self.note.clone() }
    }
}

/// The settings of the reference system the agent's preset models, if any.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Systems {
    pub deepagents: Option<deepagents::Settings>,
    pub zeph: Option<zeph::Settings>,
    pub agentscope: Option<agentscope::Settings>,
}

/// Sanity checks on the reference systems' settings against what was measured: every mode and
/// scenario of one agent. Findings carry codes SET001…; errors fail `ctxc check`.
pub fn check(agent: &Agent, measured: &[Measured]) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    if let Some(settings) = &agent.systems.deepagents {
        diagnostics.extend(deepagents::check(agent, settings, measured));
    }
    if let Some(settings) = &agent.systems.zeph {
        diagnostics.extend(zeph::check(agent, settings, measured));
    }
    if let Some(settings) = &agent.systems.agentscope {
        diagnostics.extend(agentscope::check(settings, measured));
    }
    diagnostics
}

/// A finding about a setting: an error pointing at where the setting was written (or at the
/// `preset` line, saying the value is the preset's default).
pub(crate) fn finding<T>(code: &str, setting: &Setting<T>, message: String) -> Diagnostic {
    let note = setting.note.as_ref().map(|n| format!(" ({n})")).unwrap_or_default();
    Diagnostic::error(format!("{message}{note}"))
        .code(code)
        .in_file(&setting.origin.file)
        .at(setting.origin.span.clone())
        .label(format!("`{}`", setting.key))
}

/// The measured mode and scenario with the largest fixed context (system prompt + tool schemas).
pub(crate) fn largest_fixed(measured: &[Measured]) -> Option<&Measured> {
    measured.iter().max_by_key(|m| m.window.fixed)
}

/// SET003, shared by every system: the fixed context alone reaches the point where the system
/// compacts, so compaction would fire on the first turn.
pub(crate) fn fixed_reaches_trigger<T>(system: &str, what: &str, setting: &Setting<T>, at: u64, worst: &Measured) -> Option<Diagnostic> {
    (worst.window.fixed >= at as i64).then(|| {
        finding(
            "SET003",
            setting,
            format!(
                "the fixed context ({} tokens: system prompt + tool schemas, {} mode, scenario `{}`) reaches the {system} {what} at {at} tokens: it would fire on the first turn",
                worst.window.fixed, worst.mode, worst.scenario
            ),
        )
    })
}

/// `0.85` as `85 %`.
pub(crate) fn pct(ratio: f64) -> String {
    let p = ratio * 100.0;
    if (p - p.round()).abs() < 1e-9 {
        format!("{p:.0} %")
    } else {
        format!("{p:.1} %")
    }
}

/// `ratio × tokens`, rounded down, as the systems compute their thresholds.
pub(crate) fn share_of(ratio: f64, tokens: u64) -> u64 {
    (ratio * tokens as f64).max(0.0).floor() as u64
}
