//! `ctxc cost`: token accounting per mode (steps, tool schemas, window, budgets), or per tool for a bare
//! MCP `tools/list` result / OpenAI tools array.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::report::Reporter;
use super::{check_path, find_manifests, output, AgentRun, EXIT_INPUT, EXIT_OK};
use ctxc::diagnostic::Diagnostic;
use ctxc::measure::{cost_tool_array, Count};
use ctxc::models::profile;
use ctxc::report::cost::Costed;
use ctxc::session::Only;
use ctxc::tokens::TokenCounter;
use ctxc::Session;

#[derive(Debug, Args)]
pub struct CostArgs {
    #[command(flatten)]
    pub color: super::ColorOption,
    #[command(flatten)]
    pub counting: super::CountingOptions,
    /// Agent directory, manifest, directory of agents, or a tool file / directory of tool files.
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Only this mode.
    #[arg(long, short)]
    mode: Option<String>,
    /// Only this scenario (default: every scenario).
    #[arg(long, short)]
    scenario: Option<String>,
    /// Model to cost for: overrides each agent's `model` (as `--set agent.model=MODEL`); for bare tool files, the default is gpt-4o.
    #[arg(long)]
    model: Option<String>,
    /// Override a manifest key for this run, e.g. `--set budgets.system_prompt=3000` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    #[arg(long, value_enum, default_value_t = CostFormat::Text)]
    format: CostFormat,
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
    if let Some(files) = tool_files(&args.path) {
        return cost_tools(&args, &files, reporter);
    }
    let manifests = match find_manifests(&args.path, reporter) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let env = match super::env_overrides(reporter) {
        Ok(env) => env,
        Err(code) => return code,
    };
    let session = Session::new(super::with_model([env.as_slice(), args.set.as_slice()].concat(), args.model.as_deref()));
    let only = Only { mode: args.mode.as_deref(), scenario: args.scenario.as_deref() };
    let runs = session.each(&manifests, |manifest| AgentRun::new(&session, manifest, only));
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
    match args.format {
        CostFormat::Json => {
            // Written as it is serialized: the reports of a large project are never held as text.
            #[derive(serde::Serialize)]
            struct CostJson<'a> {
                env_overrides: &'a [String],
                model: Option<&'a str>,
                overrides: &'a [String],
                reports: &'a [&'a Costed],
            }
            let json = CostJson { env_overrides: &env, model: args.model.as_deref(), overrides: &args.set, reports: &reports };
            output::print_with(|out| {
                serde_json::to_writer_pretty(&mut *out, &json)?;
                writeln!(out)
            });
        }
        CostFormat::Text | CostFormat::Markdown => {
            let md = args.format == CostFormat::Markdown;
            let mut parts: Vec<String> = args.model.iter().map(|model| model_note(model, md)).collect();
            for reports in &agents {
                parts.extend(reports.iter().map(|c| ctxc::report::cost::text(c, md)));
                if reports.len() > 1 {
                    parts.push(ctxc::report::cost::summary(reports, md));
                }
            }
            output::print(&parts.join("\n"));
        }
        CostFormat::Html => output::print(&ctxc::report::html::cost_report(&reports, args.model.as_deref())),
    }
    EXIT_OK
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

/// Tool files named by PATH: a `.json`/`.snap` file that is not a manifest, or a directory
/// without a manifest that holds such files.
fn tool_files(path: &Path) -> Option<Vec<PathBuf>> {
    let is_tool_file = |p: &Path| matches!(p.extension().and_then(|e| e.to_str()), Some("json" | "snap"));
    if path.is_file() {
        return is_tool_file(path).then(|| vec![path.to_path_buf()]);
    }
    if !path.is_dir() || ctxc::discover::find_manifests(path).is_ok() {
        return None;
    }
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(path)
        .follow_links(false)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && is_tool_file(e.path()))
        .map(|e| e.into_path())
        .collect();
    files.sort();
    (!files.is_empty()).then_some(files)
}

fn cost_tools(args: &CostArgs, files: &[PathBuf], reporter: &Reporter) -> u8 {
    let model_name = args.model.as_deref().unwrap_or("gpt-4o");
    let model = profile(model_name);
    let mut tools = Vec::new();
    let mut problems = Vec::new();
    let mut sources = ctxc::diagnostic::Sources::default();
    for file in files {
        let display = file.display().to_string();
        let text = match ctxc::project::ProjectRoot::read_path(file) {
            Ok(f) => f.text,
            Err(e) => {
                problems.push(Diagnostic::error(e.message()).in_file(display));
                continue;
            }
        };
        match ctxc::tools::parse_tool_file(&text) {
            Ok((_, parsed)) => tools.extend(parsed),
            Err((message, offset)) => problems.push(Diagnostic::error(message).in_file(&display).at(offset.map(|o| o..o))),
        }
        sources.insert_shared(display, text);
    }
    if !problems.is_empty() {
        reporter.diagnostics(&problems, &sources);
        return EXIT_INPUT;
    }
    let counter = TokenCounter::new();
    let (each, overhead, total) = cost_tool_array(&tools.iter().collect::<Vec<_>>(), &counter, model.tokenizer);
    let mut rows: Vec<(&str, Count)> = tools.iter().map(|t| t.name.as_str()).zip(each).collect();
    rows.sort_by(|a, b| b.1.tokens.cmp(&a.1.tokens).then(a.0.cmp(b.0)));
    if args.format == CostFormat::Json {
        let tools: Vec<_> = rows.iter().map(|(name, c)| serde_json::json!({ "name": name, "tokens": c })).collect();
        let value = serde_json::json!({
            "model": model_name, "tokenizer": model.tokenizer.name(), "exact": model.tokenizer.is_exact(),
            "method": ctxc::measure::TOOL_METHOD, "tools": tools, "overhead": overhead, "total": total,
        });
        output::println(&serde_json::to_string_pretty(&value).unwrap_or_default());
        return EXIT_OK;
    }
    if args.format == CostFormat::Html {
        output::print(&ctxc::report::html::tools_report(model_name, model.tokenizer.method(), &rows, overhead, total));
        return EXIT_OK;
    }
    output::print(&ctxc::report::cost::tools_text(
        model_name,
        model.tokenizer.method(),
        &rows,
        overhead,
        total,
        args.format == CostFormat::Markdown,
    ));
    EXIT_OK
}
