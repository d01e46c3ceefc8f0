//! `ctxc cost` as text and Markdown: per mode and scenario the steps, the tool schemas by
//! category, server and tool, the window and every budget's status; per agent a summary across
//! its modes; and the per-tool table of bare tool files.

use serde::Serialize;

use super::escape::{markdown_text, Untrusted};
use super::table::{num, plain, table_row};
use crate::checks::budgets::Band;
use crate::checks::budgets::{BudgetKind, BudgetStatus, Status};
use crate::measure::{Count, Duplicate, Measured, Recording, ToolCosts, ToolFilesCost};
use crate::models::ModelProfile;
use crate::providers::Rendering;
use crate::tools::ToolFormat;

/// What `ctxc cost` reports for one mode × scenario: its measurements and every budget's status
/// (in JSON, the measurements' keys and `budgets`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Costed {
    #[serde(flatten)]
    pub measured: Measured,
    pub budgets: Vec<BudgetStatus>,
    /// The bands of the estimated system prompt and request total, as the text shows them;
    /// absent when both are exact or no measurement bounds the estimate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bands: Option<Bands>,
    /// The workload the scenario declares, replayed in this mode (see [`Costed::with_workload`]).
    #[serde(skip)]
    pub workload: Option<Workload>,
}

/// `ctxc cost --format json` of agents: the run's overrides and each mode × scenario's report.
/// Serialized as it is written: the reports of a large project are never held as text.
#[derive(Serialize)]
pub struct CostJson<'a> {
    pub env_overrides: &'a [String],
    pub model: Option<&'a str>,
    pub overrides: &'a [String],
    pub reports: &'a [&'a Costed],
}

impl CostJson<'_> {
    /// Writes the JSON as serializing it whole would, the reports serialized on all cores a batch
    /// at a time (see [`super::escape::write_json_with_list`]).
    pub fn write(&self, out: impl std::io::Write) -> std::io::Result<()> {
        #[derive(Serialize)]
        struct Head<'a> {
            env_overrides: &'a [String],
            model: Option<&'a str>,
            overrides: &'a [String],
        }
        let head = Head { env_overrides: self.env_overrides, model: self.model, overrides: self.overrides };
        super::escape::write_json_with_list(out, &head, "reports", self.reports)
    }
}

/// The range each estimated total lies in ([`Band`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bands {
    pub system_prompt: Option<Band>,
    pub request_total: Option<Band>,
}

/// A scenario's workload (its path as the manifest gives it) and its simulation.
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    pub path: String,
    pub simulation: crate::simulate::Simulation,
}

impl Costed {
    /// The budgets of an agent evaluated against one measured mode × scenario.
    pub fn new(agent: &crate::manifest::model::Agent, measured: Measured) -> Self {
        let calibration = measured.model.estimate_calibration();
        let bands = Bands {
            system_prompt: Band::of(calibration, measured.system_prompt),
            request_total: Band::of(calibration, measured.request.total),
        };
        let bands = (bands.system_prompt.is_some() || bands.request_total.is_some()).then_some(bands);
        Costed { budgets: crate::checks::budgets::evaluate(agent, &measured), measured, bands, workload: None }
    }

    /// The system prompt's band as the reports show it (`±10 %: 5,310 to 6,490`), when estimated.
    pub fn system_prompt_band(&self) -> Option<String> {
        self.bands.and_then(|b| b.system_prompt).map(|b| b.to_string())
    }

    /// The request total's band as the reports show it, when estimated.
    pub fn request_total_band(&self) -> Option<String> {
        self.bands.and_then(|b| b.request_total).map(|b| b.to_string())
    }

    /// [`Costed::new`] for `run`, with the simulation of the workload its scenario declares (the
    /// HTML report charts it), from `budget` (shared by the agent's runs). A workload that cannot
    /// be read or is over the budget is left out: `ctxc check` reports it (BUDGET006).
    pub fn with_workload(
        agent: &crate::manifest::model::Agent,
        run: crate::session::Run,
        counter: &crate::tokens::TokenCounter,
        budget: &mut crate::simulate::Budget,
    ) -> Self {
        let workload = crate::checks::workloads::simulate(agent, &run, counter, budget)
            .and_then(|(spec, simulation)| Some(Workload { path: spec.file.path.clone(), simulation: simulation.ok()? }));
        Costed { workload, ..Costed::new(agent, run.measured) }
    }

