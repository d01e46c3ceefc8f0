//! `ctxc cost`: token accounting per mode (steps, tool schemas, window), or per tool for a bare
//! MCP `tools/list` result / OpenAI tools array.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::report::Reporter;
use super::table::{num, table_row};
use super::{find_manifests, output, AgentRun, EXIT_INPUT, EXIT_OK};
use crate::diagnostic::Diagnostic;
use crate::measure::{cost_tool_array, Count, Measured};
use crate::models::profile;
use crate::tokens::TokenCounter;

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
    let overrides = [env.as_slice(), args.set.as_slice()].concat();
    let counter = TokenCounter::new();
    let runs = crate::parallel::map_in_order(&manifests, |manifest| {
        AgentRun::new(manifest, &overrides, args.mode.as_deref(), args.scenario.as_deref(), &counter)
    });
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
        CostFormat::Text => output::print(&reports.iter().map(|m| text_report(m, false)).collect::<Vec<_>>().join("\n")),
        CostFormat::Markdown => output::print(&reports.iter().map(|m| text_report(m, true)).collect::<Vec<_>>().join("\n")),
        CostFormat::Html => output::print(&super::html::cost_report(&reports)),
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
    if !path.is_dir() || crate::discover::find_manifests(path).is_ok() {
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
    let mut sources = crate::diagnostic::Sources::default();
    for file in files {
        let display = file.display().to_string();
        let text = match crate::project::ProjectRoot::read_path(file) {
            Ok(f) => f.text,
            Err(e) => {
                problems.push(Diagnostic::error(e.message()).in_file(display));
                continue;
            }
        };
        match crate::tools::parse_tool_file(&text) {
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
            "model": args.model, "tokenizer": model.tokenizer.name(), "exact": model.tokenizer.is_exact(),
            "method": crate::measure::TOOL_METHOD, "tools": tools, "overhead": overhead, "total": total,
        });
        output::println(&serde_json::to_string_pretty(&value).unwrap_or_default());
        return EXIT_OK;
    }
    if args.format == CostFormat::Html {
        output::print(&super::html::tools_report(&args.model, model.tokenizer.method(), &rows, overhead, total));
        return EXIT_OK;
    }
    let md = args.format == CostFormat::Markdown;
    let mut out = format!(
        "{} tools · {} · {}\n\n",
        rows.len(),
        args.model,
        model.tokenizer.method()
    );
    let width = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(4).max(8);
    let max = rows.first().map_or(1, |(_, c)| c.tokens.max(1));
    out.push_str(&table_row(md, &[format!("{:<width$}", "tool"), format!("{:>8}", "tokens"), String::new()]));
    if md {
        out.push_str("|---|---:|---|\n");
    }
    for (name, c) in &rows {
        out.push_str(&table_row(md, &[format!("{name:<width$}"), format!("{:>8}", num(*c)), bar(c.tokens, max, 24)]));
    }
    out.push_str(&table_row(md, &[format!("{:<width$}", "overhead"), format!("{:>8}", num(overhead)), String::new()]));
    out.push_str(&table_row(md, &[format!("{:<width$}", "total"), format!("{:>8}", num(total)), String::new()]));
    out.push_str(&format!("\nmethod: {}\n", crate::measure::TOOL_METHOD));
    output::print(&out);
    EXIT_OK
}


fn bar(value: i64, max: i64, width: usize) -> String {
    let cells = ((value.max(0) as f64 / max.max(1) as f64) * width as f64).round() as usize;
    "█".repeat(cells.min(width))
}

fn percent(tokens: i64, of: u64) -> String {
    format!("{:.1}%", tokens as f64 * 100.0 / of.max(1) as f64)
}


