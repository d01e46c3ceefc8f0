//! The reference systems' own window settings (Deep Agents, Zeph, AgentScope) and the numbers
//! each system derives from them for its context window, which the measure stage computes per
//! mode and scenario for `ctxc cost` (the runtimes moved to `src/runtimes/` hold their own). The checks on them (SET001–SET015) are a later stage:
//! [`crate::checks::settings`]. One file per system; nothing here depends on a pipeline stage.

pub mod agentscope;
pub mod deepagents;
pub mod zeph;

use serde::Serialize;

use crate::diagnostic::Origin;
use crate::runtimes::Runtime;

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

impl Systems {
    /// What an agent on `preset` models, for reports: the exact runtime release its text layout
    /// and numbers follow (proven by the differential tests under tests/runtimes/), or what a
    /// runtime without public code follows ([`Runtime::release`]). `None` without a preset of
    /// a reference system.
    pub fn modelled(&self, preset: Option<&str>) -> Option<String> {
        if let Some(s) = &self.deepagents {
            return Some(deepagents::release(s.layout).to_string());
        }
        if let Some(s) = &self.zeph {
            return Some(s.release().to_string());
        }
        if let Some(s) = &self.agentscope {
            return Some(agentscope::modelled_release(s));
        }
        preset.and_then(Runtime::of_preset).and_then(Runtime::release).map(str::to_string)
    }
}

/// The releases each preset models, one line per reference system (for `ctxc --version`).
pub fn modelled_releases() -> Vec<String> {
    let agentscope = agentscope::RELEASES.iter().map(|r| r.version).collect::<Vec<_>>();
    let zeph = zeph::RELEASES.iter().map(|(_, release)| *release).collect::<Vec<_>>();
    vec![
        format!("deepagents: {}, {}", deepagents::release(deepagents::LAYOUT_0_4), deepagents::release(deepagents::LAYOUT_0_7)),
        format!("agentscope: agentscope {}", agentscope.join(", ")),
        format!("zeph: {}", zeph.join(", ")),
    ]
    .into_iter()
    .chain(Runtime::ALL.iter().filter_map(|r| r.release().map(|release| format!("{}: {release}", r.preset()))))
    .collect()
}

/// `0.85` as `85 %`.
pub fn pct(ratio: f64) -> String {
    let p = ratio * 100.0;
    if (p - p.round()).abs() < 1e-9 {
        format!("{p:.0} %")
    } else {
        format!("{p:.1} %")
    }
}

/// `ratio × tokens`, rounded down, as the systems compute their thresholds.
pub fn share_of(ratio: f64, tokens: u64) -> u64 {
    (ratio * tokens as f64).max(0.0).floor() as u64
}
