//! BUDGET006: the workloads declared in the manifest's scenarios (`workload`), replayed through
//! the runtime's context policy ([`crate::simulate`]) in every mode: a request over the window,
//! or a first summarization before `summarize_not_before`, is a finding — a regression gate for
//! context policies.

use crate::conversation::workload;
use crate::diagnostic::{Code, Diagnostic};
use crate::manifest::model::{Agent, Origin, ScenarioWorkload};
use crate::session::Run;
use crate::simulate::{Budget, Simulation};
use crate::tokens::TokenCounter;

fn at(origin: &Origin, message: String) -> Diagnostic {
    Diagnostic::error(message).in_file(&origin.file).at(origin.span.clone()).code(Code::BUDGET006)
}

/// Why a workload gave no simulation.
pub enum Unsimulated {
    /// The spec is invalid.
    Unreadable(String),
    /// The run's [`Budget`] ran out: what ran out.
    OverBudget(String),
}

/// The workload `run`'s scenario declares, if it declares one, replayed through the runtime's
/// policy in `run`'s mode, from `budget` (shared by the agent's modes × scenarios): the
/// simulation, or why there is none.
pub fn simulate<'a>(
    agent: &'a Agent,
    run: &Run,
    counter: &TokenCounter,
    budget: &mut Budget,
) -> Option<(&'a ScenarioWorkload, Result<Simulation, Unsimulated>)> {
    let spec = agent.scenarios.get(&run.rendered.scenario).and_then(|s| s.workload.as_ref())?;
    let simulation = match workload(&spec.file.path, &spec.file.text) {
        Ok(conversation) => {
            crate::simulate::simulate(agent, &run.rendered, &run.measured, counter, &conversation, budget).map_err(Unsimulated::OverBudget)
        }
        Err(failure) => Err(Unsimulated::Unreadable(failure.diagnostics.first().map_or_else(String::new, |d| d.message.clone()))),
    };
    Some((spec, simulation))
}

/// One finding per scenario and kind: the first mode that fails. Second: a simulation over the
/// agent's budget, which stops the check of its workloads (the run cannot finish: exit 2).
pub fn check(agent: &Agent, runs: &[Run], counter: &TokenCounter) -> (Vec<Diagnostic>, Option<Diagnostic>) {
    let mut findings: Vec<Diagnostic> = Vec::new();
    let mut budget = Budget::default();
    for run in runs {
        let Some((spec, simulation)) = simulate(agent, run, counter, &mut budget) else { continue };
        let sim = match simulation {
            Ok(sim) => sim,
            Err(Unsimulated::Unreadable(why)) => {
                let d = at(&spec.origin, format!("the workload {} cannot be read: {why}", spec.file.path));
                crate::diagnostic::push_once(&mut findings, d);
                continue;
            }
            Err(Unsimulated::OverBudget(why)) => {
                let d = at(&spec.origin, format!("the workload {} is not simulated to its end: {why}", spec.file.path))
                    .label("this workload")
                    .help("the simulations of one agent's modes × scenarios share one budget (docs/simulate.md#limits)");
                return (findings, Some(d));
            }
        };
        let where_ = format!("{} mode, scenario `{}`, {}", sim.mode, sim.scenario, sim.policy.system);
        let already = |findings: &[Diagnostic], what: &str| {
            findings.iter().any(|d| d.message.contains(what) && d.message.contains(&format!("scenario `{}`", sim.scenario)))
        };
        if let Some(turn) = sim.summary.window_exceeded_turn.filter(|_| !already(&findings, "exceeds the window")) {
            let call = sim.calls.iter().find(|c| c.turn == turn && c.tokens > sim.summary.window).map_or(0, |c| c.tokens);
            findings.push(
                at(
                    &spec.origin,
                    format!(
                        "the workload {} exceeds the window at turn {turn} ({call} tokens of {}; {where_})",
                        spec.file.path, sim.summary.window
                    ),
                )
                .label("this workload")
                .help("the runtime's policy does not keep this conversation in the window: `ctxc simulate --workload` shows every call"),
            );
        }
        let early = match (sim.summary.first_summarization_turn, spec.summarize_not_before) {
            (Some(first), Some(limit)) if (first as u64) < limit => Some((first, limit)),
            _ => None,
        };
        if let Some((first, limit)) = early.filter(|_| !already(&findings, "summarizes at turn")) {
            let origin = spec.summarize_not_before_origin.as_ref().unwrap_or(&spec.origin);
            findings.push(
                at(origin, format!("the workload {} summarizes at turn {first}, before turn {limit} ({where_})", spec.file.path))
                    .label(format!("not before turn {limit}"))
                    .help("the fixed context or the turns grew: `ctxc simulate --workload` shows where the runtime's count reaches its trigger"),
            );
        }
    }
    (findings, None)
}
