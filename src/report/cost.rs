//! `ctxc cost` as text and Markdown: per mode and scenario the steps, the tool schemas by
//! category, server and tool, and the window; and the per-tool table of bare tool files.

use super::table::{num, plain, table_row};
use crate::measure::{Count, Measured, ToolCosts};
use crate::models::ModelProfile;

/// The report of one mode × scenario.
pub fn text(m: &Measured, md: bool) -> String {
    let window = m.window.max_input_tokens;
    let count = |tokens: i64| Count { tokens, tokenizer: m.tokenizer, exact: m.exact };
    let heading = format!(
        "{} · {} mode · scenario {} · {} · {} · window {}",
        m.agent,
        m.mode,
        m.scenario,
        m.model.model,
        m.method,
        plain(window as i64)
    );
    let mut out = if md { format!("### {heading}\n\n") } else { format!("{heading}\n") };
    if let Some(modelled) = &m.modelled {
        out.push_str(&format!("preset models {modelled}\n"));
    }
    out.push('\n');
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
    let joins_note = "separators, boundary merges".to_string();
    for (label, note, c) in [("joins", joins_note.as_str(), m.joins), ("system prompt", "counted as a whole", m.system_prompt)] {
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
                String::new(),
            ],
        ));
    }
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
    out.push_str(&tool_parts(t, md, &|label, c, note| {
        vec![format!("{label:<24}"), format!("{:>5}", ""), format!("{:>8}", num(c)), note.to_string()]
    }));
    let mut sorted: Vec<_> = t.tools.iter().collect();
    sorted.sort_by(|a, b| b.tokens.tokens.cmp(&a.tokens.tokens).then(a.name.cmp(&b.name)));
    let per_tool: Vec<String> = sorted.iter().map(|tool| format!("{} {}", tool.name, num(tool.tokens))).collect();
    if !per_tool.is_empty() {
        out.push_str(&format!("\nper tool: {}\n", per_tool.join(", ")));
    }
    let r = &m.request;
    out.push_str(&format!("\nrequest (the fixed part of every call)\nmethod: {}\n", r.method));
    if md {
        out.push_str("\n| | tokens | |\n|---|---:|---|\n");
    }
    let history = match r.per_message {
        Some(n) => format!("each message of the history adds {n} more (not in this total)"),
        None => "per-message framing of the history not published".to_string(),
    };
    for (label, c, note) in [
        ("message framing", r.framing, r.rendering.framing_note()),
        ("system prompt", m.system_prompt, "counted as a whole"),
        ("tool schemas", t.total, "as above"),
        ("joins", r.joins, "boundary merges"),
        ("total", r.total, history.as_str()),
    ] {
        out.push_str(&table_row(md, &[format!("{label:<18}"), format!("{:>9}", num(c)), note.to_string()]));
    }
    let w = &m.window;
    out.push_str("\nwindow\n");
    if md {
        out.push_str("\n| | tokens | |\n|---|---:|---|\n");
    }
    // Configured numbers are shown as they are; counts carry their `~` when estimated.
    let counted = |tokens: i64| num(Count { exact: r.total.exact, ..count(tokens) });
    let mut lines = vec![
        ("window", plain(window as i64), format!("{} max input tokens", m.model.model)),
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
        out.push_str(&format!("unbounded dynamic sections (costed as rendered): {}\n", w.unbounded.join(", ")));
    }
    if !md {
        let width = 60.0;
        let cells = |n: i64| ((n.max(0) as f64 / window.max(1) as f64) * width).round() as usize;
        let (f, r, h) = (cells(w.fixed), cells(w.response_reserve as i64), cells(w.dynamic_headroom));
        let free = (width as usize).saturating_sub(f + r + h);
        out.push_str(&format!(
            "[{}{}{}{}]  █ fixed  ▓ headroom  ░ history  ▒ reserve\n",
            "█".repeat(f),
            "▓".repeat(h),
            "░".repeat(free),
            "▒".repeat(r)
        ));
    }
    out.push_str(&super::systems::report(m, md));
    out
}

/// The tool list's framing, preamble, joins and total: with the tools, they add up to the total.
fn tool_parts(t: &ToolCosts, md: bool, cells: &dyn Fn(&str, Count, &str) -> Vec<String>) -> String {
    [
        ("framing (once)", t.framing, t.rendering.tool_framing_note()),
        ("preamble (once)", t.preamble, t.rendering.preamble_note()),
        ("joins", t.joins, "boundary merges"),
        ("total", t.total, "what the tools add to the request"),
    ]
    .iter()
    .map(|(label, c, note)| table_row(md, &cells(label, *c, note)))
    .collect()
}

/// The per-tool table of bare tool files, most expensive first.
pub fn tools_text(model: &ModelProfile, t: &ToolCosts, md: bool) -> String {
    let mut rows: Vec<_> = t.tools.iter().collect();
    rows.sort_by(|a, b| b.tokens.tokens.cmp(&a.tokens.tokens).then(a.name.cmp(&b.name)));
    let mut out = format!("{} tools · {} · {}\n\n", rows.len(), model.model, model.tokenizer.method());
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(4).max(22);
    let max = rows.first().map_or(1, |r| r.tokens.tokens.max(1));
    out.push_str(&table_row(md, &[format!("{:<width$}", "tool"), format!("{:>8}", "tokens"), String::new()]));
    if md {
        out.push_str("|---|---:|---|\n");
    }
    for r in rows {
        out.push_str(&table_row(md, &[format!("{:<width$}", r.name), format!("{:>8}", num(r.tokens)), bar(r.tokens.tokens, max, 24)]));
    }
    out.push_str(&tool_parts(t, md, &|label, c, note| vec![format!("{label:<width$}"), format!("{:>8}", num(c)), note.to_string()]));
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
