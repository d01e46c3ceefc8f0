//! `ctxc check --format concise`: one line per finding, `file:line:col: CODE message`, errors
//! first, for terminals, editors' quickfix lists and grep.

use super::region;
use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::check::CheckReport;
use crate::report::escape::{terminal_line, Untrusted};
use crate::rules::secrets;

pub fn render(report: &CheckReport) -> String {
    let mut all: Vec<&Diagnostic> = report.diagnostics.iter().collect();
    // Stable: errors first, each group in report order.
    all.sort_by_key(|d| d.severity != Severity::Error);
    all.into_iter().map(|d| line(d, report)).collect()
}

fn line(d: &Diagnostic, report: &CheckReport) -> String {
    let place = match (&d.file, region(d, &report.sources)) {
        (Some(file), Some(r)) => format!("{}:{}:{}", Untrusted(file), r.start_line, r.start_column),
        (Some(file), None) => Untrusted(file).to_string(),
        (None, _) => "ctxc".to_string(),
    };
    let code = d.code.map(|c| format!("{} ", c.as_str())).unwrap_or_default();
    let level = if d.severity == Severity::Warning { "[warning] " } else { "" };
    // One finding, one line: a message spanning lines is joined, and what is left of a control
    // character or a workflow command in it is escaped.
    let masked = secrets::mask_with(&d.message, report.sources.secrets());
    let message = terminal_line(&masked.split_whitespace().collect::<Vec<_>>().join(" ")).into_owned();
    format!("{place}: {code}{level}{message}\n")
}
