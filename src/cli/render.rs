//! `ctxc render`: print the exact system prompt of one mode.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::report::Reporter;
use super::{find_manifests, load, output, session, EXIT_INPUT, EXIT_OK};
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
    /// Override a manifest key for this run, e.g. `--set agent.model=gpt-4.1` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    #[command(flatten)]
    pub tokenizers: super::TokenizerOptions,
    /// Model to use instead of each agent's own `model` (as `--set agent.model=MODEL`).
    #[arg(long)]
    model: Option<String>,
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
    let session = match session(&super::with_model(args.set.clone(), args.model.as_deref()), &args.tokenizers, reporter) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let agent_name = |manifest: &Path| session.load(manifest).ok().map(|loaded| loaded.agent.name.clone());
    let manifest = match pick_agent(&manifests, args.agent.as_deref(), agent_name) {
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
    let mode = match (&args.mode, agent.modes.len()) {
        (Some(mode), _) => mode.clone(),
        (None, 1) => agent.modes.keys().next().cloned().unwrap_or_default(),
        (None, _) => {
            let modes: Vec<&str> = agent.modes.keys().map(String::as_str).collect();
            let d = Diagnostic::error(format!("agent `{}` has several modes: pass --mode", agent.name))
                .help(format!("modes: {}", modes.join(", ")));
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

/// The agent `--agent` names: by its folder's name, or else by its `[agent] name` (which needs
/// loading each manifest, so it is tried second).
fn pick_agent(manifests: &[PathBuf], wanted: Option<&str>, agent_name: impl Fn(&Path) -> Option<String>) -> Result<PathBuf, Diagnostic> {
    let dir_name = |m: &PathBuf| m.parent().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned());
    match (manifests, wanted) {
        ([only], None) => Ok(only.clone()),
        (_, Some(name)) => {
            let by_folder = manifests.iter().find(|m| dir_name(m).as_deref() == Some(name));
            by_folder.or_else(|| manifests.iter().find(|m| agent_name(m).as_deref() == Some(name))).cloned().ok_or_else(|| {
                let names: Vec<String> = manifests.iter().filter_map(dir_name).collect();
                Diagnostic::error(format!("no agent `{name}` here (by folder or by `[agent] name`)"))
                    .help(format!("agent folders: {}", names.join(", ")))
            })
        }
        _ => {
            let names: Vec<String> = manifests.iter().filter_map(dir_name).collect();
            Err(Diagnostic::error("this directory holds several agents: pass --agent NAME").help(format!("agents: {}", names.join(", "))))
        }
    }
}
