//! `ctxc simulate`: a transcript or a workload replayed through the context policy of each
//! agent's runtime, model call by model call ([`ctxc::simulate`]).

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::report::Reporter;
use super::{find_manifests, output, EXIT_INPUT, EXIT_OK};
use ctxc::conversation::{Conversation, DEFAULT_SUMMARY_CHARS};
use ctxc::session::Only;
use ctxc::simulate::replay::{self, Input};

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

/// The conversation, with its file as shown and its text (where a simulation over the budget is
/// reported).
fn read_conversation(args: &SimulateArgs, reporter: &Reporter) -> Result<(Conversation, String, ctxc::diagnostic::Sources), u8> {
    let input = match (&args.workload, &args.transcript) {
        (Some(w), _) => Input::Workload(w),
        (None, Some(t)) => Input::Transcript(t, args.summary_chars),
        (None, None) => unreachable!("clap requires one"),
    };
    let shown = match &input {
        Input::Workload(path) | Input::Transcript(path, _) => path.display().to_string(),
    };
    let (conversation, sources) = replay::read(input, &shown).map_err(|failure| {
        reporter.diagnostics(&failure.diagnostics, &failure.sources);
        EXIT_INPUT
    })?;
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
    let replays = replay::replay(&session, &manifests, only, &conversation, &shown, &sources);
    for warnings in &replays.warnings {
        reporter.diagnostics(&warnings.diagnostics, &warnings.sources);
    }
    if let Some(failure) = &replays.failure {
        reporter.diagnostics(&failure.diagnostics, &failure.sources);
        return EXIT_INPUT;
    }
    let simulations = replays.simulations;
    match args.format {
        SimulateFormat::Json => {
            let json = replay::SimulateJson {
                overrides: &args.overrides.set.set,
                model: args.overrides.model.as_deref(),
                simulations: &simulations,
            };
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