fn text_report(m: &Measured, md: bool) -> String {
    let window = m.window.max_input_tokens;
    let count = |tokens: i64| Count { tokens, tokenizer: m.tokenizer, exact: m.exact };
    let heading = format!(
        "{} · {} mode · scenario {} · {} · {} · window {}",
        m.agent, m.mode, m.scenario, m.model.model, m.method, num(count(window as i64)).trim_start_matches('~')
    );
    let mut out = if md { format!("### {heading}\n\n") } else { format!("{heading}\n\n") };
    let id_w = m.sections.iter().map(|s| s.id.len()).max().unwrap_or(4).max(13);
    let src_w = 34;
    let max = m.sections.iter().map(|s| s.tokens.tokens).max().unwrap_or(1);
    out.push_str(&table_row(md, &[
        format!("{:>2}", "#"), format!("{:<id_w$}", "step"), format!("{:<src_w$}", "source"), format!("{:>13}", "tokens"),
        format!("{:>6}", "window"), format!("{:>7}", "budget"), format!("{:<6}", "status"), String::new(),
    ]));
    if md {
        out.push_str("|---:|---|---|---:|---:|---:|---|---|\n");
    }
    for s in &m.sections {
        let mut source = if s.sources.len() > 1 { format!("{} (+{})", s.sources[0], s.sources.len() - 1) } else { s.sources.first().cloned().unwrap_or_else(|| "(generated)".into()) };
        if !md && source.chars().count() > src_w {
            source = format!("…{}", source.chars().rev().take(src_w - 1).collect::<Vec<_>>().into_iter().rev().collect::<String>());
        }
        let checked = s.worst_case.map_or(s.tokens.tokens, |w| w.tokens);
        let status = match s.budget {
            Some(b) if checked > b as i64 => "over",
            Some(_) => "ok",
            None => "",
        };
        let budget = s.budget.map_or("-".to_string(), |b| b.to_string());
        let tokens = match s.worst_case {
            Some(w) => format!("{} (≤{})", num(s.tokens), num(w)),
            None => num(s.tokens),
        };
        out.push_str(&table_row(md, &[
            format!("{:>2}", s.step), format!("{:<id_w$}", s.id), format!("{source:<src_w$}"), format!("{tokens:>13}"),
            format!("{:>6}", percent(s.tokens.tokens, window)), format!("{budget:>7}"), format!("{status:<6}"), if md { String::new() } else { bar(s.tokens.tokens, max, 20) },
        ]));
    }
    let joins_note = "separators, boundary merges".to_string();
    for (label, note, c) in [("joins", joins_note.as_str(), m.joins), ("system prompt", "counted as a whole", m.system_prompt)] {
        out.push_str(&table_row(md, &[
            format!("{:>2}", ""), format!("{label:<id_w$}"), format!("{note:<src_w$}"), format!("{:>13}", num(c)),
            format!("{:>6}", percent(c.tokens, window)), String::new(), String::new(), String::new(),
        ]));
    }
    let t = &m.tool_schemas;
    out.push_str(&format!("\ntool schemas: {} callable tools, {} tokens\n", t.tools.len(), num(t.total)));
    if md {
        out.push('\n');
    }
    out.push_str(&table_row(md, &[format!("{:<24}", "category / server"), format!("{:>5}", "tools"), format!("{:>8}", "tokens"), String::new()]));
    if md {
        out.push_str("|---|---:|---:|---|\n");
    }
    let tmax = t.categories.iter().map(|g| g.tokens.tokens).max().unwrap_or(1);
    for (prefix, groups) in [("", &t.categories), ("mcp server ", &t.servers)] {
        for g in groups {
            out.push_str(&table_row(md, &[
                format!("{:<24}", format!("{prefix}{}", g.name)), format!("{:>5}", g.tools), format!("{:>8}", num(g.tokens)),
                if md { String::new() } else { bar(g.tokens.tokens, tmax, 20) },
            ]));
        }
    }
    out.push_str(&table_row(md, &[format!("{:<24}", "array overhead (once)"), format!("{:>5}", ""), format!("{:>8}", num(t.overhead)), String::new()]));
    let mut sorted: Vec<_> = t.tools.iter().collect();
    sorted.sort_by(|a, b| b.tokens.tokens.cmp(&a.tokens.tokens).then(a.name.cmp(&b.name)));
    let per_tool: Vec<String> = sorted.iter().map(|tool| format!("{} {}", tool.name, num(tool.tokens))).collect();
    if !per_tool.is_empty() {
        out.push_str(&format!("\nper tool: {}\n", per_tool.join(", ")));
    }
    let w = &m.window;
    out.push_str("\nwindow\n");
    if md {
        out.push_str("\n| | tokens | |\n|---|---:|---|\n");
    }
    let mut lines = vec![
        ("window", window as i64, format!("{} max input tokens", m.model.model)),
        ("response reserve", w.response_reserve as i64, w.response_reserve_source.clone()),
        ("fixed context", w.fixed, format!("system prompt {} + tool schemas {}", num(m.system_prompt), num(t.total))),
        ("dynamic headroom", w.dynamic_headroom, "bounded sections at their worst case, beyond this scenario".to_string()),
        ("room for history", w.history_room, "window − reserve − fixed − headroom".to_string()),
    ];
    if let (Some(at), Some(r)) = (w.summarization_at, w.summarization_ratio) {
        lines.push(("summarization at", at as i64, format!("{:.0} % of the window", r * 100.0)));
    }
    for (label, tokens, note) in lines {
        out.push_str(&table_row(md, &[format!("{label:<18}"), format!("{:>9}", num(count(tokens))), note]));
    }
    if !w.unbounded.is_empty() {
        out.push_str(&format!("unbounded dynamic sections (costed as rendered): {}\n", w.unbounded.join(", ")));
    }
    if !md {
        let width = 60.0;
        let cells = |n: i64| ((n.max(0) as f64 / window.max(1) as f64) * width).round() as usize;
        let (f, r, h) = (cells(w.fixed), cells(w.response_reserve as i64), cells(w.dynamic_headroom));
        let free = (width as usize).saturating_sub(f + r + h);
        out.push_str(&format!("[{}{}{}{}]  █ fixed  ▓ headroom  ░ history  ▒ reserve\n", "█".repeat(f), "▓".repeat(h), "░".repeat(free), "▒".repeat(r)));
    }
    out.push_str(&super::systems::report(m, md));
    out
}
