//! `ctxc cost --format html`: one self-contained HTML file — inline CSS and SVG, no scripts,
//! fonts, images or any other request — with, per agent, a stacked bar per mode × scenario of
//! the fixed context (sections, then tool schemas) with a line at each budget; then per mode ×
//! scenario the sections, the tool schemas by category, MCP server and tool, every budget against
//! its limit, the window, and the chart of the workload the scenario declares (as `ctxc
//! simulate` draws it). Light and dark themes follow `prefers-color-scheme`. Deterministic.
//!
//! The markup is in `templates/cost.html` and `templates/tools.html` (rendered by
//! `super::template::render`): this module builds what they show, a view model of display
//! strings.

use serde::Serialize;

use super::cost::{Costed, ToolRow};
use super::simulate::{self, Chart};
use super::table::{num, plain};
use super::template::render;
use crate::checks::budgets::{BudgetKind, Status};
use crate::hostview::HostView;
use crate::measure::{Count, GroupCost, Measured, ToolCosts};
use crate::models::ModelProfile;

const COLORS: usize = 16;

fn pct(part: i64, whole: i64) -> String {
    format!("{:.1} %", part as f64 * 100.0 / whole.max(1) as f64)
}

/// A horizontal stacked bar, as `bars.html` draws it: segments on a track, with vertical lines
/// across it (budget limits, the summarization trigger). Positions are in the 1000 units of the
/// bar's viewBox.
#[derive(Serialize)]
struct Bar {
    label: String,
    segments: Vec<Segment>,
    lines: Vec<BarLine>,
}

#[derive(Serialize)]
struct Segment {
    class: String,
    x: String,
    width: String,
    tip: String,
}

#[derive(Serialize)]
struct BarLine {
    class: &'static str,
    x: String,
    tip: String,
}

