//! `ctxc check`: load every agent, render and measure every mode in every scenario, and report
//! budget overruns and lint findings (or, with no manifest, lint the SKILL.md, AGENTS.md and
//! CLAUDE.md files found). Exit 0 clean, 1 findings, 2 input that cannot be loaded.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::report::Reporter;
use super::{output, session, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK};
use ctxc::lint::{CheckReport, Options, Outcome};
use ctxc::report::formats;

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub color: super::ColorOption,
    #[command(flatten)]
    pub counting: super::CountingOptions,
    /// Agent directory, manifest file, directory of agents, or (no manifest) a directory of skills and memory files.
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Override a manifest key for this run, e.g. `--set budgets.system_prompt=3000` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Model to use instead of each agent's own `model` (as `--set agent.model=MODEL`).
    #[arg(long)]
    model: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    format: CheckFormat,
    /// Print findings only: no summary line, no notes.
    #[arg(long, short)]
    quiet: bool,
    /// Only report these rule codes or code prefixes (comma-separated or repeated; replaces `[lint] select`).
    #[arg(long, value_name = "CODES")]
    select: Vec<String>,
    /// Do not report these rule codes or code prefixes (comma-separated or repeated; added to `[lint] ignore`).
    #[arg(long, value_name = "CODES")]
    ignore: Vec<String>,
    /// Fail (exit 1) on warnings too.
    #[arg(long)]
    deny_warnings: bool,
    /// Validate SKILL.md files at the strict Agent Skills level (no fields outside the specification).
    #[arg(long)]
    strict: bool,
    /// Check only what changed since this git revision: the agents that load a changed file, and
    /// the changed agent files no agent loads (new and modified files, committed or not).
    #[arg(long, value_name = "REV")]
    changed_since: Option<String>,
    /// With PATH `-`: the path the text read from stdin stands for (its kind and its folder).
    #[arg(long, value_name = "PATH")]
    stdin_filename: Option<PathBuf>,
    /// Also fail (exit 1) when a render drifted from its ctxc.lock (written by `ctxc snapshot`):
    /// prints the token delta per section and a unified diff of the prompt text on stderr.
    #[arg(long)]
    locked: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CheckFormat {
    /// Diagnostics with source snippets on stderr (`human` is accepted too).
    #[value(alias = "human")]
    Text,
    /// One line per finding on stdout: `file:line:col: CODE message`.
    Concise,
    /// One JSON object on stdout (see docs/json-output.md).
    Json,
    /// SARIF 2.1.0 on stdout, for code scanning.
    Sarif,
    /// GitHub Actions annotations on stdout (and a summary in $GITHUB_STEP_SUMMARY).
    Github,
}

/// The most `ctxc check -` reads from stdin.
const STDIN_MAX_BYTES: u64 = 16 * 1024 * 1024;

pub fn exit_code(outcome: Outcome) -> u8 {
    match outcome {
        Outcome::Clean => EXIT_OK,
        Outcome::Findings => EXIT_FINDINGS,
        Outcome::Unloadable => EXIT_INPUT,
    }
}

pub fn run(mut args: CheckArgs, reporter: &Reporter) -> u8 {
    // A path leading out of the project is reported by `lint::check` and never walked from.
    if args.path.as_os_str() != "-" && ctxc::project::check_path_argument(&args.path).is_ok() {
        args.path = ctxc::discover::agent_folder(&args.path);
    }
    let session = match session(&super::with_model(args.set.clone(), args.model.as_deref()), reporter) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let mut options =
        Options { select: args.select, ignore: args.ignore, strict: args.strict, deny_warnings: args.deny_warnings, changed: None };
    if let Some(rev) = &args.changed_since {
        match ctxc::review::git::locate(&args.path).and_then(|repo| ctxc::review::git::changed_since(&repo, rev)) {
            Ok(changed) => options.changed = Some(std::sync::Arc::new(changed)),
            Err(e) => return reporter.usage(&format!("--changed-since {rev}: {e}")),
        }
    }
    let report: CheckReport = if args.path.as_os_str() == "-" {
        let Some(name) = &args.stdin_filename else {
            return reporter
                .usage("`ctxc check -` reads one agent file from stdin: name it with --stdin-filename PATH (e.g. skills/pdf/SKILL.md)");
        };
        match output::read_stdin(STDIN_MAX_BYTES) {
            Ok(text) => ctxc::lint::check_text(name, &text, &options, &session),
            Err(e) => return reporter.usage(&format!("cannot read stdin: {e}")),
        }
    } else {
        ctxc::lint::check(&args.path, &options, &session)
    };
    let mut code = exit_code(report.outcome());
    match args.format {
        CheckFormat::Text => reporter.diagnostics(&report.diagnostics, &report.sources),
        CheckFormat::Concise => output::print(&formats::concise::render(&report)),
        CheckFormat::Json => output::print(&formats::json::render(&report, code)),
        CheckFormat::Sarif => output::print(&formats::sarif::render(&report, &formats::Paths::detect())),
        CheckFormat::Github => {
            let paths = formats::Paths::detect();
            output::print(&formats::github::annotations(&report, &paths));
            if let Some(summary_file) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|v| !v.is_empty()) {
                let summary = formats::github::summary(&report, &paths);
                if let Err(e) = formats::github::append(&PathBuf::from(summary_file), &summary) {
                    output::eprint(&format!("ctxc: cannot write the step summary to $GITHUB_STEP_SUMMARY: {e}\n"));
                }
            }
        }
    }
    // `--locked`: the render against ctxc.lock (only when every agent loaded).
    let mut drifted = false;
    if args.locked && code < EXIT_INPUT {
        let locked = super::locked::run(&args.path, &session, reporter);
        drifted = locked == EXIT_FINDINGS;
        code = code.max(locked);
    }
    // The summary comes last, after everything it counts, on stderr, in the formats people read.
    if matches!(args.format, CheckFormat::Text | CheckFormat::Concise) && !args.quiet {
        let drift = if drifted { "; drifted from ctxc.lock" } else { "" };
        output::eprint(&format!("ctxc check: {}{drift}\n", report.summary()));
    }
    code
}
