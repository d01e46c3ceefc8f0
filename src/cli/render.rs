//! `ctxc render`: print the exact system prompt of one mode.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::report::Reporter;
use super::{find_manifests, load, output, EXIT_INPUT, EXIT_OK};
use ctxc::checks::leaks::Leaks;
use ctxc::diagnostic::{Diagnostic, Severity};
use ctxc::manifest::Loaded;

#[derive(Debug, Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub color: super::ColorOption,
    /// Agent directory or manifest file (default: the current directory).
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Mode to render (may be left out when the agent has one mode).
    #[arg(long, short)]
    mode: Option<String>,
    /// Scenario to render (default: `default`, or the first declared).
    #[arg(long, short)]
    scenario: Option<String>,
    /// Which agent, when PATH holds several: its folder's name or its `[agent] name`.
    #[arg(long)]
    agent: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RenderFormat::Text)]
    format: RenderFormat,
    /// Instead of the prompt, list every step: on or off, and what decided it.
    #[arg(long)]
    steps: bool,
    #[command(flatten)]
    overrides: super::AgentOverrides,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RenderFormat {
    /// The prompt text.
    Text,
    /// Agent, mode, scenario, sections, steps and tools (see docs/json-output.md).
    Json,
}

pub fn run(args: RenderArgs, reporter: &Reporter) -> u8 {
    let manifests = match find_manifests(&args.path, reporter) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let session = match args.overrides.session(reporter) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let agent_name = |manifest: &Path| session.load(manifest).ok().map(|loaded| loaded.agent.name.clone());
    let manifest = match ctxc::discover::pick_agent(&manifests, args.agent.as_deref(), agent_name) {
        Ok(m) => m,
        Err(d) => {
            reporter.diagnostics(&[d], &Default::default());
            return EXIT_INPUT;
        }
    };
    let loaded = match load(&session, &manifest, reporter) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let agent = &loaded.agent;
    let mode = match ctxc::render::mode_to_render(agent, args.mode.as_deref()) {
        Ok(mode) => mode,
        Err(d) => {
            reporter.diagnostics(&[d], &loaded.sources);
            return EXIT_INPUT;
        }
    };
    let rendered = match session.render(&loaded, &mode, args.scenario.as_deref()) {
        Ok(r) => r,
        Err(diagnostics) => {
            reporter.diagnostics(&diagnostics, &loaded.sources);
            return EXIT_INPUT;
        }
    };
    let prompt = rendered.prompt();
    match (args.format, args.steps) {
        (RenderFormat::Json, _) => output::print_json(&ctxc::report::prompt::to_json(&rendered)),
        (RenderFormat::Text, true) => output::print(&ctxc::report::prompt::steps_table(&rendered)),
        // The prompt exactly, as the model gets it: the user's own preview.
        (RenderFormat::Text, false) => output::print_exact(&format!("{prompt}\n")),
    }
    // The steps table is the one output without the prompt in it.
    if args.format == RenderFormat::Json || !args.steps {
        warn_of_secrets(&prompt, &loaded, reporter);
    }
    super::keep_until_exit((rendered, loaded, session));
    EXIT_OK
}

/// The prompt is printed as asked (it is the user's own preview), but a secret in it is named on
/// stderr, masked, since this output is the one place where ctxc shows it in full.
fn warn_of_secrets(prompt: &str, loaded: &Loaded, reporter: &Reporter) {
    let mut leaks = Leaks::default();
    leaks.scan("<rendered prompt>", prompt, loaded);
    let warnings: Vec<Diagnostic> = leaks
        .leaks
        .into_iter()
        .map(|leak| {
            let mut d = leak.finding;
            d.severity = Severity::Warning;
            d.message = format!("the prompt on stdout holds {}, unmasked", d.message);
            d.help("this output is the prompt exactly, secrets included: keep it out of logs, issues and commits; remove the secret from the prompt sources and rotate it")
        })
        .collect();
    reporter.diagnostics(&warnings, &leaks.sources);
}
