//! The settings stage: sanity checks on the runtimes' window settings against what was
//! measured, for every mode and scenario of one agent (SET001–SET015, registered in
//! `src/rules/settings/` with `Stage::Settings`). Each runtime's checks are its folder's
//! `checks.rs`, reached through the runtime table's `checks` row; the settings and their window
//! arithmetic are its `window.rs`.

use crate::diagnostic::Diagnostic;
use crate::manifest::model::Agent;
use crate::measure::Measured;
use crate::runtimes::runtime_table;

/// Sanity checks on the runtime's settings against what was measured: every mode and scenario
/// of one agent. Findings carry codes SET001…; errors fail `ctxc check`.
pub fn check(agent: &Agent, measured: &[Measured]) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    macro_rules! checks {
        ($($runtime:ident),*) => {
            $(
                if let Some(settings) = &agent.systems.$runtime {
                    diagnostics.extend(crate::runtimes::$runtime::checks::check(agent, settings, measured));
                }
            )*
        };
    }
    runtime_table!(checks checks);
    diagnostics
}
