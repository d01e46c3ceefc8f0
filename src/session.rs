//! The pipeline driver. A [`Session`] is one run of ctxc over a project: it holds what every
//! agent of the run shares (the manifest overrides, the token counter and the [`Cache`] of work
//! memoized by content) and takes each agent through the stages once — load → resolve and
//! render every selected mode × scenario → measure — for every command and for library users.
//! The checks and the reports work on what it returns. Dropping the session drops its caches, so
//! a long-lived library user holds only what its live sessions hold.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Failure};
use crate::manifest::{self, Loaded};
use crate::measure::Measured;
use crate::memo::Cache;
use crate::project::{ProjectRoot, RunState};
use crate::render::Rendered;
use crate::tokens::TokenCounter;

/// Which modes and scenarios to render: all of them, or only the named one of each.
#[derive(Debug, Clone, Copy, Default)]
pub struct Only<'a> {
    pub mode: Option<&'a str>,
    pub scenario: Option<&'a str>,
}

/// One mode in one scenario: the rendered prompt and its measurement.
#[derive(Debug, Clone)]
pub struct Run {
    pub rendered: Rendered,
    pub measured: Measured,
}

/// One agent loaded, with every selected mode × scenario rendered and measured.
#[derive(Debug)]
pub struct AgentRuns {
    pub loaded: Loaded,
    /// Each mode × scenario that rendered, in manifest order.
    pub runs: Vec<Run>,
    /// Why the others could not be rendered (and names in [`Only`] that match nothing).
    pub problems: Vec<Diagnostic>,
}

#[derive(Default)]
pub struct Session {
    overrides: Vec<String>,
    counter: TokenCounter,
    /// The editor's unsaved texts and the cache, handed to every root the session opens.
    run: RunState,
}

impl Session {
    /// A session whose agents get these `KEY=VALUE` overrides, laid over each manifest in order.
    pub fn new(overrides: Vec<String>) -> Self {
        Session { overrides, counter: TokenCounter::new(), run: RunState::default() }
    }

    pub fn counter(&self) -> &TokenCounter {
        &self.counter
    }

    pub fn overrides(&self) -> &[String] {
        &self.overrides
    }

    /// Makes `text` stand in for the file at `path` (canonical) when this session reads it, or
    /// (`None`) the file on disk count again: an editor's unsaved buffer. The file must still be
    /// inside the project root of the agent reading it.
    pub fn overlay(&self, path: PathBuf, text: Option<&str>) {
        self.run.overlay.set(path, text.map(crate::memo::SharedText::new));
    }

    /// The project of the manifest directory `dir`, read as this session sees it (its unsaved
    /// texts), memoizing in the session's cache.
    pub fn project_root(&self, dir: &Path) -> Result<ProjectRoot, crate::project::ReadError> {
        ProjectRoot::in_run(dir, self.run.clone())
    }

    /// The cache of work memoized by content in this run: kept for (and only for) this session.
    pub fn cache(&self) -> &Arc<Cache> {
        &self.run.cache
    }

    /// Loads one agent (parse, overlay the preset and the overrides, validate, read its files).
    pub fn load(&self, manifest: &Path) -> Result<Loaded, Failure> {
        let loaded = manifest::load_with(manifest, &self.overrides, &self.run)?;
        crate::tokens::warm_up(loaded.agent.profile.tokenizer);
        Ok(loaded)
    }

    /// Resolves and renders one mode of a loaded agent (the default scenario when `None`).
    pub fn render(&self, loaded: &Loaded, mode: &str, scenario: Option<&str>) -> Result<Rendered, Vec<Diagnostic>> {
        let resolved = crate::resolve::resolve(&loaded.agent, mode, scenario)?;
        crate::render::render(resolved, &loaded.root)
    }

    /// Renders and measures every selected mode × scenario of a loaded agent.
    pub fn measure(&self, loaded: Loaded, only: Only) -> AgentRuns {
        let agent = &loaded.agent;
        let mut problems = Vec::new();
        let modes: Vec<&str> = agent.modes.keys().map(String::as_str).collect();
        let scenarios: Vec<&str> = agent.scenarios.keys().map(String::as_str).collect();
        for (what, wanted, known) in [("mode", only.mode, modes), ("scenario", only.scenario, scenarios)] {
            if let Some(name) = wanted.filter(|n| !known.contains(n)) {
                problems.push(crate::resolve::unknown_name(&agent.name, what, name, known));
            }
        }
        let mut runs = Vec::new();
        for mode in agent.modes.keys().filter(|m| only.mode.is_none_or(|want| want == *m)) {
            for scenario in agent.scenarios.keys().filter(|s| only.scenario.is_none_or(|want| want == *s)) {
                match self.render(&loaded, mode, Some(scenario)) {
                    Ok(rendered) => {
                        let measured =
                            crate::measure::measure_with(agent, &rendered, &self.counter, loaded.recorded.as_deref(), self.cache());
                        runs.push(Run { rendered, measured });
                    }
                    // A file every mode or scenario fails in is reported once.
                    Err(d) => d.into_iter().for_each(|d| crate::diagnostic::push_once(&mut problems, d)),
                }
            }
        }
        AgentRuns { loaded, runs, problems }
    }

    /// Measures one render of a loaded agent, with the counts recorded beside its manifest.
    pub fn measure_render(&self, loaded: &Loaded, rendered: &Rendered) -> Measured {
        crate::measure::measure_with(&loaded.agent, rendered, &self.counter, loaded.recorded.as_deref(), self.cache())
    }

    /// Loads one agent, then renders and measures every selected mode × scenario.
    pub fn run(&self, manifest: &Path, only: Only) -> Result<AgentRuns, Failure> {
        Ok(self.measure(self.load(manifest)?, only))
    }

    /// Costs bare tool files (no manifest) for `model`, counted with this session's counter.
    pub fn cost_tool_files(&self, files: &crate::measure::ToolFiles, model: crate::models::ModelProfile) -> crate::measure::ToolFilesCost {
        crate::measure::cost_tool_files(files, model, &self.counter, self.cache())
    }

    /// `work` for each agent on worker threads; the results in the order of `manifests`.
    pub fn each<T: Send>(&self, manifests: &[PathBuf], work: impl Fn(&Path) -> T + Sync) -> Vec<T> {
        crate::parallel::map_in_order(manifests, |manifest| work(manifest))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_roots_of_a_session_share_its_cache_and_a_root_alone_has_its_own() {
        let dir = tempfile::tempdir().expect("tempdir");
        let session = Session::default();
        let a = session.project_root(dir.path()).expect("root");
        let b = session.project_root(dir.path()).expect("root");
        assert!(Arc::ptr_eq(a.cache(), session.cache()) && Arc::ptr_eq(b.cache(), session.cache()));
        let alone = ProjectRoot::new(dir.path()).expect("root");
        assert!(!Arc::ptr_eq(alone.cache(), session.cache()), "no ambient cache: a root alone memoizes for itself");
    }
}
