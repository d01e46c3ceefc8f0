//! `ctxc cost`: token accounting per mode (steps, tool schemas, window, budgets), or per tool
//! for bare tool files (every format [`ctxc::tools`] reads) and directories of them.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::report::Reporter;
use super::{check_path, find_manifests, output, AgentRun, EXIT_INPUT, EXIT_OK};
use ctxc::diagnostic::{has_errors, Code, Diagnostic};
use ctxc::measure::cost_tool_list;
use ctxc::models::profile;
use ctxc::project::ReadError;
use ctxc::report::cost::{Costed, ToolRow};
use ctxc::session::Only;
use ctxc::tokens::TokenCounter;
use ctxc::tools::{Tool, ToolFileError, ToolFormat};

#[derive(Debug, Args)]
pub struct CostArgs {
    #[command(flatten)]
    pub color: super::ColorOption,
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
    #[command(flatten)]
    pub tokenizers: super::TokenizerOptions,
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
    if let Some(input) = tool_files(&args.path) {
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
    let session = args.tokenizers.session(super::with_model([env.as_slice(), args.set.as_slice()].concat(), args.model.as_deref()));
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
                ctxc::report::escape::write_json(&mut *out, &json)?;
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

/// Tool files named by PATH: a file that is not a manifest, or every file (outside hidden
/// folders) of a directory without manifests.
struct ToolInput {
    files: Vec<PathBuf>,
    /// The directory given, whose files are shown relative to it; `None` for one file.
    dir: Option<PathBuf>,
}

fn tool_files(path: &Path) -> Option<ToolInput> {
    if path.is_file() {
        return (!is_manifest_file(path)).then(|| ToolInput { files: vec![path.to_path_buf()], dir: None });
    }
    if !path.is_dir() || ctxc::discover::find_manifests(path).is_ok() {
        return None;
    }
    let hidden_dir = |e: &walkdir::DirEntry| e.depth() > 0 && e.file_type().is_dir() && e.file_name().to_string_lossy().starts_with('.');
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(path)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| !hidden_dir(e))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    files.sort();
    (!files.is_empty()).then(|| ToolInput { files, dir: Some(path.to_path_buf()) })
}

/// A manifest file: named as one, or a TOML or YAML file holding no tool format (a SWE-agent
/// bundle is YAML). The manifest loader reports what is wrong with it.
fn is_manifest_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    if ctxc::manifest::MANIFEST_NAMES.contains(&name) {
        return true;
    }
    let toml_or_yaml = matches!(path.extension().and_then(|e| e.to_str()), Some("toml" | "yaml" | "yml"));
    toml_or_yaml
        && ctxc::project::ProjectRoot::read_path(path)
            .map_or(true, |f| ctxc::tools::parse_tool_file(&f.text).is_err_and(|e| e.code == Code::TOOL010))
}

/// The tools one file gave, and where they came from.
struct CostedFile {
    /// As shown in rows: relative to the directory given.
    file: String,
    format: ToolFormat,
    json_lines: bool,
    server: Option<String>,
    tools: Vec<Tool>,
}

impl CostedFile {
    /// The MCP server of a file's tools: the capture's own `serverInfo.name`, else the file's
    /// name for an MCP `tools/list` result (a file of single tools names no server).
    fn new(path: &Path, file: String, parsed: ctxc::tools::ToolFile) -> Self {
        let listed = parsed.format == ToolFormat::Mcp && parsed.listing;
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).filter(|_| listed);
        CostedFile { file, format: parsed.format, json_lines: parsed.json_lines, server: parsed.server.or(stem), tools: parsed.tools }
    }
}