    fn step_budget(&self, id: &str) -> Option<&BudgetStatus> {
        self.budgets.iter().find(|b| b.kind == BudgetKind::Step && b.id.as_deref() == Some(id))
    }

    /// The budgets in a state, by name.
    fn named(&self, status: Status) -> Vec<&str> {
        self.budgets.iter().filter(|b| b.status == status).map(|b| b.name.as_str()).collect()
    }
}

/// The report of one mode × scenario.
pub fn text(c: &Costed, md: bool) -> String {
    let m = &c.measured;
    let heading = format!(
        "{} · {} mode · scenario {} · {} · {} · window {}",
        m.agent,
        m.mode,
        m.scenario,
        m.model.model,
        m.method,
        plain(m.window.max_input_tokens as i64)
    );
    let mut out = heading_line(&heading, md);
    if let Some(modelled) = &m.modelled {
        out.push_str(&format!("preset models {modelled}\n"));
    }
    out.push('\n');
    out.push_str(&sections_text(c, md));
    out.push_str(&tool_schemas_text(m, md));
    out.push_str(&request_text(c, md));
    out.push_str(&window_text(m, md));
    out.push_str(&budgets_text(c, md));
    out.push_str(&super::systems::report(m, md));
    out
}

/// The table of sections: each step's source, tokens, share of the window and budget, then the
/// joins and the system prompt as a whole.
fn sections_text(c: &Costed, md: bool) -> String {
    let m = &c.measured;
    let window = m.window.max_input_tokens;
    let mut out = String::new();
    let id_w = m.sections.iter().map(|s| s.id.len()).max().unwrap_or(4).max(13);
    let src_w = 34;
    let max = m.sections.iter().map(|s| s.tokens.tokens).max().unwrap_or(1);
    out.push_str(&table_row(
        md,
        &[
            format!("{:>2}", "#"),
            format!("{:<id_w$}", "step"),
            format!("{:<src_w$}", "source"),
            format!("{:>13}", "tokens"),
            format!("{:>6}", "window"),
            format!("{:>7}", "budget"),
            format!("{:<6}", "status"),
            String::new(),
        ],
    ));
    if md {
        out.push_str("|---:|---|---|---:|---:|---:|---|---|\n");
    }
    for s in &m.sections {
        let mut source = if s.sources.len() > 1 {
            format!("{} (+{})", s.sources[0], s.sources.len() - 1)
        } else {
            s.sources.first().cloned().unwrap_or_else(|| "(generated)".into())
        };
        if !md && source.chars().count() > src_w {
            source = format!("…{}", source.chars().rev().take(src_w - 1).collect::<Vec<_>>().into_iter().rev().collect::<String>());
        }
        let budgeted = c.step_budget(&s.id);
        let status = budgeted.map_or("", |b| b.status.word());
        let budget = budgeted.map_or("-".to_string(), |b| b.limit.to_string());
        let tokens = match s.worst_case {
            Some(w) => format!("{} (≤{})", num(s.tokens), num(w)),
            None => num(s.tokens),
        };
        out.push_str(&table_row(
            md,
            &[
                format!("{:>2}", s.step),
                format!("{:<id_w$}", s.id),
                format!("{source:<src_w$}"),
                format!("{tokens:>13}"),
                format!("{:>6}", percent(s.tokens.tokens, window)),
                format!("{budget:>7}"),
                format!("{status:<6}"),
                if md { String::new() } else { bar(s.tokens.tokens, max, 20) },
            ],
        ));
    }
    let rows = [
        ("joins", "separators, boundary merges", m.joins, None),
        ("system prompt", "counted as a whole", m.system_prompt, c.system_prompt_band()),
    ];
    for (label, note, c, band) in rows {
        out.push_str(&table_row(
            md,
            &[
                format!("{:>2}", ""),
                format!("{label:<id_w$}"),
                format!("{note:<src_w$}"),
                format!("{:>13}", num(c)),
                format!("{:>6}", percent(c.tokens, window)),
                String::new(),
                String::new(),
                band.unwrap_or_default(),
            ],
        ));
    }
    out
}

