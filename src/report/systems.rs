//! The runtimes' window numbers in `ctxc cost` text and Markdown: each runtime with rows gives
//! them from its `report.rs` (the table's `report` row), and this lays them out.

use super::table::table_row;
use crate::measure::Measured;
use crate::runtimes::{runtime_table, WindowRows};

/// A runtime's rows as the window table prints them: its title, then label, tokens and note.
fn rows(md: bool, WindowRows { title, rows }: WindowRows) -> String {
    let mut out = format!("\n{title}\n");
    if md {
        out.push_str("\n| | tokens | |\n|---|---:|---|\n");
    }
    for (label, tokens, note) in rows {
        out.push_str(&table_row(md, &[format!("{label:<18}"), format!("{tokens:>9}"), note]));
    }
    out
}

macro_rules! report {
    ($($runtime:ident),* $(,)?) => {
        /// The rows of every runtime with window numbers in this render, in the table's order.
        pub fn report(m: &Measured, md: bool) -> String {
            let mut out = String::new();
            $(
                if let Some(window) = &m.window.$runtime {
                    out.push_str(&rows(md, crate::runtimes::$runtime::report::rows(window, &m.scenario)));
                }
            )*
            out
        }
    };
}
runtime_table!(report report);
