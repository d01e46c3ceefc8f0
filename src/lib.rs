//! ctxc, the agent context compiler, as a library.
//!
//! The pipeline runs in stages, each taking the previous stage's output and collecting
//! diagnostics instead of stopping at the first, with dependencies flowing one way:
//!
//! 1. [`manifest`] — parse (raw, spanned types), overlay the preset and the overrides,
//!    validate into the model, read every referenced file;
//! 2. [`resolve`] — one mode in one scenario: which steps and tools are on, and why;
//! 3. [`render`] — assemble and render every enabled step;
//! 4. [`measure`] — count every section, the tool schemas and the window;
//! 5. [`checks`] — budgets, the reference systems' settings, and the rule catalogue
//!    ([`rules`], run by [`lint`]);
//! 6. [`report`] and [`review`] — text and data for people and machines; snapshots, the lock
//!    and diffs between revisions.
//!
//! [`Session`] drives an agent through stages 1–4 once per run, for every command and for
//! library users. Below the stages sit the shared pieces they all use: [`diagnostic`],
//! [`project`] (confined file access), [`folders`] (walks reading each folder once per run), [`memo`], [`tokens`], [`models`], [`systems`],
//! [`runtimes`] (one folder per runtime, a file per role, and the table that dispatches them), [`tools`],
//! [`providers`] (how each provider renders tools and messages), [`counts`] (counts recorded
//! from the providers' counting endpoints),
//! [`skills`], [`mcp_record`] (the MCP servers' tool lists `ctxc mcp record` wrote), [`agent_files`], [`yaml`], [`places`] (where each key and value of a JSON, TOML or
//! YAML text is written). The library never prints; the `ctxc` binary parses arguments and prints
//! what the library returns.

// The library returns data; only the binary writes, through one writer (src/cli/output.rs).
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod agent_files;
pub mod checks;
pub mod codes;
pub mod conversation;
pub mod counts;
pub mod diagnostic;
pub mod discover;
pub mod editor;
pub mod folders;
pub mod hosts;
pub mod hostview;
pub mod import;
pub mod lint;
pub mod manifest;
pub mod mcp;
pub mod mcp_record;
pub mod measure;
pub mod memo;
pub mod models;
pub mod parallel;
pub mod places;
pub mod project;
pub mod provenance;
pub mod providers;
pub mod render;
pub mod report;
pub mod resolve;
pub mod review;
pub mod rules;
pub mod runtimes;
pub mod scaffold;
pub mod schema;
pub mod session;
pub mod simulate;
pub mod skills;
pub mod systems;
pub mod templates;
pub mod tokenizer_files;
pub mod tokens;
pub mod tools;
pub mod upstream;
pub mod yaml;

use std::path::Path;

pub use diagnostic::{Diagnostic, Failure, Severity, Sources};
pub use render::Rendered;
pub use review::snapshot::snapshot_text;
pub use session::Session;

/// Loads the manifest at `manifest_path` and renders one mode in one scenario (the default
/// scenario when `None`): the whole pipeline in one call, for snapshot tests.
pub fn render_mode(manifest_path: &Path, mode: &str, scenario: Option<&str>) -> Result<Rendered, Failure> {
    let session = Session::default();
    let loaded = session.load(manifest_path)?;
    session.render(&loaded, mode, scenario).map_err(|diagnostics| Failure { diagnostics, sources: loaded.sources.clone() })
}