/// The tool schemas by category and MCP server, the list's framing, preamble and joins, and
/// each tool's count.
fn tool_schemas_text(m: &Measured, md: bool) -> String {
    let mut out = String::new();
    let t = &m.tool_schemas;
    out.push_str(&format!("\ntool schemas: {} callable tools, {} tokens\nmethod: {}\n", t.tools.len(), num(t.total), t.method));
    if md {
        out.push('\n');
    }
    out.push_str(&table_row(
        md,
        &[format!("{:<24}", "category / server"), format!("{:>5}", "tools"), format!("{:>8}", "tokens"), String::new()],
    ));
    if md {
        out.push_str("|---|---:|---:|---|\n");
    }
    let tmax = t.categories.iter().map(|g| g.tokens.tokens).max().unwrap_or(1);
    for (prefix, groups) in [("", &t.categories), ("mcp server ", &t.servers)] {
        for g in groups {
            out.push_str(&table_row(
                md,
                &[
                    format!("{:<24}", format!("{prefix}{}", g.name)),
                    format!("{:>5}", g.tools),
                    format!("{:>8}", num(g.tokens)),
                    if md { String::new() } else { bar(g.tokens.tokens, tmax, 20) },
                ],
            ));
        }
    }
    out.push_str(&tool_parts(t, recorded(m), md, &|label, c, note| {
        vec![format!("{label:<24}"), format!("{:>5}", ""), format!("{:>8}", num(c)), note.to_string()]
    }));
    let mut sorted: Vec<_> = t.tools.iter().collect();
    sorted.sort_by(|a, b| b.tokens.tokens.cmp(&a.tokens.tokens).then(a.name.cmp(&b.name)));
    let per_tool: Vec<String> = sorted.iter().map(|tool| format!("{} {}", tool.name, num(tool.tokens))).collect();
    if !per_tool.is_empty() {
        out.push_str(&format!("\nper tool: {}\n", names(&per_tool.join(", "), md)));
    }
    out
}

/// The fixed part of every request: message framing, system prompt, tool schemas, joins, total.
fn request_text(c: &Costed, md: bool) -> String {
    let m = &c.measured;
    let mut out = String::new();
    let r = &m.request;
    let t = &m.tool_schemas;
    out.push_str(&format!("\nrequest (the fixed part of every call)\nmethod: {}\n", r.method));
    if md {
        out.push_str("\n| | tokens | |\n|---|---:|---|\n");
    }
    let history = match r.per_message {
        Some(n) => format!("each message of the history adds {n} more (not in this total)"),
        None => "per-message framing of the history not published".to_string(),
    };
    for (label, c, note) in [
        ("message framing", r.framing, framing_note(m)),
        ("system prompt", m.system_prompt, "counted as a whole"),
        ("tool schemas", t.total, "as above"),
        ("joins", r.joins, "boundary merges"),
        ("total", r.total, c.request_total_band().map_or(history.clone(), |b| format!("{b} · {history}")).as_str()),
    ] {
        out.push_str(&table_row(md, &[format!("{label:<18}"), format!("{:>9}", num(c)), note.to_string()]));
    }
    out
}

/// The window: its size, the reserve, the fixed context, the headroom and the room left for
/// history (with a bar in the terminal).
fn window_text(m: &Measured, md: bool) -> String {
    let mut out = String::new();
    let window = m.window.max_input_tokens;
    let count = |tokens: i64| Count { tokens, tokenizer: m.tokenizer, exact: m.exact };
    let r = &m.request;
    let w = &m.window;
    out.push_str("\nwindow\n");
    if md {
        out.push_str("\n| | tokens | |\n|---|---:|---|\n");
    }
    // Configured numbers are shown as they are; counts carry their `~` when estimated.
    let counted = |tokens: i64| num(Count { exact: r.total.exact, ..count(tokens) });
    let mut lines = vec![
        ("window", plain(window as i64), w.max_input_source.clone()),
        ("response reserve", plain(w.response_reserve as i64), w.response_reserve_source.clone()),
        ("fixed context", counted(w.fixed), "the request total above".to_string()),
        ("dynamic headroom", num(count(w.dynamic_headroom)), "bounded sections at their worst case, beyond this scenario".to_string()),
        ("room for history", counted(w.history_room), "window − reserve − fixed − headroom".to_string()),
    ];
    if let (Some(at), Some(r)) = (w.summarization_at, w.summarization_ratio) {
        lines.push(("summarization at", plain(at as i64), format!("{:.0} % of the window", r * 100.0)));
    }
    for (label, tokens, note) in lines {
        out.push_str(&table_row(md, &[format!("{label:<18}"), format!("{tokens:>9}"), note]));
    }
    if !w.unbounded.is_empty() {
        out.push_str(&format!("unbounded dynamic sections (costed as rendered): {}\n", names(&w.unbounded.join(", "), md)));
    }
    if !md {
        out.push_str(&format!(
            "{}  █ fixed  ▓ headroom  ░ history  ▒ reserve\n",
            window_bar(w.fixed, w.dynamic_headroom, w.response_reserve, window)
        ));
    }
    out
}

