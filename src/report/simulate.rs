//! `ctxc simulate` for people: a table of model calls (each turn's last call and every call the
//! policy acted on beyond trimming history; every call with `verbose`), the summary, and an SVG chart of the context
//! over the calls with the window, the trigger and each summarization marked.

use super::escape::html as escape_html;
use super::table::{plain, table_row};
use crate::simulate::{Call, Event, Simulation};

fn n(v: u64) -> String {
    plain(v as i64)
}

fn describe(e: &Event) -> String {
    match e {
        Event::ToolResultOffloaded { message, chars, replacement_chars, path, .. } => {
            format!("offloaded {message} ({} chars → {} chars, {path})", n(*chars), n(*replacement_chars))
        }
        Event::HumanMessageOffloaded { message, chars, replacement_chars, path } => {
            format!("offloaded user message {message} ({} chars → {} chars, {path})", n(*chars), n(*replacement_chars))
        }
        Event::ArgumentsTruncated { messages } => format!("arguments truncated in {}", messages.join(", ")),
        Event::Summarized { by, count, threshold, summarized, kept_from, kept, .. } => format!(
            "summarized {summarized} messages ({by}: {} {} {}), kept {kept}{}",
            n(*count),
            // The trigger fires at its count, the input budget above it.
            if by == "input budget" { ">" } else { "≥" },
            n(*threshold),
            kept_from.as_ref().map(|k| format!(" from {k}")).unwrap_or_default()
        ),
        Event::NothingToSummarize { count, threshold } => {
            format!("at the trigger ({} ≥ {}) but nothing to summarize", n(*count), n(*threshold))
        }
        Event::OverBudget { count, budget } => format!("still over the input budget ({} > {})", n(*count), n(*budget)),
        Event::HistoryTrimmed { dropped, kept } => format!("history trimmed: {dropped} dropped, {kept} kept"),
        Event::ToolResultTruncated { message, chars, replacement_chars, .. } => {
            format!("truncated {message} ({} chars → {} chars)", n(*chars), n(*replacement_chars))
        }
        Event::RuntimeStateInjected { fields, chars } => format!("hint added ({}, {} chars)", fields.join(", "), n(*chars)),
    }
}

/// The text report of one simulation.
pub fn text(s: &Simulation, verbose: bool) -> String {
    let p = &s.policy;
    let mut out = format!(
        "{} · mode {} · scenario {} · {} · {}\nconversation: {}, {} turns, {} model calls\ncounted by the runtime: {}\nsummarizes: {}; keeps {}\n",
        s.agent,
        s.mode,
        s.scenario,
        s.model,
        p.system,
        s.source,
        s.summary.turns,
        s.summary.calls,
        p.counter,
        p.trigger_rule,
        p.keep
    );
    for rule in &p.rules {
        out.push_str(&format!("  {rule}\n"));
    }
    out.push('\n');
    let approx = if s.exact { "" } else { "~" };
    out.push_str(&table_row(
        false,
        &[
            format!("{:>5}", "turn"),
            format!("{:>5}", "call"),
            format!("{:>5}", "msgs"),
            format!("{:>9}", "runtime"),
            format!("{:>9}", "sent"),
            format!("{:>9}", "tokens"),
            format!("{:>7}", "window"),
            "events".into(),
        ],
    ));
    let last_of_turn = |i: usize| s.calls.get(i + 1).is_none_or(|next| next.turn != s.calls[i].turn);
    let mut hidden = 0;
    for (i, c) in s.calls.iter().enumerate() {
        // A history limit trims on every call once reached: only verbose shows those calls.
        let acted = c.events.iter().any(|e| !matches!(e, Event::HistoryTrimmed { .. }));
        if !verbose && !acted && !last_of_turn(i) {
            hidden += 1;
            continue;
        }
        out.push_str(&row(c, s.summary.window, approx));
    }
    if hidden > 0 {
        out.push_str(&format!("({hidden} calls where nothing happened not shown: --verbose shows every call)\n"));
    }
    let sm = &s.summary;
    let turn = |t: Option<usize>| t.map_or("never".to_string(), |t| format!("turn {t}"));
    out.push_str(&format!(
        "\nfirst summarization: {} · summarizations: {} · offloads: {}\nlargest request: call {} (turn {}), {approx}{} tokens ({} as the runtime counts) of a {} window\nwindow exceeded: {} · without the policy: {}\n",
        turn(sm.first_summarization_turn),
        sm.summarizations,
        sm.offloads,
        sm.largest_request.call,
        sm.largest_request.turn,
        n(sm.largest_request.tokens),
        n(sm.largest_request.runtime_count),
        n(sm.window),
        turn(sm.window_exceeded_turn),
        turn(sm.window_exceeded_without_policy_turn),
    ));
    out
}