/// Costs bare tool files. One file that cannot be read is an input error (exit 2, no report). In
/// a directory each file is costed on its own: a file that is no tool file is a warning and
/// skipped, a broken tool file an error; the report of the rest is still printed, and the exit
/// code is 2 when any error was reported (or nothing could be costed), 0 otherwise. `--format
/// json` prints JSON in every case, with the problems in it.
fn cost_tools(args: &CostArgs, input: &ToolInput, reporter: &Reporter) -> u8 {
    let model_name = args.model.as_deref().unwrap_or("gpt-4o");
    let model = profile(model_name);
    let mut costed = Vec::new();
    let mut problems = Vec::new();
    let mut sources = ctxc::diagnostic::Sources::default();
    for file in &input.files {
        let display = file.display().to_string();
        let shown = match &input.dir {
            Some(dir) => file.strip_prefix(dir).unwrap_or(file).display().to_string(),
            None => display.clone(),
        };
        let text = match ctxc::project::ProjectRoot::read_path(file) {
            Ok(f) => f.text,
            // A binary file in a directory is no tool file.
            Err(ReadError::NotUtf8 { .. }) if input.dir.is_some() => {
                let d = Diagnostic::warning("skipped: not a tool file (found a binary file, not UTF-8)").code(Code::TOOL010);
                problems.push(d.in_file(display));
                continue;
            }
            Err(e) => {
                problems.push(e.into_diagnostic().in_file(display));
                continue;
            }
        };
        match ctxc::tools::parse_tool_file(&text) {
            Ok(parsed) => costed.push(CostedFile::new(file, shown, parsed)),
            // In a directory, a file that is no tool file is skipped with a short warning.
            Err(ToolFileError { code: Code::TOOL010, found: Some(found), help, .. }) if input.dir.is_some() => {
                let d =
                    Diagnostic::warning(format!("skipped: not a tool file (found {found})")).code(Code::TOOL010).in_file(display.as_str());
                problems.push(match help {
                    Some(help) => d.help(help),
                    None => d,
                });
            }
            Err(e) => problems.push(e.into_diagnostic(&display)),
        }
        sources.insert_shared(display, text);
    }
    let duplicates = duplicate_names(&costed);
    for (name, files) in &duplicates {
        let d = Diagnostic::warning(format!("tool `{name}` is defined {} times: in {}", files.len(), files.join(", ")))
            .code(Code::TOOL003)
            .help("a provider rejects a request with two tools of one name: keep one, or give each a unique name");
        problems.push(d);
    }
    let tools: Vec<&Tool> = costed.iter().flat_map(|f| &f.tools).collect();
    if tools.is_empty() && costed.is_empty() && !has_errors(&problems) {
        let dir = input.dir.as_deref().unwrap_or(Path::new(".")).display();
        problems
            .push(Diagnostic::error(format!("no tool file found in `{dir}`")).help(format!("a tool file holds {}", ctxc::tools::EXPECTED)));
    }
    let exit = if has_errors(&problems) { EXIT_INPUT } else { EXIT_OK };
    reporter.diagnostics(&problems, &sources);
    // One file that cannot be read gives no report (but JSON, which always describes the run).
    if exit != EXIT_OK && args.format != CostFormat::Json && (input.dir.is_none() || costed.is_empty()) {
        return exit;
    }
    let costs = cost_tool_list(&tools, &model, &TokenCounter::new());
    // `costs.tools` is in the order of `tools`: file by file.
    let sources_of = costed.iter().flat_map(|f| f.tools.iter().map(move |t| (t, f)));
    let mut rows: Vec<ToolRow> = sources_of
        .zip(&costs.tools)
        .map(|((t, f), cost)| ToolRow { name: &t.name, server: f.server.as_deref(), file: &f.file, tokens: cost.tokens })
        .collect();
    rows.sort_by(|a, b| b.tokens.tokens.cmp(&a.tokens.tokens).then(a.name.cmp(b.name)).then(a.file.cmp(b.file)));
    match args.format {
        CostFormat::Json => {
            let files: Vec<_> = costed
                .iter()
                .map(|f| serde_json::json!({ "file": f.file, "format": f.format, "json_lines": f.json_lines, "server": f.server, "tools": f.tools.len() }))
                .collect();
            let tools: Vec<_> = rows
                .iter()
                .map(|r| serde_json::json!({ "name": r.name, "server": r.server, "file": r.file, "tokens": r.tokens }))
                .collect();
            let duplicates: Vec<_> = duplicates.iter().map(|(name, files)| serde_json::json!({ "name": name, "files": files })).collect();
            let value = serde_json::json!({
                "model": model_name, "tokenizer": model.tokenizer.name(), "rendering": costs.rendering, "exact": costs.exact,
                "method": costs.method, "files": files, "tools": tools, "framing": costs.framing, "preamble": costs.preamble,
                "joins": costs.joins, "total": costs.total, "duplicates": duplicates, "problems": problems,
            });
            output::print_json(&ctxc::report::escape::json_text(&value));
        }
        CostFormat::Html => output::print(&ctxc::report::html::tools_report(&model, &costs, &rows)),
        CostFormat::Text | CostFormat::Markdown => {
            output::print(&ctxc::report::cost::tools_text(&model, &costs, &rows, args.format == CostFormat::Markdown))
        }
    }
    exit
}

/// Tool names defined more than once, with the file of each definition, by name.
fn duplicate_names(costed: &[CostedFile]) -> Vec<(String, Vec<String>)> {
    let mut by_name: std::collections::BTreeMap<&str, Vec<String>> = std::collections::BTreeMap::new();
    for file in costed {
        for tool in &file.tools {
            by_name.entry(&tool.name).or_default().push(file.file.clone());
        }
    }
    by_name.into_iter().filter(|(_, files)| files.len() > 1).map(|(name, files)| (name.to_string(), files)).collect()
}
