//! `ctxc check --format github`: GitHub Actions workflow commands, one annotation per finding,
//! errors first; and a Markdown summary for `$GITHUB_STEP_SUMMARY`.

use std::io::Write;
use std::path::Path;

use super::{region, Paths};
use crate::diagnostic::{Diagnostic, Severity};
use crate::lint::check::CheckReport;
use crate::report::escape::{markdown_code, markdown_text, terminal_text};
use crate::rules::secrets;

/// Most findings listed in the step summary.
pub const SUMMARY_ROWS: usize = 200;

/// The runner's own escapes of a workflow command's message: `%`, and the line breaks (a lone
/// `\r` too), so that the message stays on the command's line.
fn runner_escapes(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escapes a workflow command's message: the runner's escapes, then every other control
/// character shown as an escape (see [`terminal_text`]).
fn escape_data(text: &str) -> String {
    terminal_text(&runner_escapes(text)).into_owned()
}

/// Escapes a workflow command's property value (its `:` and `,` too).
fn escape_property(text: &str) -> String {
    terminal_text(&runner_escapes(text).replace(':', "%3A").replace(',', "%2C")).into_owned()
}

fn ordered(report: &CheckReport) -> Vec<&Diagnostic> {
    let mut all: Vec<&Diagnostic> = report.diagnostics.iter().collect();
    // Stable: errors first, each group in report order.
    all.sort_by_key(|d| d.severity != Severity::Error);
    all
}

fn annotation(d: &Diagnostic, report: &CheckReport, paths: &Paths) -> String {
    let command = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut properties = Vec::new();
    if let Some(file) = &d.file {
        properties.push(format!("file={}", escape_property(&secrets::mask(&paths.relative(file)))));
        if let Some(r) = region(d, &report.sources) {
            properties.push(format!("line={}", r.start_line));
            properties.push(format!("col={}", r.start_column));
            properties.push(format!("endLine={}", r.end_line));
            if r.end_line == r.start_line {
                properties.push(format!("endColumn={}", r.end_column));
            }
        }
    }
    if let Some(code) = &d.code {
        properties.push(format!("title={}", escape_property(code.as_str())));
    }
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let message = secrets::mask_with(&message, report.sources.secrets());
    let properties = if properties.is_empty() { String::new() } else { format!(" {}", properties.join(",")) };
    format!("::{command}{properties}::{}\n", escape_data(&message))
}

/// One annotation line per finding, errors first.
pub fn annotations(report: &CheckReport, paths: &Paths) -> String {
    ordered(report).into_iter().map(|d| annotation(d, report, paths)).collect()
}

/// The Markdown summary: counts, then a table of findings (errors first).
pub fn summary(report: &CheckReport, paths: &Paths) -> String {
    let mut out = format!("## ctxc check\n\n**{}**\n\n", report.summary());
    if report.diagnostics.is_empty() {
        out.push_str("No findings.\n");
        return out;
    }
    out.push_str("| severity | code | location | message |\n|---|---|---|---|\n");
    let all = ordered(report);
    for d in all.iter().take(SUMMARY_ROWS) {
        let severity = if d.severity == Severity::Error { "error" } else { "warning" };
        let location = match (&d.file, region(d, &report.sources)) {
            (Some(file), Some(r)) => markdown_code(&format!("{}:{}:{}", paths.relative(file), r.start_line, r.start_column)),
            (Some(file), None) => markdown_code(&paths.relative(file)),
            _ => String::new(),
        };
        let message = markdown_text(&secrets::mask_with(&d.message, report.sources.secrets()));
        out.push_str(&format!("| {severity} | {} | {location} | {message} |\n", d.code.map_or("", |c| c.as_str())));
    }
    if all.len() > SUMMARY_ROWS {
        out.push_str(&format!("\n…and {} more (run `ctxc check` locally for all of them).\n", all.len() - SUMMARY_ROWS));
    }
    out
}

/// Appends the summary to the step summary file.
pub fn append(path: &Path, summary: &str) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    file.write_all(summary.as_bytes())?;
    file.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_commands() {
        assert_eq!(escape_data("50% done\nnext"), "50%25 done%0Anext");
        assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
    }
}