/// The window as a bar of exactly [`WINDOW_CELLS`] cells: the fixed context, then the headroom,
/// the room for history and the reserve, each in proportion to the window. What does not fit
/// (a request larger than its window) is cut at the bar's end, never drawn past it.
fn window_bar(fixed: i64, headroom: i64, reserve: u64, window: u64) -> String {
    let cells = |n: i64| ((n.max(0) as f64 / window.max(1) as f64) * WINDOW_CELLS as f64).round().min(WINDOW_CELLS as f64) as usize;
    let f = cells(fixed);
    let h = cells(headroom).min(WINDOW_CELLS - f);
    let r = cells(i64::try_from(reserve).unwrap_or(i64::MAX)).min(WINDOW_CELLS - f - h);
    let free = WINDOW_CELLS - f - h - r;
    format!("[{}{}{}{}]", "█".repeat(f), "▓".repeat(h), "░".repeat(free), "▒".repeat(r))
}

/// The window bar's width, in cells.
const WINDOW_CELLS: usize = 60;

/// The band an estimate's calibration gives `count`, when it has one: `±10 %: 5,310 to 6,490`;
/// every report that shows an estimate with a band shows it so.
pub fn band(m: &Measured, count: Count) -> Option<String> {
    Band::of(m.model.estimate_calibration(), count).map(|b| b.to_string())
}

/// Whether `m` is counted from recorded endpoint counts: its framing (and, with two tools or
/// more, the tool list's fixed part) is then a recorded figure, not the rendering's.
pub(super) fn recorded(m: &Measured) -> bool {
    matches!(m.recorded, Some(Recording::Exact { .. }))
}

/// What the message framing row holds.
pub(super) fn framing_note(m: &Measured) -> &'static str {
    match recorded(m) {
        true => "recorded: the request with no system prompt and a one-character user message",
        false => m.request.rendering.framing_note(),
    }
}

/// What the tool list's framing and preamble rows hold (`recorded`: the render's counts are).
pub(super) fn tool_part_notes(t: &ToolCosts, recorded: bool) -> [&'static str; 2] {
    match recorded && t.exact {
        true => ["in the preamble's recorded figure", "recorded: the tool-use prompt and the list's framing, one figure"],
        false => [t.rendering.tool_framing_note(), t.rendering.preamble_note()],
    }
}

/// A list of names in a line of the report.
fn names(list: &str, md: bool) -> String {
    match md {
        true => markdown_text(list),
        false => Untrusted(list).to_string(),
    }
}

/// A report's heading (it names the agent, mode and scenario): a Markdown heading, or a line.
fn heading_line(heading: &str, md: bool) -> String {
    match md {
        true => format!("### {}\n\n", markdown_text(heading)),
        false => format!("{}\n", Untrusted(heading)),
    }
}