fn row(c: &Call, window: u64, approx: &str) -> String {
    let share = if window == 0 { 0.0 } else { c.tokens as f64 * 100.0 / window as f64 };
    let events: Vec<String> = c.events.iter().map(describe).collect();
    table_row(
        false,
        &[
            format!("{:>5}", c.turn),
            format!("{:>5}", c.index),
            format!("{:>5}", c.messages.len()),
            format!("{:>9}", n(c.runtime_count)),
            format!("{:>9}", n(c.runtime_sent)),
            format!("{:>9}", format!("{approx}{}", n(c.tokens))),
            format!("{:>6.1}%", share),
            events.join("; "),
        ],
    )
}

/// The chart of one simulation: tokens per call (ctxc's count), the count without the policy
/// dashed, the window and the trigger as lines, each summarization and offload marked.
pub fn chart_svg(s: &Simulation) -> String {
    const W: f64 = 720.0;
    const H: f64 = 260.0;
    const PAD: f64 = 40.0;
    let calls = &s.calls;
    let top = calls.iter().map(|c| c.tokens.max(c.tokens_without_policy)).chain([s.summary.window]).max().unwrap_or(1).max(1) as f64 * 1.05;
    let x = |i: usize| PAD + (W - 2.0 * PAD) * if calls.len() > 1 { i as f64 / (calls.len() - 1) as f64 } else { 0.5 };
    let y = |v: u64| H - PAD - (H - 2.0 * PAD) * v as f64 / top;
    let line = |values: &mut dyn Iterator<Item = u64>| {
        values.enumerate().map(|(i, v)| format!("{:.1},{:.1}", x(i), y(v))).collect::<Vec<_>>().join(" ")
    };
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {H}\" role=\"img\" aria-label=\"{}\" class=\"simulation\">\n",
        escape_html(&format!("context of {} ({}) over {} model calls", s.agent, s.mode, calls.len()))
    );
    svg.push_str(&format!(
        "<line x1=\"{PAD}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"currentColor\" stroke-opacity=\"0.4\"/>\n",
        H - PAD,
        W - PAD
    ));
    let mut hline = |v: u64, label: &str, colour: &str| {
        svg.push_str(&format!(
            "<line x1=\"{PAD}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"{colour}\" stroke-dasharray=\"6 4\"/><text x=\"{1}\" y=\"{2:.1}\" text-anchor=\"end\" font-size=\"11\" fill=\"{colour}\">{3} {4}</text>\n",
            y(v),
            W - PAD,
            y(v) - 4.0,
            escape_html(label),
            n(v)
        ));
    };
    hline(s.summary.window, "window", "#c0392b");
    if let Some(t) = s.policy.trigger {
        hline(t, "trigger (runtime count)", "#d68910");
    }
    if !calls.is_empty() {
        svg.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"#888\" stroke-dasharray=\"3 3\" points=\"{}\"/>\n",
            line(&mut calls.iter().map(|c| c.tokens_without_policy))
        ));
        svg.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"#2471a3\" stroke-width=\"2\" points=\"{}\"/>\n",
            line(&mut calls.iter().map(|c| c.tokens))
        ));
    }
    for (i, c) in calls.iter().enumerate() {
        for e in &c.events {
            let (colour, r) = match e {
                Event::Summarized { .. } => ("#d68910", 5.0),
                Event::ToolResultOffloaded { .. } | Event::HumanMessageOffloaded { .. } => ("#7d3c98", 3.5),
                _ => continue,
            };
            svg.push_str(&format!(
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{r}\" fill=\"{colour}\"><title>turn {}, call {}: {}</title></circle>\n",
                x(i),
                y(c.tokens),
                c.turn,
                c.index,
                escape_html(&describe(e))
            ));
        }
    }
    svg.push_str(&format!(
        "<text x=\"{PAD}\" y=\"{:.1}\" font-size=\"11\" fill=\"currentColor\">model calls 1–{} (turns 1–{}); tokens, ctxc's count; dashed grey: without the policy</text>\n</svg>\n",
        H - 12.0,
        calls.len(),
        s.summary.turns
    ));
    svg
}

/// A self-contained HTML page: each simulation's chart and its text report.
pub fn html(simulations: &[Simulation]) -> String {
    let mut body = String::new();
    for s in simulations {
        body.push_str(&format!(
            "<section><h2>{}</h2>\n{}<pre>{}</pre></section>\n",
            escape_html(&format!("{} · {} · {}", s.agent, s.mode, s.policy.system)),
            chart_svg(s),
            escape_html(&text(s, false))
        ));
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ctxc simulate</title>\n<style>body{{font-family:system-ui,sans-serif;margin:2rem;color:#222;background:#fff}}svg.simulation{{max-width:100%;height:auto;color:#222}}pre{{font-size:12px;overflow-x:auto}}@media (prefers-color-scheme: dark){{body{{color:#ddd;background:#181818}}svg.simulation{{color:#ddd}}}}</style></head>\n<body><h1>Context over the conversation</h1>\n{body}</body></html>\n"
    )
}
