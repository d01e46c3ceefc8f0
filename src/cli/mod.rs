//! The command line: argument parsing and one file per command. This is the only place that
//! prints; everything below returns data.

mod check;
mod cost;
mod explain;
mod formats;
mod models;
mod render;
mod report;
mod rules;
mod schema;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::manifest::{self, Loaded};
use report::Reporter;

/// Exit code: everything is fine.
pub const EXIT_OK: u8 = 0;
/// Exit code: findings (lint errors, budget overruns, drift).
pub const EXIT_FINDINGS: u8 = 1;
/// Exit code: input that cannot be loaded, or a usage error.
pub const EXIT_INPUT: u8 = 2;

#[derive(Debug, Parser)]
#[command(name = "ctxc", version, about = "The agent context compiler: render, measure and check every mode's system prompt.")]
pub struct Cli {
    /// When to use colour in diagnostics.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stderr is a terminal and NO_COLOR is not set.
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the exact system prompt of one mode.
    Render(render::RenderArgs),
    /// Render, measure and lint every agent, mode and scenario (or, with no manifest, every SKILL.md, AGENTS.md and CLAUDE.md).
    Check(check::CheckArgs),
    /// Token costs per mode: steps, tool schemas per category, server and tool, and the window.
    Cost(cost::CostArgs),
    /// List the model profiles (window, max output, tokenizer).
    Models(models::ModelsArgs),
    /// Print the JSON Schema of the manifest.
    Schema,
    /// List the rules `check` applies: code, name, family, default severity, summary.
    Rules(rules::RulesArgs),
    /// Print the documentation of one rule.
    Explain(explain::ExplainArgs),
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { EXIT_INPUT } else { EXIT_OK });
        }
    };
    let reporter = Reporter::new(cli.color);
    let code = match cli.command {
        Command::Render(args) => render::run(args, &reporter),
        Command::Check(args) => check::run(args, &reporter),
        Command::Cost(args) => cost::run(args, &reporter),
        Command::Models(args) => models::run(args),
        Command::Schema => schema::run(),
        Command::Rules(args) => rules::run(args, &reporter),
        Command::Explain(args) => explain::run(args, &reporter),
    };
    ExitCode::from(code)
}

/// Diagnostics as ctxc prints them, without colour (for tests and embedding).
pub fn render_plain(diagnostics: &[crate::diagnostic::Diagnostic], sources: &crate::diagnostic::Sources) -> String {
    Reporter::new(ColorChoice::Never).render(diagnostics, sources)
}

/// The agents found at a path, or the exit code after reporting why none could be.
fn find_manifests(path: &Path, reporter: &Reporter) -> Result<Vec<PathBuf>, u8> {
    crate::discover::find_manifests(path).map_err(|d| {
        reporter.diagnostics(&[d], &Default::default());
        EXIT_INPUT
    })
}

/// Loads one agent, reporting warnings; on failure reports and returns the exit code.
fn load(manifest_path: &Path, reporter: &Reporter) -> Result<Loaded, u8> {
    load_with(manifest_path, &[], reporter)
}

/// Like [`load`], with `--set KEY=VALUE` overrides laid over the manifest.
fn load_with(manifest_path: &Path, overrides: &[String], reporter: &Reporter) -> Result<Loaded, u8> {
    match manifest::load_with(manifest_path, overrides) {
        Ok(loaded) => {
            reporter.diagnostics(&loaded.warnings, &loaded.sources);
            Ok(loaded)
        }
        Err(failure) => {
            reporter.diagnostics(&failure.diagnostics, &failure.sources);
            Err(EXIT_INPUT)
        }
    }
}
