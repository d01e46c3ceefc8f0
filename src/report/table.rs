//! Numbers and table rows as the text and Markdown reports print them.

use super::escape::{markdown_text, Untrusted};
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

/// One row of a table, its cells joined: for the terminal, each made inert ([`Untrusted`]: a
/// cell may hold a name from the project); for Markdown, each escaped as prose
/// ([`markdown_text`]).
pub(super) fn table_row(md: bool, cells: &[String]) -> String {
    if md {
        format!("| {} |\n", cells.iter().map(|c| markdown_text(c.trim())).collect::<Vec<_>>().join(" | "))
    } else {
        format!("{}\n", cells.iter().map(|c| Untrusted(c).to_string()).collect::<Vec<_>>().join("  ").trim_end())
    }
}
