//! `ctxc cost`: token accounting per mode (steps, tool schemas, window, budgets), or per tool
//! for bare tool files (every format [`ctxc::tools`] reads) and directories of them.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::report::Reporter;
use super::{check_path, find_manifests, output, AgentRun, EXIT_INPUT, EXIT_OK};
use ctxc::diagnostic::Code;
use ctxc::measure::ToolFiles;
use ctxc::models::profile;
use ctxc::report::cost::{tool_rows, Costed, ToolFilesJson};
use ctxc::session::Only;
use ctxc::Session;

#[derive(Debug, Args)]
pub struct CostArgs {
    #[command(flatten)]
    pub color: super::ColorOption,
    /// Agent directory, manifest, directory of agents, or a tool file / directory of tool files (for gpt-4o unless --model).
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Only this mode.
    #[arg(long, short)]
    mode: Option<String>,
    /// Only this scenario (default: every scenario).
    #[arg(long, short)]
    scenario: Option<String>,
    #[command(flatten)]
    overrides: super::AgentOverrides,
    #[arg(long, value_enum, default_value_t = CostFormat::Text)]
    format: CostFormat,
    #[command(flatten)]
    hosts: super::HostArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CostFormat {
    Text,
    Json,
    Markdown,
    /// One self-contained HTML file (inline CSS and SVG; light and dark themes).
    Html,
}

pub fn run(args: CostArgs, reporter: &Reporter) -> u8 {
    // Tool files are looked for at PATH before agents: it is checked for both.
    if let Err(code) = check_path(&args.path, reporter) {
        return code;
    }
    let no_manifest = args.path.is_dir() && ctxc::discover::find_manifests(&args.path).is_err();
    if args.hosts.given() || no_manifest {
        if let Some(code) = host_view(&args, reporter) {
            return code;
        }
    }
    if let Some(input) = ToolFiles::named_by(&args.path) {
        return cost_tools(&args, &input, reporter);
    }
    let manifests = match find_manifests(&args.path, reporter) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let env = match super::env_overrides(reporter) {
        Ok(env) => env,
        Err(code) => return code,
    };
    let session = args.overrides.tokenizers.session(args.overrides.after([env.as_slice(), args.overrides.set.set.as_slice()].concat()));
    let only = Only { mode: args.mode.as_deref(), scenario: args.scenario.as_deref() };
    // The HTML report charts each declared workload; the other formats do not simulate.
    let workloads = args.format == CostFormat::Html;
    let runs = session.each_run(&manifests, only, |run| AgentRun::new(&session, run, workloads));
    // Per agent, its reports: the text summary compares one agent's modes.
    let mut agents: Vec<Vec<Costed>> = Vec::new();
    for run in runs {
        let code = run.report_problems(reporter);
        if code != EXIT_OK {
            return code;
        }
        agents.push(run.reports);
    }
    let reports: Vec<&Costed> = agents.iter().flatten().collect();
    let report = std::time::Instant::now();
    match args.format {
        CostFormat::Json => {
            // The reports, written on all cores a batch at a time, follow the run's settings.
            let json = ctxc::report::cost::CostJson {
                env_overrides: &env,
                model: args.overrides.model.as_deref(),
                overrides: &args.overrides.set.set,
                reports: &reports,
            };
            output::print_with(|out| {
                json.write(&mut *out)?;
                writeln!(out)
            });
        }
        CostFormat::Text | CostFormat::Markdown => {
            let md = args.format == CostFormat::Markdown;
            let mut parts: Vec<String> = args.overrides.model.iter().map(|model| model_note(model, md)).collect();
            for reports in &agents {
                parts.extend(reports.iter().map(|c| ctxc::report::cost::text(c, md)));
                if reports.len() > 1 {
                    parts.push(ctxc::report::cost::summary(reports, md));
                }
            }
            output::print(&parts.join("\n"));
        }
        CostFormat::Html => output::print(&ctxc::report::html::cost_report(&reports, args.overrides.model.as_deref())),
    }
    super::print_timings(&session, report);
    super::keep_until_exit((agents, session));
    EXIT_OK
}

/// The host view (see [`ctxc::hostview`]): what each host asked for (`--host`), or each host
/// whose files the repository has, loads at session start. `None` when no host was asked for and
/// the repository has none of their files: PATH is then costed as before (tool files).
fn host_view(args: &CostArgs, reporter: &Reporter) -> Option<u8> {
    let usage = |message: String, help: String| {
        reporter.diagnostics(&[ctxc::Diagnostic::error(message).help(help)], &ctxc::Sources::default());
        Some(EXIT_INPUT)
    };
    let (hosts, explicit) = match args.hosts.hosts() {
        Ok(found) => found,
        Err((message, help)) => return usage(message, help),
    };
    if explicit && (args.mode.is_some() || args.scenario.is_some()) {
        return usage("--mode and --scenario are a manifest's: the host view has neither".into(), "leave them out with --host".into());
    }
    if !args.path.is_dir() {
        return usage(format!("{}: the host view reads a directory", args.path.display()), "give the repository's folder as PATH".into());
    }
    let root = match ctxc::project::ProjectRoot::new(&args.path) {
        Ok(root) => root,
        Err(e) => {
            reporter.diagnostics(&[e.into_diagnostic()], &ctxc::Sources::default());
            return Some(EXIT_INPUT);
        }
    };
    let from = match args.hosts.from(&root) {
        Ok(from) => from,
        Err((message, help)) => return usage(message, help),
    };
    let session = Session::default();
    let model = args.overrides.model.as_deref().map(profile);
    let mut found = ctxc::hostview::views(&root, &from, &hosts, model.as_ref(), session.counter());
    if !found.views.iter().any(|v| explicit || v.shown_by_default()) {
        reporter.diagnostics(&found.problems, &ctxc::Sources::default());
        return None;
    }
    if let Some(flag) = args.overrides.tokenizers.given().find(|flag| *flag != "--tokenizer") {
        return usage(
            format!("{flag} is for a manifest's agents: the host view renders no request and looks for no tokenizer file"),
            "give the model's own tokenizer file with --tokenizer and --model, or leave it out".into(),
        );
    }
    // A tokenizer file is one model's, not each host's: counted for the model --model names.
    if let Some(path) = &args.overrides.tokenizers.tokenizer {
        let Some(mut model) = model else {
            return usage(
                "--tokenizer needs --model in the host view: each host counts for its own model, and a tokenizer file is one model's"
                    .into(),
                "name the model the file is for with --model".into(),
            );
        };
        if let Err(code) = count_with_file(&session, &mut model, path, reporter) {
            return Some(code);
        }
        found = ctxc::hostview::views(&root, &from, &hosts, Some(&model), session.counter());
    }
    reporter.diagnostics(&found.problems, &ctxc::Sources::default());
    let views: Vec<_> = found.views.into_iter().filter(|v| explicit || v.shown_by_default()).collect();
    // A host asked for whose files the repository lacks: said on stderr, exit 2 (nothing costed).
    let absent: Vec<ctxc::Diagnostic> = views
        .iter()
        .filter(|v| v.found_nothing())
        .map(|v| {
            ctxc::Diagnostic::error(format!(
                "no {} files in `{}`: {} loads nothing from it at session start",
                v.name,
                args.path.display(),
                v.name
            ))
            .help(format!("data/hosts/{}.toml lists the files ctxc looks for (docs/host-view.md)", v.host))
        })
        .collect();
    reporter.diagnostics(&absent, &ctxc::Sources::default());
    let shown: Vec<_> = views.iter().filter(|v| !v.found_nothing()).collect();
    match args.format {
        CostFormat::Json => output::print_json(&ctxc::report::escape::json_text(&serde_json::json!({ "hosts": views }))),
        _ if shown.is_empty() => {}
        CostFormat::Html => output::print(&ctxc::report::html::hosts_report(&shown)),
        _ => output::print(&ctxc::report::host_view::text(&shown, args.format == CostFormat::Markdown)),
    }
    Some(if found.problems.is_empty() && absent.is_empty() { EXIT_OK } else { EXIT_INPUT })
}

/// Counts `model` with the `--tokenizer` file at `path` in `session` from now on; when it cannot
/// be read or is not the model's, reported (MAN010), with the exit code.
fn count_with_file(
    session: &Session,
    model: &mut ctxc::models::ModelProfile,
    path: &std::path::Path,
    reporter: &Reporter,
) -> Result<(), u8> {
    let shown = path.display().to_string();
    let located = ctxc::project::locate_path(path, &shown, ctxc::tokenizer_files::MAX_TOKENIZER_BYTES).map_err(|e| e.message());
    match located.and_then(|path| session.count_with_file(model, &path, &shown, "given by --tokenizer".into(), None)) {
        Ok(()) => {
            reporter.diagnostics(&ctxc::session::file_warnings(model, &shown), &ctxc::Sources::default());
            Ok(())
        }
        Err(message) => {
            let d = ctxc::Diagnostic::error(format!("tokenizer file (--tokenizer): {message}"))
                .code(Code::MAN010)
                .help("give the model's own tokenizer file (with --model), or leave --tokenizer out to count a labelled estimate");
            reporter.diagnostics(&[d], &ctxc::Sources::default());
            Err(EXIT_INPUT)
        }
    }
}

/// The header line saying every agent is costed for `--model`, not its own model.
fn model_note(model: &str, md: bool) -> String {
    let note = format!("model {model} (--model): every agent is costed for this model instead of its own `model`");
    if md {
        format!("> {note}\n")
    } else {
        format!("{note}\n")
    }
}

/// Costs bare tool files (see [`ctxc::measure::cost_tool_files`]) and prints the report. The exit
/// code is 2 when any error was reported, 0 otherwise; one file that cannot be read, or a
/// directory with nothing costed, prints no report, except with `--format json`, which always
/// describes the run, the problems in it.
fn cost_tools(args: &CostArgs, input: &ToolFiles, reporter: &Reporter) -> u8 {
    let model_name = args.overrides.model.as_deref().unwrap_or("gpt-4o");
    let session = Session::default();
    let mut model = profile(model_name);
    if let Some(path) = &args.overrides.tokenizers.tokenizer {
        // As for agents: the file must be the model's, or nothing is costed.
        if let Err(code) = count_with_file(&session, &mut model, path, reporter) {
            return code;
        }
    }
    let cost = session.cost_tool_files(input, model);
    let exit = if cost.failed() { EXIT_INPUT } else { EXIT_OK };
    reporter.diagnostics(&cost.problems, &cost.sources);
    if exit != EXIT_OK && args.format != CostFormat::Json && (input.dir.is_none() || cost.files.is_empty()) {
        return exit;
    }
    let rows = tool_rows(&cost);
    match args.format {
        CostFormat::Json => output::print_json(&ctxc::report::escape::json_text(&ToolFilesJson::new(model_name, &cost, &rows))),
        CostFormat::Html => output::print(&ctxc::report::html::tools_report(&cost.model, &cost.costs, &rows)),
        CostFormat::Text | CostFormat::Markdown => {
            output::print(&ctxc::report::cost::tools_text(&cost.model, &cost.costs, &rows, args.format == CostFormat::Markdown))
        }
    }
    exit
}