/// Every budget with its tokens, limit, share and status, and what an overrun means.
fn budgets_text(c: &Costed, md: bool) -> String {
    let over = c.named(Status::Over).len();
    let mut out = match over {
        0 => "\nbudgets\n".to_string(),
        n => format!("\nbudgets: {n} over (`ctxc check` fails on an over budget; `cost` only reports it and exits 0)\n"),
    };
    if md {
        out.push('\n');
    }
    let name_w = c.budgets.iter().map(|b| b.name.chars().count()).max().unwrap_or(6).max(16);
    let header = ["budget", "tokens", "limit", "share", "status", "counted"];
    let row = |cells: [String; 6]| {
        let [name, tokens, limit, share, status, counted] = cells;
        table_row(
            md,
            &[
                format!("{name:<name_w$}"),
                format!("{tokens:>9}"),
                format!("{limit:>9}"),
                format!("{share:>7}"),
                format!("{status:<15}"),
                counted,
            ],
        )
    };
    out.push_str(&row(header.map(String::from)));
    if md {
        out.push_str("|---|---:|---:|---:|---|---|\n");
    }
    for b in &c.budgets {
        let limit = num(Count { tokens: b.limit as i64, tokenizer: b.tokens.tokenizer, exact: true });
        let status = match b.status {
            Status::Over => format!("over by {}", num(Count { tokens: b.excess(), ..b.tokens })),
            other => other.word().to_string(),
        };
        out.push_str(&row([b.name.clone(), num(b.tokens), limit, format!("{:.1}%", b.share * 100.0), status, b.measured.clone()]));
    }
    out
}

/// One line per mode × scenario of one agent: prompt, tool schemas, fixed context and the
/// budgets near or over, so the modes compare at a glance.
pub fn summary(reports: &[Costed], md: bool) -> String {
    let Some(first) = reports.first() else { return String::new() };
    let heading = format!("{} · summary across {} mode × scenario reports", first.measured.agent, reports.len());
    let mut out = heading_line(&heading, md);
    if !md {
        out.push('\n');
    }
    let mode_w = reports.iter().map(|c| c.measured.mode.chars().count()).max().unwrap_or(4).max(4);
    let scenario_w = reports.iter().map(|c| c.measured.scenario.chars().count()).max().unwrap_or(8).max(8);
    let row = |cells: [String; 6]| {
        let [mode, scenario, prompt, tools, fixed, budgets] = cells;
        table_row(
            md,
            &[
                format!("{mode:<mode_w$}"),
                format!("{scenario:<scenario_w$}"),
                format!("{prompt:>9}"),
                format!("{tools:>9}"),
                format!("{fixed:>9}"),
                budgets,
            ],
        )
    };
    out.push_str(&row(["mode", "scenario", "prompt", "tools", "fixed", "budgets"].map(String::from)));
    if md {
        out.push_str("|---|---|---:|---:|---:|---|\n");
    }
    for c in reports {
        let m = &c.measured;
        let fixed = Count { tokens: m.window.fixed, ..m.system_prompt };
        let mut budgets: Vec<String> = Vec::new();
        for status in [Status::Over, Status::AtRisk, Status::Near] {
            let named = c.named(status);
            if !named.is_empty() {
                budgets.push(format!("{}: {}", status.word(), named.join(", ")));
            }
        }
        let budgets = if budgets.is_empty() { "ok".to_string() } else { budgets.join(" · ") };
        out.push_str(&row([m.mode.clone(), m.scenario.clone(), num(m.system_prompt), num(m.tool_schemas.total), num(fixed), budgets]));
    }
    out
}

/// The tool list's framing, preamble, joins and total: with the tools, they add up to the total.
fn tool_parts(t: &ToolCosts, recorded: bool, md: bool, cells: &dyn Fn(&str, Count, &str) -> Vec<String>) -> String {
    let [framing, preamble] = tool_part_notes(t, recorded);
    [
        ("framing (once)", t.framing, framing),
        ("preamble (once)", t.preamble, preamble),
        ("joins", t.joins, "boundary merges"),
        ("total", t.total, "what the tools add to the request"),
    ]
    .iter()
    .map(|(label, c, note)| table_row(md, &cells(label, *c, note)))
    .collect()
}

/// One tool of bare tool files: its cost, the file it came from and its MCP server when known.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ToolRow<'a> {
    pub name: &'a str,
    pub server: Option<&'a str>,
    pub file: &'a str,
    pub tokens: Count,
}

