//! Numbers and table rows as the text and Markdown reports print them.

use crate::measure::Count;

/// A count for people: thousands separated, `~` in front of estimates.
pub(super) fn num(c: Count) -> String {
    let digits = c.tokens.unsigned_abs().to_string();
    let mut grouped = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    let sign = if c.tokens < 0 { "-" } else { "" };
    let approx = if c.exact { "" } else { "~" };
    format!("{approx}{sign}{grouped}")
}

/// A configured number (a window, a reserve): never marked as an estimate.
pub(super) fn plain(n: i64) -> String {
    num(Count { tokens: n, tokenizer: "", exact: true })
}

pub(super) fn table_row(md: bool, cells: &[String]) -> String {
    if md {
        format!("| {} |\n", cells.iter().map(|c| c.trim()).collect::<Vec<_>>().join(" | "))
    } else {
        format!("{}\n", cells.join("  ").trim_end())
    }
}
