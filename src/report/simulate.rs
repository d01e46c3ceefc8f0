//! `ctxc simulate` for people: a table of model calls (each turn's last call and every call the
//! policy acted on beyond trimming history; every call with `verbose`), the summary, and an SVG chart of the context
//! over the calls with the window and the trigger as lines and the policy's events marked
//! (`templates/chart.html`, also drawn in the cost report).

use serde::Serialize;

use super::table::{plain, table_row};
use crate::simulate::{Call, Event, Simulation, TruncatedSize};

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
        Event::Summarized { by, count, threshold, fires, summarized, kept_from, kept, .. } => format!(
            "summarized {summarized} messages ({by}: {} {} {}), kept {kept}{}",
            n(*count),
            fires.sign(),
            n(*threshold),
            kept_from.as_ref().map(|k| format!(" from {k}")).unwrap_or_default()
        ),
        Event::NothingToSummarize { count, threshold, fires } => {
            format!("at the trigger ({} {} {}) but nothing to summarize", n(*count), fires.sign(), n(*threshold))
        }
        Event::OverBudget { count, budget } => format!("still over the input budget ({} > {})", n(*count), n(*budget)),
        Event::HistoryTrimmed { dropped, kept } => format!("history trimmed: {dropped} dropped, {kept} kept"),
        Event::ToolResultTruncated { message, size, .. } => match size {
            TruncatedSize::Chars { chars, replacement_chars } => {
                format!("truncated {message} ({} chars → {} chars)", n(*chars), n(*replacement_chars))
            }
            TruncatedSize::Bytes { bytes, replacement_bytes } => {
                format!("truncated {message} ({} bytes → {} bytes)", n(*bytes), n(*replacement_bytes))
            }
        },
        Event::ToolResultsPruned { messages, freed } => format!("pruned {} ({} tokens)", messages.join(", "), n(*freed)),
        Event::SoftCompaction { count, threshold, freed } => {
            format!("soft compaction ({} > {}), freed {}", n(*count), n(*threshold), n(*freed))
        }
        Event::ToolPairsSummarized { messages } => format!("tool pairs summarized for later: {}", messages.join(", ")),
        Event::ToolSummariesApplied { messages, count } => {
            format!("tool summaries applied, {} hidden (count now {})", messages.join(", "), n(*count))
        }
        Event::CompactionSkipped { count, threshold, reason } => {
            format!("compaction skipped ({} > {}): {reason}", n(*count), n(*threshold))
        }
        Event::CompactionExhausted { count, threshold, reason } => {
            format!("compaction stopped for the session ({} > {}): {reason}", n(*count), n(*threshold))
        }
        Event::ToolLoopStopped { count, threshold } => {
            format!("turn ended before its next call ({} ≥ {}): its remaining steps not replayed", n(*count), n(*threshold))
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
    out.push('\n');
    for line in summary(s) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The simulation in three lines: summarizations and offloads, the largest request, the window.
pub(super) fn summary(s: &Simulation) -> [String; 3] {
    let sm = &s.summary;
    let approx = if s.exact { "" } else { "~" };
    let turn = |t: Option<usize>| t.map_or("never".to_string(), |t| format!("turn {t}"));
    [
        format!(
            "first summarization: {} · summarizations: {} · offloads: {}{}",
            turn(sm.first_summarization_turn),
            sm.summarizations,
            sm.offloads,
            if sm.stopped_turns.is_empty() { String::new() } else { format!(" · turns ended early: {}", sm.stopped_turns.len()) }
        ),
        format!(
            "largest request: call {} (turn {}), {approx}{} tokens ({} as the runtime counts) of a {} window",
            sm.largest_request.call,
            sm.largest_request.turn,
            n(sm.largest_request.tokens),
            n(sm.largest_request.runtime_count),
            n(sm.window),
        ),
        format!(
            "window exceeded: {} · without the policy: {}",
            turn(sm.window_exceeded_turn),
            turn(sm.window_exceeded_without_policy_turn)
        ),
    ]
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

/// The chart of one simulation, as `templates/chart.html` draws it: per call the runtime's count
/// (what its trigger compares, so a summarization sits on the trigger line) and ctxc's count of
/// the same request, ctxc's count without the policy dashed, the window and the trigger as lines,
/// a marker at each event of the policy (large at a summarization) on the runtime's line.
/// Coordinates in the units of its viewBox.
#[derive(Serialize)]
pub(super) struct Chart {
    label: String,
    width: String,
    height: String,
    left: String,
    right: String,
    bottom: String,
    /// The window and the trigger.
    levels: Vec<Level>,
    without_policy: String,
    with_policy: String,
    runtime: String,
    markers: Vec<Marker>,
    caption_y: String,
    calls: usize,
    turns: usize,
}

/// A horizontal line at a count, with its label.
#[derive(Serialize)]
struct Level {
    y: String,
    text_y: String,
    colour: &'static str,
    text: String,
}

/// A point on the context line where the policy acted.
#[derive(Serialize)]
struct Marker {
    x: String,
    y: String,
    r: &'static str,
    colour: &'static str,
    tip: String,
}

impl Chart {
    pub(super) fn new(s: &Simulation) -> Chart {
        const W: f64 = 720.0;
        const H: f64 = 260.0;
        const PAD: f64 = 40.0;
        let calls = &s.calls;
        let highest = calls.iter().map(|c| c.tokens.max(c.tokens_without_policy).max(c.runtime_count));
        let top = highest.chain([s.summary.window]).max().unwrap_or(1).max(1) as f64 * 1.05;
        let x = |i: usize| PAD + (W - 2.0 * PAD) * if calls.len() > 1 { i as f64 / (calls.len() - 1) as f64 } else { 0.5 };
        let y = |v: u64| H - PAD - (H - 2.0 * PAD) * v as f64 / top;
        let line = |value: fn(&Call) -> u64| {
            calls.iter().enumerate().map(|(i, c)| format!("{:.1},{:.1}", x(i), y(value(c)))).collect::<Vec<_>>().join(" ")
        };
        let level = |v: u64, label: &str, colour| Level {
            y: format!("{:.1}", y(v)),
            text_y: format!("{:.1}", y(v) - 4.0),
            colour,
            text: format!("{label} {}", n(v)),
        };
        let mut levels = vec![level(s.summary.window, "window", "#c0392b")];
        levels.extend(s.policy.trigger.map(|t| level(t, "trigger (runtime count)", "#d68910")));
        let mut markers = Vec::new();
        for (i, c) in calls.iter().enumerate() {
            for e in &c.events {
                // A summarization is the trigger firing; history trimmed is not marked (a history
                // limit trims on every call once reached); any other event the policy reports is.
                let (colour, r) = match e {
                    Event::HistoryTrimmed { .. } => continue,
                    Event::Summarized { .. } => ("#d68910", "5"),
                    _ => ("#7d3c98", "3.5"),
                };
                markers.push(Marker {
                    x: format!("{:.1}", x(i)),
                    y: format!("{:.1}", y(c.runtime_count)),
                    r,
                    colour,
                    tip: format!("turn {}, call {}: {}", c.turn, c.index, describe(e)),
                });
            }
        }
        Chart {
            label: format!("context of {} ({}) over {} model calls", s.agent, s.mode, calls.len()),
            width: W.to_string(),
            height: H.to_string(),
            left: PAD.to_string(),
            right: (W - PAD).to_string(),
            bottom: format!("{:.1}", H - PAD),
            levels,
            without_policy: line(|c| c.tokens_without_policy),
            with_policy: line(|c| c.tokens),
            runtime: line(|c| c.runtime_count),
            markers,
            caption_y: format!("{:.1}", H - 12.0),
            calls: calls.len(),
            turns: s.summary.turns,
        }
    }
}

#[derive(Serialize)]
struct SimulationView {
    title: String,
    chart: Chart,
    text: String,
}

#[derive(Serialize)]
struct SimulatePage {
    simulations: Vec<SimulationView>,
}

/// A self-contained HTML page: each simulation's chart and its text report.
pub fn html(simulations: &[Simulation]) -> String {
    let simulations = simulations
        .iter()
        .map(|s| SimulationView {
            title: format!("{} · {} · {}", s.agent, s.mode, s.policy.system),
            chart: Chart::new(s),
            text: text(s, false),
        })
        .collect();
    super::template::render("simulate.html", &SimulatePage { simulations })
}

#[cfg(test)]
mod tests {
    use super::describe;
    use crate::simulate::{Event, Fires};

    fn summarized(by: &str, fires: Fires) -> Event {
        Event::Summarized { by: by.into(), count: 10, threshold: 10, fires, summarized: 3, kept_from: None, kept: 2, summary_chars: 0 }
    }

    /// The comparison is the one the policy put in the event (its runtime's own), whatever the
    /// event's label says.
    #[test]
    fn the_comparison_in_the_text_is_the_policys() {
        assert_eq!(describe(&summarized("trigger", Fires::AtOrAbove)), "summarized 3 messages (trigger: 10 ≥ 10), kept 2");
        assert_eq!(describe(&summarized("trigger", Fires::Above)), "summarized 3 messages (trigger: 10 > 10), kept 2");
        assert_eq!(describe(&summarized("hard compaction", Fires::AtOrAbove)), "summarized 3 messages (hard compaction: 10 ≥ 10), kept 2");
        let json = serde_json::to_value(summarized("trigger", Fires::Above)).expect("json");
        assert!(json.get("fires").is_none(), "the JSON keeps its documented fields: {json}");
        let nothing = |fires| Event::NothingToSummarize { count: 10, threshold: 9, fires };
        assert_eq!(describe(&nothing(Fires::Above)), "at the trigger (10 > 9) but nothing to summarize");
        assert_eq!(describe(&nothing(Fires::AtOrAbove)), "at the trigger (10 ≥ 9) but nothing to summarize");
        let json = serde_json::to_value(nothing(Fires::Above)).expect("json");
        assert!(json.get("fires").is_none(), "the JSON keeps its documented fields: {json}");
    }
}