/// Each tool of bare tool files with its cost, most expensive first (then by name and file).
pub fn tool_rows(cost: &ToolFilesCost) -> Vec<ToolRow<'_>> {
    let mut rows: Vec<ToolRow> = cost
        .tools()
        .zip(&cost.costs.tools)
        .map(|((t, f), c)| ToolRow { name: &t.name, server: f.server.as_deref(), file: &f.file, tokens: c.tokens })
        .collect();
    rows.sort_by(|a, b| b.tokens.tokens.cmp(&a.tokens.tokens).then(a.name.cmp(b.name)).then(a.file.cmp(b.file)));
    rows
}

/// `ctxc cost --format json` of bare tool files (see docs/json-output.md), for `model` as asked.
#[derive(Serialize)]
pub struct ToolFilesJson<'a> {
    model: &'a str,
    tokenizer: &'static str,
    rendering: Rendering,
    exact: bool,
    method: &'a str,
    files: Vec<ToolFileJson<'a>>,
    tools: &'a [ToolRow<'a>],
    framing: Count,
    preamble: Count,
    joins: Count,
    total: Count,
    duplicates: &'a [Duplicate],
    problems: &'a [crate::diagnostic::Diagnostic],
}

/// One file of [`ToolFilesJson`]: how it was read and how many tools it gave.
#[derive(Serialize)]
struct ToolFileJson<'a> {
    file: &'a str,
    format: ToolFormat,
    json_lines: bool,
    server: Option<&'a str>,
    tools: usize,
}

impl<'a> ToolFilesJson<'a> {
    pub fn new(model: &'a str, cost: &'a ToolFilesCost, rows: &'a [ToolRow<'a>]) -> Self {
        let files = cost
            .files
            .iter()
            .map(|f| ToolFileJson {
                file: &f.file,
                format: f.format,
                json_lines: f.json_lines,
                server: f.server.as_deref(),
                tools: f.tools.len(),
            })
            .collect();
        let c = &cost.costs;
        ToolFilesJson {
            model,
            tokenizer: cost.model.tokenizer.name(),
            rendering: c.rendering,
            exact: c.exact,
            method: &c.method,
            files,
            tools: rows,
            framing: c.framing,
            preamble: c.preamble,
            joins: c.joins,
            total: c.total,
            duplicates: &cost.duplicates,
            problems: &cost.problems,
        }
    }
}

/// The per-tool table of bare tool files (`rows` most expensive first), then the list's framing,
/// preamble, joins and total as `model`'s provider renders it.
pub fn tools_text(model: &ModelProfile, t: &ToolCosts, rows: &[ToolRow], md: bool) -> String {
    // The rows are as exact as the rendering: the method line below says what was counted.
    let label = if t.exact { "exact" } else { "estimate" };
    let mut out = format!("{} tools · {} · {label} ({})\n\n", rows.len(), model.model, model.tokenizer.name());
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(4).max(16);
    let server_width = rows.iter().map(|r| r.server.map_or(1, str::len)).max().unwrap_or(6).max(6);
    let file_width = rows.iter().map(|r| r.file.len()).max().unwrap_or(4).max(4);
    let max = rows.first().map_or(1, |r| r.tokens.tokens.max(1));
    let cells = |name: &str, server: &str, file: &str, tokens: String, last: String| {
        vec![format!("{name:<width$}"), format!("{server:<server_width$}"), format!("{file:<file_width$}"), format!("{tokens:>8}"), last]
    };
    out.push_str(&table_row(md, &cells("tool", "server", "file", "tokens".into(), String::new())));
    if md {
        out.push_str("|---|---|---|---:|---|\n");
    }
    for r in rows {
        out.push_str(&table_row(md, &cells(r.name, r.server.unwrap_or("-"), r.file, num(r.tokens), bar(r.tokens.tokens, max, 24))));
    }
    out.push_str(&tool_parts(t, false, md, &|label, c, note| cells(label, "", "", num(c), note.to_string())));
    out.push_str(&format!("\nmethod: {}\n", t.method));
    out
}

fn bar(value: i64, max: i64, width: usize) -> String {
    let cells = ((value.max(0) as f64 / max.max(1) as f64) * width as f64).round() as usize;
    "█".repeat(cells.min(width))
}

fn percent(tokens: i64, of: u64) -> String {
    format!("{:.1}%", tokens as f64 * 100.0 / of.max(1) as f64)
}
