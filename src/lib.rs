//! ctxc, the agent context compiler, as a library.
//!
//! The pipeline runs in stages, each taking the previous stage's output and collecting
//! diagnostics: [`manifest::load`] (parse, overlay the preset, validate, read files) →
//! [`resolve::resolve`] (a mode and scenario: which steps and tools are on, and why) →
//! [`render::render`] (assemble and render every enabled step). The library never prints;
//! [`cli`] is the edge that reports.

pub mod budgets;
pub mod cli;
pub mod diagnostic;
pub mod discover;
pub mod manifest;
pub mod measure;
pub mod models;
pub mod project;
pub mod render;
pub mod resolve;
pub mod scenario;
pub mod schema;
pub mod skills;
pub mod tokens;
pub mod tools;
pub mod yaml;

use std::path::Path;

pub use diagnostic::{Diagnostic, Severity, Sources};
pub use render::Rendered;

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
    let fail = |diagnostics| Failure { diagnostics, sources: loaded.sources.clone() };
    let resolved = resolve::resolve(&loaded.agent, mode, scenario).map_err(fail)?;
    render::render(&resolved, &loaded.root).map_err(fail)
}
