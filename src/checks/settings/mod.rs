//! The settings stage: sanity checks on the reference systems' window settings against what
//! was measured, for every mode and scenario of one agent (SET001–SET015, registered in
//! `src/checks/rules/settings/` with `Stage::Settings`). One file per system; the settings and
//! their window arithmetic are [`crate::systems`].

mod agentscope;
mod deepagents;
mod zeph;

use crate::codes::Code;
use crate::diagnostic::{grouped, Diagnostic};
use crate::manifest::model::Agent;
use crate::measure::Measured;
use crate::systems::Setting;

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
fn finding<T>(code: Code, setting: &Setting<T>, message: String) -> Diagnostic {
    let note = setting.note.as_ref().map(|n| format!(" ({n})")).unwrap_or_default();
    Diagnostic::error(format!("{message}{note}"))
        .code(code)
        .in_file(&setting.origin.file)
        .at(setting.origin.span.clone())
        .label(format!("`{}`", setting.key))
}

/// The measured mode and scenario with the largest fixed context (the request: system prompt,
/// tool schemas, message framing).
fn largest_fixed(measured: &[Measured]) -> Option<&Measured> {
    measured.iter().max_by_key(|m| m.window.fixed)
}

/// SET003, shared by every system: the fixed context alone reaches the point where the system
/// compacts, so compaction would fire on the first turn.
fn fixed_reaches_trigger<T>(system: &str, what: &str, setting: &Setting<T>, at: u64, worst: &Measured) -> Option<Diagnostic> {
    (worst.window.fixed >= at as i64).then(|| {
        finding(
            Code::SET003,
            setting,
            format!(
                "the fixed context ({} tokens: system prompt, tool schemas and message framing, {} mode, scenario `{}`) reaches the {system} {what} at {} tokens: it would fire on the first turn",
                grouped(worst.window.fixed),
                worst.mode,
                worst.scenario,
                grouped(at)
            ),
        )
    })
}
