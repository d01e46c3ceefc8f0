//! `ctxc cost`: token accounting per mode (steps, tool schemas, window), or per tool for a bare
//! MCP `tools/list` result / OpenAI tools array.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::report::Reporter;
use super::{check_path, find_manifests, output, AgentRun, EXIT_INPUT, EXIT_OK};
use ctxc::diagnostic::Diagnostic;
use ctxc::measure::{cost_tool_list, Measured};
use ctxc::models::profile;
use ctxc::session::Only;
use ctxc::tokens::TokenCounter;
use ctxc::Session;

#[derive(Debug, Args)]
pub struct CostArgs {
    /// Agent directory, manifest, directory of agents, or a tool file / directory of tool files.
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Only this mode.
    #[arg(long, short)]
    mode: Option<String>,
    /// Only this scenario (default: every scenario).
    #[arg(long, short)]
    scenario: Option<String>,
    /// Model whose tokenizer costs bare tool files (manifests use their own model).
    #[arg(long, default_value = "gpt-4o")]
    model: String,
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
    let session = Session::new([env.as_slice(), args.set.as_slice()].concat());
    let only = Only { mode: args.mode.as_deref(), scenario: args.scenario.as_deref() };
    let runs = session.each(&manifests, |manifest| AgentRun::new(&session, manifest, only));
    let mut reports: Vec<Measured> = Vec::new();
    for run in runs {
        let code = run.report_problems(reporter);
        if code != EXIT_OK {
            return code;
        }
        reports.extend(run.measured);
    }
    match args.format {
        CostFormat::Json => {
            // Written as it is serialized: the reports of a large project are never held as text.
            #[derive(serde::Serialize)]
            struct CostJson<'a> {
                env_overrides: &'a [String],
                overrides: &'a [String],
                reports: &'a [Measured],
            }
            output::print_with(|out| {
                serde_json::to_writer_pretty(&mut *out, &CostJson { env_overrides: &env, overrides: &args.set, reports: &reports })?;
                writeln!(out)
            });
        }
        CostFormat::Text => output::print(&reports.iter().map(|m| ctxc::report::cost::text(m, false)).collect::<Vec<_>>().join("\n")),
        CostFormat::Markdown => output::print(&reports.iter().map(|m| ctxc::report::cost::text(m, true)).collect::<Vec<_>>().join("\n")),
        CostFormat::Html => output::print(&ctxc::report::html::cost_report(&reports)),
    }
    EXIT_OK
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
    let model = profile(&args.model);
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
    let costs = cost_tool_list(&tools.iter().collect::<Vec<_>>(), &model, &TokenCounter::new());
    match args.format {
        CostFormat::Json => {
            let mut rows: Vec<_> = costs.tools.iter().map(|t| serde_json::json!({ "name": t.name, "tokens": t.tokens })).collect();
            rows.sort_by(|a, b| {
                b["tokens"]["tokens"].as_i64().cmp(&a["tokens"]["tokens"].as_i64()).then(a["name"].as_str().cmp(&b["name"].as_str()))
            });
            let value = serde_json::json!({
                "model": args.model, "tokenizer": model.tokenizer.name(), "rendering": costs.rendering, "exact": costs.exact,
                "method": costs.method, "tools": rows, "framing": costs.framing, "preamble": costs.preamble, "joins": costs.joins,
                "total": costs.total,
            });
            output::println(&serde_json::to_string_pretty(&value).unwrap_or_default());
        }
        CostFormat::Html => output::print(&ctxc::report::html::tools_report(&model, &costs)),
        CostFormat::Text | CostFormat::Markdown => {
            output::print(&ctxc::report::cost::tools_text(&model, &costs, args.format == CostFormat::Markdown))
        }
    }
    EXIT_OK
}
