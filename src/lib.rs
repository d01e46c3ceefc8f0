//! ctxc, the agent context compiler, as a library.
//!
//! The pipeline runs in stages, each taking the previous stage's output and collecting
//! diagnostics: [`manifest::load`] (parse, overlay the preset, validate, read files) →
//! [`resolve::resolve`] (a mode and scenario: which steps and tools are on, and why) →
//! [`render::render`] (assemble and render every enabled step). The library never prints;
//! [`cli`] is the edge that reports.

pub mod agent_files;
pub mod checks;

pub mod diagnostic;
pub mod discover;
pub mod lint;
pub mod manifest;
pub mod memo;
pub mod measure;
pub mod models;
pub mod parallel;
pub mod project;
pub mod render;
pub mod report;
pub mod resolve;
pub mod rules;
pub mod schema;
pub mod skills;
pub mod systems;
pub mod tokens;
pub mod tools;
pub mod yaml;
// Prompt changes under review: snapshots, ctxc.lock, diffs between revisions.
pub mod review;

use std::path::Path;

pub use diagnostic::{Diagnostic, Severity, Sources};
pub use render::Rendered;
pub use review::snapshot::snapshot_text;

/// Why a render failed: diagnostics and the sources they point into.
#[derive(Debug, Clone)]
pub struct Failure {
    pub diagnostics: Vec<Diagnostic>,
    pub sources: Sources,
}

/// Loads the manifest at `manifest_path` and renders one mode in one scenario (the default
/// scenario when `None`). This is the whole pipeline in one call, for snapshot tests.
pub fn render_mode(manifest_path: &Path, mode: &str, scenario: Option<&str>) -> Result<Rendered, Failure> {
    let loaded = manifest::load(manifest_path)
        .map_err(|f| Failure { diagnostics: f.diagnostics, sources: f.sources })?;
    render_loaded(&loaded, mode, scenario).map_err(|diagnostics| Failure { diagnostics, sources: loaded.sources.clone() })
}

/// Resolves and renders one mode of a loaded agent.
pub fn render_loaded(loaded: &manifest::Loaded, mode: &str, scenario: Option<&str>) -> Result<Rendered, Vec<Diagnostic>> {
    let resolved = resolve::resolve(&loaded.agent, mode, scenario)?;
    render::render(resolved, &loaded.root)
}

/// Renders and measures every mode in every scenario of a loaded agent (or only the named
/// mode / scenario). Returns what could be measured and the diagnostics of what could not.
pub fn measure_all(
    loaded: &manifest::Loaded,
    only_mode: Option<&str>,
    only_scenario: Option<&str>,
    counter: &tokens::TokenCounter,
) -> (Vec<measure::Measured>, Vec<Diagnostic>) {
    let (runs, diagnostics) = render_all(loaded, only_mode, only_scenario, counter);
    (runs.into_iter().map(|run| run.measured).collect(), diagnostics)
}

/// Like [`measure_all`], keeping each rendered prompt beside its measurement (for the lint stage).
pub fn render_all(
    loaded: &manifest::Loaded,
    only_mode: Option<&str>,
    only_scenario: Option<&str>,
    counter: &tokens::TokenCounter,
) -> (Vec<lint::Run>, Vec<Diagnostic>) {
    let agent = &loaded.agent;
    let mut diagnostics = Vec::new();
    let modes: Vec<&str> = agent.modes.keys().map(String::as_str).collect();
    let scenarios: Vec<&str> = agent.scenarios.keys().map(String::as_str).collect();
    for (what, only, known) in [("mode", only_mode, modes), ("scenario", only_scenario, scenarios)] {
        if let Some(name) = only.filter(|n| !known.contains(n)) {
            diagnostics.push(resolve::unknown_name(&agent.name, what, name, known));
        }
    }
    let mut runs = Vec::new();
    for mode in agent.modes.keys().filter(|m| only_mode.is_none_or(|want| want == *m)) {
        for scenario in agent.scenarios.keys().filter(|s| only_scenario.is_none_or(|want| want == *s)) {
            match render_loaded(loaded, mode, Some(scenario)) {
                Ok(rendered) => {
                    let measured = measure::measure(agent, &rendered, counter);
                    runs.push(lint::Run { rendered, measured });
                }
                Err(d) => diagnostics.extend(d),
            }
        }
    }
    (runs, diagnostics)
}
