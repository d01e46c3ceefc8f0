//! The host view (`ctxc cost --host`) as text and Markdown: per host, each section's files and
//! entries with their tokens, what the host cuts, and the total against the window (the HTML
//! page is [`super::html::hosts_report`]).

use super::escape::{markdown_text, Untrusted};
use super::table::{num, plain, table_row};
use crate::hostview::{HostView, Part, Section};

/// Every view, one after the other (`md`: Markdown tables).
pub fn text(views: &[&HostView], md: bool) -> String {
    views.iter().map(|v| view(v, md)).collect::<Vec<_>>().join("\n")
}

fn line(md: bool, text: &str) -> String {
    match md {
        true => format!("{}\n\n", markdown_text(text)),
        false => format!("{}\n", Untrusted(text)),
    }
}

fn view(v: &HostView, md: bool) -> String {
    let mut out = String::new();
    let heading = format!("{}: what it loads at session start (working directory {})", v.name, v.from);
    out.push_str(&if md { format!("### {}\n\n", markdown_text(&heading)) } else { line(md, &heading) });
    out.push_str(&line(md, &format!("model {} ({}), window {} tokens", v.model, v.method, plain(v.window as i64))));
    for s in &v.sections {
        out.push('\n');
        out.push_str(&section(s, md));
    }
    out.push('\n');
    let share = v.total.tokens as f64 * 100.0 / v.window.max(1) as f64;
    let band = v.band.map(|b| format!(" ({b})")).unwrap_or_default();
    out.push_str(&line(md, &format!("total {} tokens{band}, {share:.1} % of the window", num(v.total))));
    for note in &v.notes {
        out.push_str(&line(md, &format!("note: {note}")));
    }
    out
}

fn section(s: &Section, md: bool) -> String {
    let mut out = String::new();
    let budget = budget(s).map(|b| format!(" · {b}"));
    out.push_str(&line(md, &format!("{} ({}){}", s.title, s.source, budget.unwrap_or_default())));
    if md {
        out.push_str("| file | part | bytes | tokens | cut |\n|---|---|--:|--:|---|\n");
    }
    for p in &s.parts {
        out.push_str(&table_row(md, &row(p, md)));
    }
    if let Some((part, tokens)) = joins(s) {
        out.push_str(&table_row(md, &cells(md, "(joins)", part, String::new(), tokens, String::new())));
    }
    out.push_str(&table_row(md, &cells(md, "subtotal", "", String::new(), num(s.tokens), String::new())));
    out
}

/// A listing's length against the host's character budget, or what its entries use of the
/// host's budget in tokens, when it has one.
pub(super) fn budget(s: &Section) -> Option<String> {
    let chars = s.budget.map(|b| {
        let over = b.chars.saturating_sub(b.budget_chars);
        let state = if over > 0 { format!(", over by {over}: the host shortens descriptions") } else { String::new() };
        format!("listing {} of {} characters{state}", plain(b.chars as i64), plain(b.budget_chars as i64))
    });
    let tokens = s.entry_budget.map(|b| {
        // Entries are left out only once every description is removed.
        let shortened = match (b.shortened, b.omitted) {
            (0, _) => String::new(),
            (_, 1..) => ", every description removed".to_string(),
            (1, 0) => ", 1 description shortened".to_string(),
            (n, 0) => format!(", {n} descriptions shortened"),
        };
        let state = match b.omitted {
            0 => shortened,
            1 => format!("{shortened}, 1 entry left out"),
            n => format!("{shortened}, {n} entries left out"),
        };
        let (used, limit) = (plain(b.used as i64), plain(b.limit as i64));
        format!("entries use {used} of the listing's {limit} tokens (bytes / {}){state}", b.bytes_per_token)
    });
    chars.or(tokens)
}

/// The `(joins)` row of a section: what it is and its tokens (`?` when the host does not publish
/// its joins), or none when the parts add up to the section.
pub(super) fn joins(s: &Section) -> Option<(&'static str, String)> {
    match s.joins_modelled {
        false => Some(("not modelled", "?".to_string())),
        true => (s.joins.tokens != 0).then(|| ("between the parts", num(s.joins))),
    }
}

/// What the host cuts from a part, and where (empty when it loads it whole).
pub(super) fn cut(p: &Part) -> String {
    p.cut.as_ref().map_or(String::new(), |c| {
        let at = match (c.line, c.column) {
            (Some(line), Some(column)) => format!(" at line {line}, column {column}"),
            _ => String::new(),
        };
        format!("cut{at} ({}): {} bytes, {} tokens dropped", c.why, plain(c.dropped_bytes as i64), num(c.dropped_tokens))
    })
}

fn row(p: &Part, md: bool) -> Vec<String> {
    cells(md, &p.file, &p.label, format!("{} B", plain(p.bytes as i64)), num(p.tokens), cut(p))
}

/// A row's cells: padded to columns in the terminal, as they are in Markdown.
fn cells(md: bool, file: &str, label: &str, bytes: String, tokens: String, cut: String) -> Vec<String> {
    match md {
        true => vec![file.to_string(), label.to_string(), bytes, tokens, cut],
        false => vec![format!("  {file:<40}"), format!("{label:<28}"), format!("{bytes:>10}"), format!("{tokens:>9}"), cut],
    }
}
