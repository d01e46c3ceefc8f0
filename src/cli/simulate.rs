//! `ctxc simulate`: a transcript or a workload replayed through the context policy of each
//! agent's runtime, model call by model call ([`ctxc::simulate`]).

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::report::Reporter;
use super::{find_manifests, output, EXIT_INPUT, EXIT_OK};
use ctxc::session::Only;
use ctxc::simulate::conversation::{self, Conversation, DEFAULT_SUMMARY_CHARS};
use ctxc::simulate::{Budget, Simulation};

#[derive(Debug, Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    pub color: super::ColorOption,
    /// Agent directory, manifest, or directory of agents.
    #[arg(default_value = ".")]
    path: PathBuf,
    /// The mode to simulate (default: every mode).
    #[arg(long, short)]
    mode: Option<String>,
    /// The scenario (default: the first one).
    #[arg(long, short)]
    scenario: Option<String>,
    /// A transcript: OpenAI chat messages (a JSON array or JSON Lines), Anthropic messages, or a LangChain message dump.
    #[arg(long, conflicts_with = "workload", required_unless_present = "workload")]
    transcript: Option<PathBuf>,
    /// A workload spec (TOML; see docs/simulate.md).
    #[arg(long)]
    workload: Option<PathBuf>,
    /// Characters of each summary the model writes, for a transcript (a workload says its own).
    #[arg(long, default_value_t = DEFAULT_SUMMARY_CHARS)]
    summary_chars: u64,
    /// Every model call, not only those where the policy acted and each turn's last.
    #[arg(long, short)]
    verbose: bool,
    #[command(flatten)]
    overrides: super::AgentOverrides,
    #[arg(long, value_enum, default_value_t = SimulateFormat::Text)]
    format: SimulateFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SimulateFormat {
    Text,
    Json,
    /// The cost report's HTML with the context chart of each simulation.
    Html,
}

/// A transcript or workload over this size is refused.
const MAX_INPUT_BYTES: u64 = 64 << 20;

/// The conversation, with its file as shown and its text (where a simulation over the budget is
/// reported).
fn read_conversation(args: &SimulateArgs, reporter: &Reporter) -> Result<(Conversation, String, ctxc::diagnostic::Sources), u8> {
    let (path, is_workload) = match (&args.workload, &args.transcript) {
        (Some(w), _) => (w, true),
        (None, Some(t)) => (t, false),
        (None, None) => unreachable!("clap requires one"),
    };
    let shown = path.display().to_string();
    let fail = |message: String| {
        reporter.diagnostics(&[ctxc::Diagnostic::error(message).in_file(&shown)], &Default::default());
        EXIT_INPUT
    };
    // A regular file of bounded size, read without blocking (a FIFO or a device is refused).
    let resolved = std::fs::canonicalize(path).map_err(|e| fail(format!("cannot read {shown}: {e}")))?;
    let bytes = ctxc::project::read_bytes(&resolved, &shown, MAX_INPUT_BYTES).map_err(|e| fail(e.message()))?;
    let text = String::from_utf8(bytes).map_err(|_| fail(format!("{shown} is not UTF-8 text")))?;
    let read = match is_workload {
        true => conversation::workload(&shown, &text),
        false => conversation::transcript(&shown, &text, args.summary_chars),
    };
    let conversation = read.map_err(|failure| {
        reporter.diagnostics(&failure.diagnostics, &failure.sources);
        EXIT_INPUT
    })?;
    let mut sources = ctxc::diagnostic::Sources::default();
    sources.insert(&shown, &text);
    reporter.diagnostics(&conversation.warnings, &sources);
    Ok((conversation, shown, sources))
}

pub fn run(args: SimulateArgs, reporter: &Reporter) -> u8 {
    let (conversation, shown, sources) = match read_conversation(&args, reporter) {
        Ok(read) => read,
        Err(code) => return code,
    };
    let manifests = match find_manifests(&args.path, reporter) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let session = match args.overrides.session(reporter) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let only = Only { mode: args.mode.as_deref(), scenario: args.scenario.as_deref() };
    let mut simulations: Vec<Simulation> = Vec::new();
    let mut budget = Budget::default();
    for manifest in &manifests {
        let runs = match session.run(manifest, only) {
            Ok(runs) => runs,
            Err(failure) => {
                reporter.diagnostics(&failure.diagnostics, &failure.sources);
                return EXIT_INPUT;
            }
        };
        reporter.diagnostics(&runs.loaded.warnings, &runs.loaded.sources);
        if !runs.problems.is_empty() {
            reporter.diagnostics(&runs.problems, &runs.loaded.sources);
            return EXIT_INPUT;
        }
        // One scenario per mode: the one asked for, or the first.
        let mut seen = Vec::new();
        for run in &runs.runs {
            if args.scenario.is_none() && seen.contains(&run.rendered.mode) {
                continue;
            }
            seen.push(run.rendered.mode.clone());
            match ctxc::simulate::simulate(&runs.loaded.agent, &run.rendered, &run.measured, session.counter(), &conversation, &mut budget)
            {
                Ok(simulation) => simulations.push(simulation),
                Err(why) => {
                    let d = ctxc::Diagnostic::error(format!("{shown} is not simulated to its end: {why}")).in_file(&shown).at(Some(0..0));
                    reporter.diagnostics(&[d], &sources);
                    return EXIT_INPUT;
                }
            }
        }
        if let Some(failure) = session.file_failure(&runs.loaded) {
            reporter.diagnostics(&[failure], &runs.loaded.sources);
            return EXIT_INPUT;
        }
    }
    match args.format {
        SimulateFormat::Json => {
            #[derive(serde::Serialize)]
            struct SimulateJson<'a> {
                overrides: &'a [String],
                model: Option<&'a str>,
                simulations: &'a [Simulation],
            }
            let json =
                SimulateJson { overrides: &args.overrides.set.set, model: args.overrides.model.as_deref(), simulations: &simulations };
            output::print_with(|out| {
                ctxc::report::escape::write_json(&mut *out, &json)?;
                writeln!(out)
            });
        }
        SimulateFormat::Text => {
            let parts: Vec<String> = simulations.iter().map(|s| ctxc::report::simulate::text(s, args.verbose)).collect();
            output::print(&parts.join("\n"));
        }
        SimulateFormat::Html => output::print(&ctxc::report::simulate::html(&simulations)),
    }
    EXIT_OK
}