/// A vertical line across a bar: where, its class (`marker`, `limit`) and its tooltip.
type Line = (i64, &'static str, String);

impl Bar {
    /// `(class, value, tooltip)` segments on a track of `scale`, with `lines` across it.
    fn new(segments: &[(String, i64, String)], scale: i64, label: &str, lines: &[Line]) -> Bar {
        const WIDTH: f64 = 1000.0;
        let mut x = 0.0;
        let mut shown = Vec::new();
        for (class, value, tip) in segments {
            // Cut at the track's end: a count past its scale (a window of one token) fills it.
            let w = ((*value).max(0) as f64 / scale.max(1) as f64 * WIDTH).min(WIDTH - x);
            if w > 0.0 {
                shown.push(Segment { class: class.clone(), x: format!("{x:.2}"), width: format!("{w:.2}"), tip: tip.clone() });
            }
            x += w;
        }
        let lines = lines
            .iter()
            .map(|(at, class, tip)| BarLine {
                class,
                x: format!("{:.2}", (*at as f64 / scale.max(1) as f64 * WIDTH).clamp(0.0, WIDTH)),
                tip: tip.clone(),
            })
            .collect();
        Bar { label: label.to_string(), segments: shown, lines }
    }

    /// A bar with a marker where summarization fires.
    fn marked(segments: &[(String, i64, String)], scale: i64, label: &str, marker: Option<i64>) -> Bar {
        let lines: Vec<Line> = marker.map(|at| (at, "marker", "summarization fires here".to_string())).into_iter().collect();
        Bar::new(segments, scale, label, &lines)
    }

    /// One segment of `value` on a track of `scale`.
    fn single(class: &str, value: i64, tip: String, scale: i64, label: &str) -> Bar {
        Bar::new(&[(class.to_string(), value, tip)], scale, label, &[])
    }
}

/// A legend entry: a swatch of `class` and its text.
#[derive(Serialize)]
struct Legend {
    class: String,
    text: String,
}

fn legend(items: Vec<(String, String)>) -> Vec<Legend> {
    items.into_iter().map(|(class, text)| Legend { class, text }).collect()
}

/// A row of `label · bar · value`.
#[derive(Serialize)]
struct BarRow {
    label: String,
    bar: Bar,
    shown: String,
}

/// Rows of `(label, class, value, shown)`, each bar on the same scale.
fn bar_rows(rows: &[(String, String, i64, String)], scale: i64) -> Vec<BarRow> {
    rows.iter()
        .map(|(label, class, value, shown)| BarRow {
            label: label.clone(),
            bar: Bar::single(class, *value, format!("{label}: {shown}"), scale, label),
            shown: shown.clone(),
        })
        .collect()
}

/// Text in a span of a class: `over` or `okay`.
#[derive(Serialize)]
struct Flag {
    class: &'static str,
    text: String,
}

#[derive(Serialize)]
struct CostPage {
    title: String,
    subtitle: String,
    agents: Vec<AgentView>,
}

#[derive(Serialize)]
struct AgentView {
    agent: String,
    model: String,
    window: String,
    method: String,
    /// The fixed context of each mode × scenario, on one scale.
    overview: Vec<OverviewRow>,
    legend: Vec<Legend>,
    modes: Vec<ModeView>,
}

#[derive(Serialize)]
struct OverviewRow {
    name: String,
    bar: Bar,
    over: bool,
    shown: String,
}

#[derive(Serialize)]
struct ModeView {
    mode: String,
    scenario: String,
    prompt: String,
    schemas: String,
    share: String,
    sections: Vec<SectionRow>,
    totals: Vec<TotalRow>,
    tools: ToolsView,
    budgets: Vec<BudgetRow>,
    any_over: bool,
    request: RequestView,
    window: WindowView,
    /// The scenario's workload over the conversation, when it declares one.
    workload: Option<WorkloadView>,
}

/// The chart of a declared workload and the simulation's summary.
#[derive(Serialize)]
struct WorkloadView {
    path: String,
    system: String,
    chart: Chart,
    summary: [String; 3],
}

#[derive(Serialize)]
struct SectionRow {
    step: usize,
    id: String,
    source: String,
    tokens: String,
    prompt_share: String,
    window_share: String,
    budget: Option<Flag>,
    bar: Bar,
}

/// The joins and the whole system prompt, under the sections.
#[derive(Serialize)]
struct TotalRow {
    label: &'static str,
    note: &'static str,
    tokens: String,
    share: String,
    /// The estimate's band, as the text report shows it (empty when exact or unbounded).
    band: String,
}

#[derive(Serialize)]
struct ToolsView {
    count: usize,
    total: String,
    categories: Vec<BarRow>,
    servers: Vec<BarRow>,
    parts: ToolParts,
    tools: Vec<ToolView>,
}

#[derive(Serialize)]
struct ToolView {
    name: String,
    category: String,
    server: String,
    tokens: String,
    bar: Bar,
}

/// The tool list's framing, preamble and joins: with the tools, they add up to the total.
#[derive(Serialize)]
struct ToolParts {
    framing: String,
    framing_note: &'static str,
    preamble: String,
    preamble_note: &'static str,
    joins: String,
    total: String,
    method: String,
}

impl ToolParts {
    /// `recorded`: the render is counted from recorded endpoint counts.
    fn new(t: &ToolCosts, recorded: bool) -> ToolParts {
        let [framing_note, preamble_note] = super::cost::tool_part_notes(t, recorded);
        ToolParts {
            framing: num(t.framing),
            framing_note,
            preamble: num(t.preamble),
            preamble_note,
            joins: num(t.joins),
            total: num(t.total),
            method: t.method.clone(),
        }
    }
}

#[derive(Serialize)]
struct BudgetRow {
    name: String,
    tokens: String,
    limit: String,
    share: String,
    status: Flag,
    bar: Bar,
    measured: String,
}

/// The fixed part of every request and how it was counted.
#[derive(Serialize)]
struct RequestView {
    total: String,
    /// The total's band, as the text report shows it (empty when exact or unbounded).
    band: String,
    framing: String,
    prompt: String,
    schemas: String,
    joins: String,
    per_message: Option<u64>,
    method: String,
}

#[derive(Serialize)]
struct WindowView {
    bar: Bar,
    legend: Vec<Legend>,
    /// By how much the fixed context, headroom and reserve exceed the window.
    over: Option<String>,
    unbounded: String,
    window: String,
    model: String,
    reserve_source: String,
}

/// The report of `ctxc cost --format html` for measured agents (costed for `model` when given).
pub fn cost_report(reports: &[&Costed], model: Option<&str>) -> String {
    let mut names: Vec<&str> = Vec::new();
    for c in reports {
        if names.last() != Some(&c.measured.agent.as_str()) {
            names.push(&c.measured.agent);
        }
    }
    let mut agents = Vec::new();
    let mut start = 0;
    while start < reports.len() {
        let agent = &reports[start].measured.agent;
        let end = start + reports[start..].iter().take_while(|c| c.measured.agent == *agent).count();
        agents.push(agent_view(&reports[start..end]));
        start = end;
    }
    let mut subtitle = format!("{} agent(s) · {} mode × scenario report(s)", names.len(), reports.len());
    if let Some(model) = model {
        subtitle += &format!(" · costed for {model} (--model), instead of each agent's own model");
    }
    let over = reports.iter().flat_map(|c| &c.budgets).filter(|b| b.status == Status::Over).count();
    if over > 0 {
        subtitle += &format!(" · {over} budget use(s) over: ctxc check fails on them");
    }
    render("cost.html", &CostPage { title: format!("Token cost: {}", names.join(", ")), subtitle, agents })
}

fn agent_view(reports: &[&Costed]) -> AgentView {
    let first = &reports[0].measured;
    let count = |tokens: i64| num(Count { tokens, tokenizer: first.tokenizer, exact: first.exact });
    // One colour per section id, in order of first appearance, so a section keeps its colour.
    let mut ids: Vec<&str> = Vec::new();
    for s in reports.iter().flat_map(|c| &c.measured.sections) {
        if !ids.contains(&s.id.as_str()) {
            ids.push(&s.id);
        }
    }
    let color = |id: &str| format!("c{}", ids.iter().position(|i| *i == id).unwrap_or(0) % COLORS);
    // The bars show the fixed context, with a line at each budget on it: the scale reaches the farthest.
    let lines = |c: &Costed| -> Vec<Line> {
        let m = &c.measured;
        c.budgets
            .iter()
            .filter_map(|b| {
                let at = match b.kind {
                    BudgetKind::SystemPrompt | BudgetKind::Mode => b.limit as i64,
                    BudgetKind::ToolSchemas => m.system_prompt.tokens + b.limit as i64,
                    _ => return None,
                };
                Some((at, "limit", format!("{} budget: {} tokens", b.name, b.limit)))
            })
            .collect()
    };
    let scale = reports.iter().map(|c| lines(c).iter().map(|l| l.0).fold(c.measured.window.fixed, i64::max)).max().unwrap_or(1);
    let overview = reports
        .iter()
        .map(|c| {
            let m = &c.measured;
            let name = format!("{} · {}", m.mode, m.scenario);
            let segments: Vec<(String, i64, String)> = m
                .sections
                .iter()
                .map(|s| {
                    (
                        color(&s.id),
                        s.tokens.tokens,
                        format!(
                            "{}: {} tokens ({} of the prompt)",
                            s.id,
                            count(s.tokens.tokens),
                            pct(s.tokens.tokens, m.system_prompt.tokens)
                        ),
                    )
                })
                .chain(std::iter::once(("w-reserve".to_string(), m.joins.tokens, format!("joins: {} tokens", count(m.joins.tokens)))))
                .chain(std::iter::once((
                    "w-schemas".to_string(),
                    m.tool_schemas.total.tokens,
                    format!("tool schemas: {} tokens ({} callable tools)", count(m.tool_schemas.total.tokens), m.tool_schemas.tools.len()),
                )))
                .collect();
            OverviewRow {
                bar: Bar::new(&segments, scale, &format!("{name}: system prompt by section, then tool schemas"), &lines(c)),
                name,
                over: c.budgets.iter().any(|b| b.status == Status::Over),
                shown: format!("{} + {}", count(m.system_prompt.tokens), count(m.tool_schemas.total.tokens)),
            }
        })
        .collect();
    let mut items: Vec<(String, String)> = ids.iter().map(|id| (color(id), id.to_string())).collect();
    items.push(("w-reserve".into(), "joins (separators, boundary merges)".into()));
    items.push(("w-schemas".into(), "tool schemas".into()));
    if reports.iter().any(|c| !lines(c).is_empty()) {
        items.push(("w-limit".into(), "budget (system prompt, tool schemas after the prompt, mode)".into()));
    }
    AgentView {
        agent: first.agent.clone(),
        model: first.model.model.clone(),
        window: plain(first.window.max_input_tokens as i64),
        method: first.method.clone(),
        overview,
        legend: legend(items),
        modes: reports.iter().map(|c| mode_view(c, &color)).collect(),
    }
}

fn mode_view(c: &Costed, color: &dyn Fn(&str) -> String) -> ModeView {
    let m = &c.measured;
    let window = m.window.max_input_tokens as i64;
    let r = &m.request;
    ModeView {
        mode: m.mode.clone(),
        scenario: m.scenario.clone(),
        prompt: num(m.system_prompt),
        schemas: num(m.tool_schemas.total),
        share: pct(m.window.fixed, window),
        sections: sections(c, color),
        // The rows of the text report, each with the band it shows there.
        totals: [
            ("joins", "separators, boundary merges", m.joins, None),
            ("system prompt", "counted as a whole", m.system_prompt, c.system_prompt_band()),
        ]
        .into_iter()
        .map(|(label, note, c, band)| TotalRow {
            label,
            note,
            tokens: num(c),
            share: pct(c.tokens, window),
            band: band.unwrap_or_default(),
        })
        .collect(),
        tools: tool_schemas(m),
        budgets: c.budgets.iter().map(budget_row).collect(),
        any_over: c.budgets.iter().any(|b| b.status == Status::Over),
        request: RequestView {
            total: num(r.total),
            band: c.request_total_band().unwrap_or_default(),
            framing: num(r.framing),
            prompt: num(m.system_prompt),
            schemas: num(m.tool_schemas.total),
            joins: num(r.joins),
            per_message: r.per_message,
            method: r.method.clone(),
        },
        window: window_view(m),
        workload: c.workload.as_ref().map(|w| WorkloadView {
            path: w.path.clone(),
            system: w.simulation.policy.system.clone(),
            chart: Chart::new(&w.simulation),
            summary: simulate::summary(&w.simulation),
        }),
    }
}

/// The sections: each step's source, tokens, shares and budget.
fn sections(c: &Costed, color: &dyn Fn(&str) -> String) -> Vec<SectionRow> {
    let m = &c.measured;
    let window = m.window.max_input_tokens as i64;
    let max = m.sections.iter().map(|s| s.tokens.tokens).max().unwrap_or(1);
    m.sections
        .iter()
        .map(|s| {
            let source = match s.sources.len() {
                0 => "(generated)".to_string(),
                1 => s.sources[0].clone(),
                n => format!("{} (+{})", s.sources[0], n - 1),
            };
            let budget = c.budgets.iter().find(|b| b.kind == BudgetKind::Step && b.id.as_deref() == Some(&s.id)).map(|b| match b.status {
                Status::Over => Flag { class: "over", text: format!("{} · over", b.limit) },
                Status::Near | Status::AtRisk => Flag { class: "over", text: format!("{} · {}", b.limit, b.status.word()) },
                Status::Ok => Flag { class: "okay", text: b.limit.to_string() },
            });
            // Each figure as its own count labels it: a recorded section is exact beside estimated ones.
            let tokens = match s.worst_case {
                Some(w) => format!("{} (≤{})", num(s.tokens), num(w)),
                None => num(s.tokens),
            };
            SectionRow {
                step: s.step,
                id: s.id.clone(),
                source,
                prompt_share: pct(s.tokens.tokens, m.system_prompt.tokens),
                window_share: pct(s.tokens.tokens, window),
                budget,
                bar: Bar::single(&color(&s.id), s.tokens.tokens, format!("{}: {tokens} tokens", s.id), max, &s.id),
                tokens,
            }
        })
        .collect()
}

/// The tool schemas by category and MCP server, the list's parts, and each tool's bar.
fn tool_schemas(m: &Measured) -> ToolsView {
    let t = &m.tool_schemas;
    let groups = |groups: &[GroupCost], class: &str| -> Vec<(String, String, i64, String)> {
        groups
            .iter()
            .map(|g| {
                (
                    g.name.clone(),
                    class.to_string(),
                    g.tokens.tokens,
                    format!("{} ({} tool{})", num(g.tokens), g.tools, if g.tools == 1 { "" } else { "s" }),
                )
            })
            .collect()
    };
    let tool_scale = t.categories.iter().map(|g| g.tokens.tokens).max().unwrap_or(1);
    let mut tools: Vec<_> = t.tools.iter().collect();
    tools.sort_by(|a, b| b.tokens.tokens.cmp(&a.tokens.tokens).then(a.name.cmp(&b.name)));
    let tool_max = tools.first().map_or(1, |x| x.tokens.tokens);
    ToolsView {
        count: t.tools.len(),
        total: num(t.total),
        categories: bar_rows(&groups(&t.categories, "w-tools"), tool_scale),
        servers: bar_rows(&groups(&t.servers, "w-fixed"), tool_scale),
        parts: ToolParts::new(t, super::cost::recorded(m)),
        tools: tools
            .into_iter()
            .map(|tool| ToolView {
                name: tool.name.clone(),
                category: tool.category.clone(),
                server: tool.server.clone().unwrap_or_default(),
                tokens: num(tool.tokens),
                bar: Bar::single("w-tools", tool.tokens.tokens, format!("{}: {}", tool.name, num(tool.tokens)), tool_max, &tool.name),
            })
            .collect(),
    }
}

/// The window as one bar: fixed context, tool schemas, headroom, history and the reserve, with
/// the summarization trigger.
fn window_view(m: &Measured) -> WindowView {
    let count = |tokens: i64| num(Count { tokens, tokenizer: m.tokenizer, exact: m.exact });
    let window = m.window.max_input_tokens as i64;
    let r = &m.request;
    let t = &m.tool_schemas;
    let w = &m.window;
    // Each segment as its own count shows it; the reserve is configured, never marked `~`.
    let history = Count { tokens: w.history_room.max(0), ..r.total };
    let segments = [
        ("w-fixed", num(m.system_prompt), m.system_prompt.tokens, "system prompt"),
        (
            "w-fixed",
            num(Count { tokens: r.framing.tokens + r.joins.tokens, ..r.framing }),
            r.framing.tokens + r.joins.tokens,
            "message framing and joins",
        ),
        ("w-tools", num(t.total), t.total.tokens, "tool schemas"),
        ("w-headroom", count(w.dynamic_headroom), w.dynamic_headroom, "dynamic headroom (bounded sections at their worst case)"),
        ("w-history", num(history), history.tokens, "room for history"),
        ("w-reserve", plain(w.response_reserve as i64), w.response_reserve as i64, "response reserve"),
    ];
    let bar: Vec<(String, i64, String)> = segments
        .iter()
        .map(|(class, shown, v, label)| (class.to_string(), *v, format!("{label}: {shown} tokens ({})", pct(*v, window))))
        .collect();
    let total = segments.iter().map(|(_, _, v, _)| *v).sum::<i64>().max(window);
    let mut items: Vec<(String, String)> =
        segments.iter().map(|(class, shown, _, label)| (class.to_string(), format!("{label} {shown}"))).collect();
    if let (Some(at), Some(r)) = (w.summarization_at, w.summarization_ratio) {
        items.push(("w-marker".into(), format!("summarization at {} ({:.0} % of the window)", plain(at as i64), r * 100.0)));
    }
    WindowView {
        bar: Bar::marked(&bar, total, "window usage", w.summarization_at.map(|a| a as i64)),
        legend: legend(items),
        over: (w.history_room < 0).then(|| num(Count { tokens: -w.history_room, ..r.total })),
        unbounded: w.unbounded.join(", "),
        window: plain(window),
        model: m.model.model.clone(),
        reserve_source: w.response_reserve_source.clone(),
    }
}

/// A budget: tokens against the limit, as a bar with a line at the limit.
fn budget_row(b: &crate::checks::budgets::BudgetStatus) -> BudgetRow {
    let status = match b.status {
        Status::Over => Flag { class: "over", text: format!("over by {}", num(Count { tokens: b.excess(), ..b.tokens })) },
        Status::Near | Status::AtRisk => Flag { class: "over", text: b.status.word().to_string() },
        Status::Ok => Flag { class: "okay", text: "ok".to_string() },
    };
    let class = if b.status == Status::Over { "w-over" } else { "w-tools" };
    BudgetRow {
        name: b.name.clone(),
        tokens: num(b.tokens),
        limit: num(Count { tokens: b.limit as i64, tokenizer: b.tokens.tokenizer, exact: true }),
        share: pct(b.tokens.tokens, b.limit as i64),
        status,
        bar: Bar::new(
            &[(class.to_string(), b.tokens.tokens, format!("{}: {} tokens", b.name, num(b.tokens)))],
            b.tokens.tokens.max(b.limit as i64),
            &b.name,
            &[(b.limit as i64, "limit", format!("limit: {} tokens", b.limit))],
        ),
        measured: b.measured.clone(),
    }
}

#[derive(Serialize)]
struct ToolsPage {
    title: String,
    subtitle: String,
    rows: Vec<BarRow>,
    parts: ToolParts,
}

/// The report of `ctxc cost --format html` for bare tool files: every tool's cost (`rows`, most
/// expensive first) with its server and file, then the list's framing, preamble and joins.
pub fn tools_report(model: &ModelProfile, t: &ToolCosts, rows: &[ToolRow]) -> String {
    let label = |r: &ToolRow| match r.server {
        Some(server) => format!("{} · {server} · {}", r.name, r.file),
        None => format!("{} · {}", r.name, r.file),
    };
    let shown: Vec<(String, String, i64, String)> =
        rows.iter().map(|r| (label(r), "w-tools".to_string(), r.tokens.tokens, num(r.tokens))).collect();
    let scale = rows.first().map_or(1, |r| r.tokens.tokens);
    let exact = if t.exact { "exact" } else { "estimate" };
    render(
        "tools.html",
        &ToolsPage {
            title: format!("Tool cost: {} tools", rows.len()),
            subtitle: format!("{} · {exact} ({})", model.model, model.tokenizer.name()),
            rows: bar_rows(&shown, scale),
            parts: ToolParts::new(t, false),
        },
    )
}

#[derive(Serialize)]
struct HostsPage {
    title: String,
    subtitle: String,
    hosts: Vec<HostCard>,
}

#[derive(Serialize)]
struct HostCard {
    name: String,
    model: String,
    method: String,
    from: String,
    total: String,
    band: String,
    share: String,
    window: String,
    bar: Bar,
    legend: Vec<Legend>,
    sections: Vec<HostSection>,
    notes: Vec<String>,
}

#[derive(Serialize)]
struct HostSection {
    title: String,
    source: String,
    tokens: String,
    budget: Option<String>,
    rows: Vec<HostRow>,
}

#[derive(Serialize)]
struct HostRow {
    file: String,
    part: String,
    bytes: String,
    tokens: String,
    cut: String,
}

/// The report of `ctxc cost --host … --format html`: per host, its total against the window and
/// a bar of its sections' shares, then each section's files and entries (the same figures as the
/// text and JSON).
pub fn hosts_report(views: &[&HostView]) -> String {
    let hosts = views
        .iter()
        .map(|v| {
            let class = |i: usize| format!("c{}", i % COLORS);
            let segments: Vec<(String, i64, String)> = v
                .sections
                .iter()
                .enumerate()
                .map(|(i, s)| (class(i), s.tokens.tokens, format!("{}: {} tokens", s.title, num(s.tokens))))
                .collect();
            let sections = v
                .sections
                .iter()
                .map(|s| {
                    let mut rows: Vec<HostRow> = s
                        .parts
                        .iter()
                        .map(|p| HostRow {
                            file: p.file.clone(),
                            part: p.label.clone(),
                            bytes: format!("{} B", plain(p.bytes as i64)),
                            tokens: num(p.tokens),
                            cut: super::host_view::cut(p),
                        })
                        .collect();
                    rows.extend(super::host_view::joins(s).map(|(part, tokens)| HostRow {
                        file: "(joins)".into(),
                        part: part.into(),
                        bytes: String::new(),
                        tokens,
                        cut: String::new(),
                    }));
                    HostSection {
                        title: s.title.clone(),
                        source: s.source.clone(),
                        tokens: num(s.tokens),
                        budget: super::host_view::budget(s),
                        rows,
                    }
                })
                .collect();
            HostCard {
                name: v.name.clone(),
                model: v.model.clone(),
                method: v.method.clone(),
                from: v.from.clone(),
                total: num(v.total),
                band: v.band.map(|b| format!(" ({b})")).unwrap_or_default(),
                share: pct(v.total.tokens, v.window as i64),
                window: plain(v.window as i64),
                // The sections' shares of the total (the window's share is in the line above it).
                bar: Bar::new(&segments, v.total.tokens, &format!("{}: the sections of the total", v.name), &[]),
                legend: legend(v.sections.iter().enumerate().map(|(i, s)| (class(i), s.title.clone())).collect()),
                sections,
                notes: v.notes.clone(),
            }
        })
        .collect();
    let names: Vec<&str> = views.iter().map(|v| v.name.as_str()).collect();
    render("hosts.html", &HostsPage { title: "What each host loads at session start".into(), subtitle: names.join(" · "), hosts })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_values_are_escaped_and_macros_are_not() {
        let bar = Bar::single("w-tools", 5, "<b>'&'</b>\u{1b}".to_string(), 10, "\"x\"");
        let rows = [BarRow { label: "<i>".into(), bar, shown: "5".into() }];
        let page = render(
            "tools.html",
            &ToolsPage {
                title: "<script>".into(),
                subtitle: "a\nb".into(),
                rows: rows.into(),
                parts: ToolParts {
                    framing: "1".into(),
                    framing_note: "n",
                    preamble: "2".into(),
                    preamble_note: "p",
                    joins: "0".into(),
                    total: "3".into(),
                    method: "m".into(),
                },
            },
        );
        assert!(page.contains("<title>&lt;script&gt;</title>"), "{page}");
        assert!(page.contains("<p class=\"muted\">a\nb</p>"), "{page}");
        assert!(page.contains("<title>&lt;b&gt;&#39;&amp;&#39;&lt;/b&gt;\\x1b</title>"), "escaped once, controls visible: {page}");
        assert!(page.contains("aria-label=\"&quot;x&quot;\""), "{page}");
        assert!(page.contains("<div class=\"label\" title=\"&lt;i&gt;\">&lt;i&gt;</div><svg "), "the bar is markup: {page}");
        assert!(!page.contains("<script") && !page.contains("<i>"), "{page}");
    }
}
