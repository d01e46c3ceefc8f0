//! `ctxc cost --format html`: one self-contained HTML file — inline CSS and SVG, no scripts,
//! fonts, images or any other request — with, per agent, a stacked bar per mode × scenario of
//! the fixed context (sections, then tool schemas) with a line at each budget; then per mode ×
//! scenario the sections, the tool schemas by category, MCP server and tool, every budget against
//! its limit, and the window. Light and dark themes follow `prefers-color-scheme`. Deterministic.

use super::cost::{Costed, ToolRow};
use super::table::{num, plain};
use crate::checks::budgets::{BudgetKind, Status};
use crate::measure::{Count, GroupCost, Measured, ToolCosts};
use crate::models::ModelProfile;

const CSS: &str = r#"
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1f24; --muted: #5b636e; --line: #d5dae0; --track: #eef1f4; --card: #f8f9fb;
  --warn: #b3261e; --ok: #1a7f37; --fixed: #4e79a7; --tools: #76b7b2; --headroom: #edc948; --history: #a8d5a2; --reserve: #bab0ac; --marker: #b3261e; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #16181c; --fg: #e6e8eb; --muted: #9aa3ad; --line: #353a42; --track: #23272e; --card: #1d2025;
    --warn: #ff8a80; --ok: #7ee2a8; --fixed: #7aa6d6; --tools: #8fd1cb; --headroom: #f2d56b; --history: #6fae69; --reserve: #8f8985; --marker: #ff8a80; }
}
* { box-sizing: border-box; }
body { margin: 0; padding: 24px; background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1100px; margin: 0 auto; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 18px; margin: 32px 0 8px; padding-top: 16px; border-top: 2px solid var(--line); }
h3 { font-size: 15px; margin: 20px 0 8px; }
h4 { font-size: 13px; margin: 14px 0 6px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
.muted { color: var(--muted); font-weight: normal; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; margin: 12px 0; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--line); vertical-align: middle; }
th { color: var(--muted); font-weight: 600; font-size: 12px; }
td.n, th.n { text-align: right; white-space: nowrap; }
td.bar { width: 30%; }
td.status { white-space: nowrap; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.over { color: var(--warn); font-weight: 600; }
.okay { color: var(--ok); }
svg { display: block; width: 100%; }
svg .track { fill: var(--track); }
.rows { display: grid; grid-template-columns: minmax(120px, max-content) 1fr minmax(70px, max-content); gap: 6px 12px; align-items: center; }
.rows .label { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 14px; margin-top: 10px; font-size: 12px; }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 5px; vertical-align: -1px; }
.c0 { fill: #4e79a7; background: #4e79a7; } .c1 { fill: #f28e2b; background: #f28e2b; } .c2 { fill: #e15759; background: #e15759; }
.c3 { fill: #76b7b2; background: #76b7b2; } .c4 { fill: #59a14f; background: #59a14f; } .c5 { fill: #edc948; background: #edc948; }
.c6 { fill: #b07aa1; background: #b07aa1; } .c7 { fill: #ff9da7; background: #ff9da7; } .c8 { fill: #9c755f; background: #9c755f; }
.c9 { fill: #bab0ac; background: #bab0ac; } .c10 { fill: #2f9fd8; background: #2f9fd8; } .c11 { fill: #8cd17d; background: #8cd17d; }
.c12 { fill: #d37295; background: #d37295; } .c13 { fill: #a0cbe8; background: #a0cbe8; } .c14 { fill: #ffbe7d; background: #ffbe7d; }
.c15 { fill: #499894; background: #499894; }
.w-fixed { fill: var(--fixed); background: var(--fixed); } .w-tools { fill: var(--tools); background: var(--tools); }
.w-headroom { fill: var(--headroom); background: var(--headroom); } .w-history { fill: var(--history); background: var(--history); }
.w-reserve { fill: var(--reserve); background: var(--reserve); } .w-marker { background: var(--marker); } .marker { stroke: var(--marker); stroke-width: 3; }
.w-schemas { fill: var(--muted); background: var(--muted); } .w-over { fill: var(--warn); } .w-limit { background: var(--fg); } .limit { stroke: var(--fg); stroke-width: 3; stroke-dasharray: 3 2; }
details > summary { cursor: pointer; color: var(--muted); margin: 6px 0; }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
"#;

const COLORS: usize = 16;

/// Text made safe for HTML content and attribute values (see [`super::escape::html`]).
use super::escape::html as esc;

fn pct(part: i64, whole: i64) -> String {
    format!("{:.1} %", part as f64 * 100.0 / whole.max(1) as f64)
}

/// A horizontal stacked bar: `(class, value, tooltip)` segments on a track of `scale`, with a
/// marker where summarization fires.
fn stacked_bar(segments: &[(String, i64, String)], scale: i64, label: &str, marker: Option<i64>) -> String {
    let lines: Vec<Line> = marker.map(|at| (at, "marker", "summarization fires here".to_string())).into_iter().collect();
    marked_bar(segments, scale, label, &lines)
}

/// A vertical line across a bar: where, its class (`marker`, `limit`) and its tooltip.
type Line = (i64, &'static str, String);

/// A stacked bar with vertical lines across it (budget limits, the summarization trigger).
fn marked_bar(segments: &[(String, i64, String)], scale: i64, label: &str, lines: &[Line]) -> String {
    const WIDTH: f64 = 1000.0;
    let mut out = format!(
        "<svg viewBox=\"0 0 1000 18\" preserveAspectRatio=\"none\" height=\"18\" role=\"img\" aria-label=\"{}\"><rect class=\"track\" x=\"0\" y=\"0\" width=\"1000\" height=\"18\"/>",
        esc(label)
    );
    let mut x = 0.0;
    for (class, value, tip) in segments {
        let w = (*value).max(0) as f64 / scale.max(1) as f64 * WIDTH;
        if w > 0.0 {
            out.push_str(&format!(
                "<rect class=\"{class}\" x=\"{x:.2}\" y=\"0\" width=\"{w:.2}\" height=\"18\"><title>{}</title></rect>",
                esc(tip)
            ));
        }
        x += w;
    }
    for (at, class, tip) in lines {
        let mx = *at as f64 / scale.max(1) as f64 * WIDTH;
        out.push_str(&format!(
            "<line class=\"{class}\" x1=\"{mx:.2}\" y1=\"0\" x2=\"{mx:.2}\" y2=\"18\"><title>{}</title></line>",
            esc(tip)
        ));
    }
    out.push_str("</svg>");
    out
}

fn legend(items: &[(String, String)]) -> String {
    let spans: String = items.iter().map(|(class, text)| format!("<span><i class=\"swatch {class}\"></i>{}</span>", esc(text))).collect();
    format!("<div class=\"legend\">{spans}</div>")
}

/// Rows of `label · bar · value`, each bar on the same scale.
fn bar_rows(rows: &[(String, String, i64, String)], scale: i64) -> String {
    let mut out = String::from("<div class=\"rows\">");
    for (label, class, value, shown) in rows {
        out.push_str(&format!(
            "<div class=\"label\" title=\"{0}\">{0}</div>{1}<div class=\"n\">{2}</div>",
            esc(label),
            stacked_bar(&[(class.clone(), *value, format!("{label}: {shown}"))], scale, label, None),
            esc(shown)
        ));
    }
    out.push_str("</div>");
    out
}

fn page(title: &str, subtitle: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"color-scheme\" content=\"light dark\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n<title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n<h1>{}</h1>\n<p class=\"muted\">{}</p>\n{body}<footer>Written by <code>ctxc cost --format html</code>. This file is self-contained: no scripts, fonts or requests.</footer>\n</main>\n</body>\n</html>\n",
        esc(title),
        esc(title),
        esc(subtitle)
    )
}

/// The report of `ctxc cost --format html` for measured agents (costed for `model` when given).
pub fn cost_report(reports: &[&Costed], model: Option<&str>) -> String {
    let mut agents: Vec<&str> = Vec::new();
    for c in reports {
        if agents.last() != Some(&c.measured.agent.as_str()) {
            agents.push(&c.measured.agent);
        }
    }
    let mut body = String::new();
    let mut start = 0;
    while start < reports.len() {
        let agent = &reports[start].measured.agent;
        let end = start + reports[start..].iter().take_while(|c| c.measured.agent == *agent).count();
        body.push_str(&agent_section(&reports[start..end]));
        start = end;
    }
    let mut subtitle = format!("{} agent(s) · {} mode × scenario report(s)", agents.len(), reports.len());
    if let Some(model) = model {
        subtitle.push_str(&format!(" · costed for {model} (--model), instead of each agent's own model"));
    }
    let over = reports.iter().flat_map(|c| &c.budgets).filter(|b| b.status == Status::Over).count();
    if over > 0 {
        subtitle.push_str(&format!(" · {over} budget use(s) over: ctxc check fails on them"));
    }
    page(&format!("Token cost: {}", agents.join(", ")), &subtitle, &body)
}

fn agent_section(reports: &[&Costed]) -> String {
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
    let mut out = format!(
        "<h2>{} <span class=\"muted\">{} · window {} · {}</span></h2>\n",
        esc(&first.agent),
        esc(&first.model.model),
        esc(&plain(first.window.max_input_tokens as i64)),
        esc(&first.method)
    );
    out.push_str(
        "<div class=\"card\"><h3>Fixed context per mode and scenario: system prompt by section, then tool schemas</h3><div class=\"rows\">",
    );
    for c in reports {
        let m = &c.measured;
        let name = format!("{} · {}", m.mode, m.scenario);
        let segments: Vec<(String, i64, String)> = m
            .sections
            .iter()
            .map(|s| {
                (
                    color(&s.id),
                    s.tokens.tokens,
                    format!("{}: {} tokens ({} of the prompt)", s.id, count(s.tokens.tokens), pct(s.tokens.tokens, m.system_prompt.tokens)),
                )
            })
            .chain(std::iter::once(("w-reserve".to_string(), m.joins.tokens, format!("joins: {} tokens", count(m.joins.tokens)))))
            .chain(std::iter::once((
                "w-schemas".to_string(),
                m.tool_schemas.total.tokens,
                format!("tool schemas: {} tokens ({} callable tools)", count(m.tool_schemas.total.tokens), m.tool_schemas.tools.len()),
            )))
            .collect();
        let over = c.budgets.iter().filter(|b| b.status == Status::Over).count();
        let shown = format!("{} + {}", count(m.system_prompt.tokens), count(m.tool_schemas.total.tokens));
        out.push_str(&format!(
            "<div class=\"label\">{}</div>{}<div class=\"n{}\">{}</div>",
            esc(&name),
            marked_bar(&segments, scale, &format!("{name}: system prompt by section, then tool schemas"), &lines(c)),
            if over > 0 { " over" } else { "" },
            esc(&shown)
        ));
    }
    out.push_str("</div>");
    let mut items: Vec<(String, String)> = ids.iter().map(|id| (color(id), id.to_string())).collect();
    items.push(("w-reserve".into(), "joins (separators, boundary merges)".into()));
    items.push(("w-schemas".into(), "tool schemas".into()));
    if reports.iter().any(|c| !lines(c).is_empty()) {
        items.push(("w-limit".into(), "budget (system prompt, tool schemas after the prompt, mode)".into()));
    }
    out.push_str(&legend(&items));
    out.push_str("</div>\n");
    for c in reports {
        out.push_str(&mode_section(c, &color));
    }
    out
}

fn mode_section(c: &Costed, color: &dyn Fn(&str) -> String) -> String {
    let m = &c.measured;
    let count = |tokens: i64| num(Count { tokens, tokenizer: m.tokenizer, exact: m.exact });
    let window = m.window.max_input_tokens as i64;
    let mut out = format!(
        "<div class=\"card\"><h3>{} mode · scenario {} <span class=\"muted\">system prompt {} · tool schemas {} · {} of the window</span></h3>\n",
        esc(&m.mode),
        esc(&m.scenario),
        esc(&count(m.system_prompt.tokens)),
        esc(&num(m.tool_schemas.total)),
        pct(m.window.fixed, window)
    );
    out.push_str(&sections_table(c, color));
    out.push_str(&tool_schemas(m));
    out.push_str(&budgets_table(c));
    out.push_str(&request(m));
    out.push_str(&window_bar(m));
    out.push_str("</div>\n");
    out
}

/// The table of sections: each step's source, tokens, shares and budget, then the joins and the
/// system prompt as a whole.
fn sections_table(c: &Costed, color: &dyn Fn(&str) -> String) -> String {
    let m = &c.measured;
    let count = |tokens: i64| num(Count { tokens, tokenizer: m.tokenizer, exact: m.exact });
    let window = m.window.max_input_tokens as i64;
    let mut out = String::new();
    out.push_str("<h4>Sections</h4><table><thead><tr><th class=\"n\">#</th><th>step</th><th>source</th><th class=\"n\">tokens</th><th class=\"n\">prompt</th><th class=\"n\">window</th><th class=\"n\">budget</th><th></th></tr></thead><tbody>");
    let max = m.sections.iter().map(|s| s.tokens.tokens).max().unwrap_or(1);
    for s in &m.sections {
        let source = match s.sources.len() {
            0 => "(generated)".to_string(),
            1 => s.sources[0].clone(),
            n => format!("{} (+{})", s.sources[0], n - 1),
        };
        let budget = match c.budgets.iter().find(|b| b.kind == BudgetKind::Step && b.id.as_deref() == Some(&s.id)) {
            Some(b) if b.status == Status::Over => format!("<span class=\"over\">{} · over</span>", b.limit),
            Some(b) if matches!(b.status, Status::Near | Status::AtRisk) => {
                format!("<span class=\"over\">{} · {}</span>", b.limit, b.status.word())
            }
            Some(b) => format!("<span class=\"okay\">{}</span>", b.limit),
            None => "-".to_string(),
        };
        let tokens = match s.worst_case {
            Some(w) => format!("{} (≤{})", count(s.tokens.tokens), count(w.tokens)),
            None => count(s.tokens.tokens),
        };
        out.push_str(&format!(
            "<tr><td class=\"n\">{}</td><td><code>{}</code></td><td><code>{}</code></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{budget}</td><td class=\"bar\">{}</td></tr>",
            s.step,
            esc(&s.id),
            esc(&source),
            esc(&tokens),
            pct(s.tokens.tokens, m.system_prompt.tokens),
            pct(s.tokens.tokens, window),
            stacked_bar(&[(color(&s.id), s.tokens.tokens, format!("{}: {tokens} tokens", s.id))], max, &s.id, None)
        ));
    }
    for (label, note, c) in [("joins", "separators, boundary merges", m.joins), ("system prompt", "counted as a whole", m.system_prompt)] {
        out.push_str(&format!(
            "<tr><td></td><td><b>{label}</b></td><td class=\"muted\">{note}</td><td class=\"n\"><b>{}</b></td><td></td><td class=\"n\">{}</td><td></td><td></td></tr>",
            esc(&count(c.tokens)),
            pct(c.tokens, window)
        ));
    }
    out.push_str("</tbody></table>\n");
    out
}

/// The tool schemas by category and MCP server, the list's parts, and each tool's bar.
fn tool_schemas(m: &Measured) -> String {
    let mut out = String::new();
    let t = &m.tool_schemas;
    out.push_str(&format!("<h4>Tool schemas: {} callable tools, {} tokens</h4>", t.tools.len(), esc(&num(t.total))));
    if t.tools.is_empty() {
        out.push_str("<p class=\"muted\">No callable tools in this mode and scenario.</p>");
    } else {
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
        out.push_str("<p class=\"muted\">By category</p>");
        out.push_str(&bar_rows(&groups(&t.categories, "w-tools"), tool_scale));
        if !t.servers.is_empty() {
            out.push_str("<p class=\"muted\">By MCP server</p>");
            out.push_str(&bar_rows(&groups(&t.servers, "w-fixed"), tool_scale));
        }
        let mut tools: Vec<_> = t.tools.iter().collect();
        tools.sort_by(|a, b| b.tokens.tokens.cmp(&a.tokens.tokens).then(a.name.cmp(&b.name)));
        let tool_max = tools.first().map_or(1, |x| x.tokens.tokens);
        out.push_str(&tool_parts(t));
        out.push_str(&format!("<details><summary>Per tool ({})</summary><table><thead><tr><th>tool</th><th>category</th><th>server</th><th class=\"n\">tokens</th><th></th></tr></thead><tbody>", tools.len()));
        for tool in tools {
            out.push_str(&format!(
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"bar\">{}</td></tr>",
                esc(&tool.name),
                esc(&tool.category),
                esc(tool.server.as_deref().unwrap_or("")),
                esc(&num(tool.tokens)),
                stacked_bar(
                    &[("w-tools".into(), tool.tokens.tokens, format!("{}: {}", tool.name, num(tool.tokens)))],
                    tool_max,
                    &tool.name,
                    None
                )
            ));
        }
        out.push_str("</tbody></table></details>");
    }
    out
}

/// The fixed part of every request and how it was counted.
fn request(m: &Measured) -> String {
    let r = &m.request;
    let t = &m.tool_schemas;
    format!(
        "<h4>Request: {} tokens</h4><p>message framing {} · system prompt {} · tool schemas {} · joins {}{}</p><p class=\"muted\">{}</p>",
        esc(&num(r.total)),
        esc(&num(r.framing)),
        esc(&num(m.system_prompt)),
        esc(&num(t.total)),
        esc(&num(r.joins)),
        r.per_message.map_or(String::new(), |n| format!(" · each message of the history adds {n} more")),
        esc(&r.method)
    )
}

/// The window as one bar: fixed context, tool schemas, headroom, history and the reserve, with
/// the summarization trigger.
fn window_bar(m: &Measured) -> String {
    let count = |tokens: i64| num(Count { tokens, tokenizer: m.tokenizer, exact: m.exact });
    let window = m.window.max_input_tokens as i64;
    let r = &m.request;
    let t = &m.tool_schemas;
    let w = &m.window;
    let mut out = String::from("<h4>Window</h4>");
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
    out.push_str(&stacked_bar(&bar, total, "window usage", w.summarization_at.map(|a| a as i64)));
    let mut items: Vec<(String, String)> =
        segments.iter().map(|(class, shown, _, label)| (class.to_string(), format!("{label} {shown}"))).collect();
    if let (Some(at), Some(r)) = (w.summarization_at, w.summarization_ratio) {
        items.push(("w-marker".into(), format!("summarization at {} ({:.0} % of the window)", plain(at as i64), r * 100.0)));
    }
    out.push_str(&legend(&items));
    if w.history_room < 0 {
        out.push_str(&format!(
            "<p class=\"over\">The fixed context, headroom and reserve exceed the window by {} tokens.</p>",
            esc(&num(Count { tokens: -w.history_room, ..r.total }))
        ));
    }
    if !w.unbounded.is_empty() {
        out.push_str(&format!("<p class=\"muted\">Unbounded dynamic sections (costed as rendered): {}</p>", esc(&w.unbounded.join(", "))));
    }
    out.push_str(&format!(
        "<p class=\"muted\">Window {} tokens ({}); response reserve from {}.</p>",
        esc(&plain(window)),
        esc(&m.model.model),
        esc(&w.response_reserve_source)
    ));
    out
}

/// Every budget: tokens against the limit, as a bar with a line at the limit.
fn budgets_table(c: &Costed) -> String {
    let mut out = String::from("<h4>Budgets</h4><table><thead><tr><th>budget</th><th class=\"n\">tokens</th><th class=\"n\">limit</th><th class=\"n\">share</th><th>status</th><th></th><th>counted</th></tr></thead><tbody>");
    for b in &c.budgets {
        let status = match b.status {
            Status::Over => format!("<span class=\"over\">over by {}</span>", esc(&num(Count { tokens: b.excess(), ..b.tokens }))),
            Status::Near | Status::AtRisk => format!("<span class=\"over\">{}</span>", b.status.word()),
            Status::Ok => "<span class=\"okay\">ok</span>".to_string(),
        };
        let scale = b.tokens.tokens.max(b.limit as i64);
        let class = if b.status == Status::Over { "w-over" } else { "w-tools" };
        let bar = marked_bar(
            &[(class.to_string(), b.tokens.tokens, format!("{}: {} tokens", b.name, num(b.tokens)))],
            scale,
            &b.name,
            &[(b.limit as i64, "limit", format!("limit: {} tokens", b.limit))],
        );
        out.push_str(&format!(
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"status\">{status}</td><td class=\"bar\">{bar}</td><td class=\"muted\">{}</td></tr>",
            esc(&b.name),
            esc(&num(b.tokens)),
            esc(&num(Count { tokens: b.limit as i64, tokenizer: b.tokens.tokenizer, exact: true })),
            pct(b.tokens.tokens, b.limit as i64),
            esc(&b.measured)
        ));
    }
    out.push_str("</tbody></table>\n");
    if c.budgets.iter().any(|b| b.status == Status::Over) {
        out.push_str("<p class=\"over\">Over budget: <code>ctxc check</code> fails (exit 1); <code>ctxc cost</code> only reports it.</p>");
    }
    out
}

/// The tool list's framing, preamble and joins: with the tools, they add up to the total.
fn tool_parts(t: &ToolCosts) -> String {
    format!(
        "<p>framing {} <span class=\"muted\">({})</span> · preamble {} <span class=\"muted\">({})</span> · joins {} · total <b>{}</b></p><p class=\"muted\">{}</p>",
        esc(&num(t.framing)),
        esc(t.rendering.tool_framing_note()),
        esc(&num(t.preamble)),
        esc(t.rendering.preamble_note()),
        esc(&num(t.joins)),
        esc(&num(t.total)),
        esc(&t.method)
    )
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
    let mut body = String::from("<div class=\"card\"><h3>Tools, most expensive first</h3>");
    body.push_str(&bar_rows(&shown, scale));
    body.push_str(&tool_parts(t));
    body.push_str("</div>\n");
    let label = if t.exact { "exact" } else { "estimate" };
    page(&format!("Tool cost: {} tools", rows.len()), &format!("{} · {label} ({})", model.model, model.tokenizer.name()), &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(esc("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    }
}
