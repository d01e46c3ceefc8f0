//! The settings of the runtime an agent's preset models, one field per runtime with a manifest
//! section (each runtime's own settings and window numbers are in its folder under
//! `src/runtimes/`), and the release each preset models. The checks on them (SET001–SET015)
//! are a later stage: [`crate::checks::settings`]. Nothing here depends on a pipeline stage.

use serde::Serialize;

use crate::runtimes::agentscope::window as agentscope;
use crate::runtimes::deepagents::window as deepagents;
use crate::runtimes::zeph::window as zeph;
use crate::runtimes::Runtime;
// Moved to `src/runtimes/`; named here too for the stages that still use them from here.
pub use crate::runtimes::{pct, share_of, Setting};

/// The settings of the reference system the agent's preset models, if any.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Systems {
    pub deepagents: Option<deepagents::Settings>,
    pub zeph: Option<zeph::Settings>,
    pub agentscope: Option<agentscope::Settings>,
    pub adk: Option<crate::runtimes::adk::settings::Settings>,
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
