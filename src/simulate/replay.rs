//! `ctxc simulate` over agents: the conversation read from its file, then replayed in each mode
//! of each agent. The command prints what this returns; the MCP server's `simulate` tool returns it.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{simulate, Budget, Simulation};
use crate::conversation::{self, Conversation};
use crate::diagnostic::{Diagnostic, Failure, Sources};
use crate::session::{Only, Session};

/// A transcript or workload over this size is refused.
const MAX_INPUT_BYTES: u64 = 64 << 20;

/// A conversation to replay: a workload spec, or a transcript (whose summaries the model writes
/// `summary_chars` long).
pub enum Input<'a> {
    Workload(&'a Path),
    Transcript(&'a Path, u64),
}

/// The conversation of `input` (its warnings in it), with the file's text as the sources its
/// diagnostics point into, shown as `shown`. A regular file of bounded size, read without
/// blocking (a FIFO or a device is refused).
pub fn read(input: Input, shown: &str) -> Result<(Conversation, Sources), Failure> {
    let path = match input {
        Input::Workload(path) | Input::Transcript(path, _) => path,
    };
    let fail = |message: String| Failure { diagnostics: vec![Diagnostic::error(message).in_file(shown)], sources: Sources::default() };
    let resolved = std::fs::canonicalize(path).map_err(|e| fail(format!("cannot read {shown}: {e}")))?;
    let bytes = crate::project::read_bytes(&resolved, shown, MAX_INPUT_BYTES).map_err(|e| fail(e.message()))?;
    let text = String::from_utf8(bytes).map_err(|_| fail(format!("{shown} is not UTF-8 text")))?;
    let conversation = match input {
        Input::Workload(_) => conversation::workload(shown, &text)?,
        Input::Transcript(_, summary_chars) => conversation::transcript(shown, &text, summary_chars)?,
    };
    let mut sources = Sources::default();
    sources.insert(shown, &text);
    Ok((conversation, sources))
}

/// What the replays gave: every simulation in order, the agents' loading warnings, and the
/// failure that ended them early, if one did (with the sources its diagnostics point into).
#[derive(Default)]
pub struct Replays {
    pub simulations: Vec<Simulation>,
    pub warnings: Vec<Failure>,
    pub failure: Option<Failure>,
}

/// Replays `conversation` (read from `shown`, whose text `sources` holds) in each agent of
/// `manifests`: each mode once, in the scenario `only` names, else the first that rendered.
pub fn replay(
    session: &Session,
    manifests: &[PathBuf],
    only: Only,
    conversation: &Conversation,
    shown: &str,
    sources: &Sources,
) -> Replays {
    let mut replays = Replays::default();
    let mut budget = Budget::default();
    for manifest in manifests {
        let runs = match session.run(manifest, only) {
            Ok(runs) => runs,
            Err(failure) => {
                replays.failure = Some(failure);
                return replays;
            }
        };
        replays.warnings.push(Failure { diagnostics: runs.loaded.warnings.clone(), sources: runs.loaded.sources.clone() });
        if !runs.problems.is_empty() {
            replays.failure = Some(Failure { diagnostics: runs.problems, sources: runs.loaded.sources });
            return replays;
        }
        let mut seen = Vec::new();
        for run in &runs.runs {
            if only.scenario.is_none() && seen.contains(&run.rendered.mode) {
                continue;
            }
            seen.push(run.rendered.mode.clone());
            match simulate(&runs.loaded.agent, &run.rendered, &run.measured, session.counter(), conversation, &mut budget) {
                Ok(simulation) => replays.simulations.push(simulation),
                Err(why) => {
                    let d = Diagnostic::error(format!("{shown} is not simulated to its end: {why}")).in_file(shown).at(Some(0..0));
                    replays.failure = Some(Failure { diagnostics: vec![d], sources: sources.clone() });
                    return replays;
                }
            }
        }
        if let Some(failure) = session.file_failure(&runs.loaded) {
            replays.failure = Some(Failure { diagnostics: vec![failure], sources: runs.loaded.sources });
            return replays;
        }
    }
    replays
}

/// `ctxc simulate --format json`: the run's overrides and model, and every simulation.
#[derive(Serialize)]
pub struct SimulateJson<'a> {
    pub overrides: &'a [String],
    pub model: Option<&'a str>,
    pub simulations: &'a [Simulation],
}
