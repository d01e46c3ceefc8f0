//! Diagnostics for people: miette's graphical report, with every secret masked.

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, NamedSource, Report};

use crate::diagnostic::{Diagnostic, Severity, Sources};
use crate::rules::secrets;

/// Width diagnostics wrap at, fixed so output does not depend on the terminal.
const WIDTH: usize = 100;

/// The longest line (in bytes) a snippet shows: miette cannot draw a label past column 65,535 (it
/// panics), and a longer line would only repeat kilobytes of one line. A diagnostic on such a
/// line is printed as `file:line:col: message`.
const MAX_SNIPPET_LINE: usize = 10_000;

/// Renders diagnostics as text, in colour or not.
pub fn render(diagnostics: &[Diagnostic], sources: &Sources, color: bool) -> String {
    let theme = if color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(WIDTH);
    let mut out = String::new();
    for d in diagnostics {
        let report = to_report(d, sources);
        if handler.render_report(&mut out, report.as_ref()).is_err() {
            out.push_str(&d.message);
        }
        out.push('\n');
    }
    out
}

fn to_report(d: &Diagnostic, sources: &Sources) -> Report {
    // A secret's line is never shown: the finding names its place instead of quoting it. Other
    // findings show their lines with every secret masked.
    let text = d.file.as_deref().and_then(|f| sources.get(f)).filter(|_| !d.redact).map(secrets::mask);
    let mut message = secrets::mask(&d.message).into_owned();
    // The code leads the message's line (miette would print it on a line of its own above); a
    // place named in the text comes before both, as in `--format concise`.
    if let Some(code) = &d.code {
        message = format!("{} {message}", code.as_str());
    }
    let mut diagnostic = MietteDiagnostic::new("").with_severity(match d.severity {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
    });
    // Spans within the text, when their lines can be drawn; otherwise the place is named.
    let text = text.zip(d.span.as_ref()).and_then(|(text, span)| {
        let start = span.start.min(text.len());
        let end = span.end.min(text.len()).max(start);
        short_lines_around(&text, start, end).then_some((text, start, end - start))
    });
    match (&d.file, &text, &d.span) {
        (Some(_), Some((_, start, len)), _) => {
            diagnostic = diagnostic.with_label(LabeledSpan::new(d.label.as_deref().map(|l| secrets::mask(l).into_owned()), *start, *len));
        }
        (Some(file), _, Some(span)) if sources.get(file).is_some() => {
            let (line, column) = sources.line_col(file, span.start).unwrap_or((1, 1));
            message = format!("{file}:{line}:{column}: {message}");
        }
        (Some(file), _, _) => message = format!("{file}: {message}"),
        _ => {}
    }
    diagnostic.message = message;
    let mut help = d.help.as_deref().map(|h| secrets::mask(h).into_owned());
    // Places that led here (a template's include chain), one line each.
    for r in &d.related {
        let at = match r.span.as_ref().and_then(|span| sources.line_col(&r.file, span.start)) {
            Some((line, column)) => format!("{}:{line}:{column}", r.file),
            None => r.file.clone(),
        };
        let line = format!("{}: {at}", r.message);
        help = Some(match help {
            Some(h) => format!("{h}\n{line}"),
            None => line,
        });
    }
    if let Some(help) = help {
        diagnostic = diagnostic.with_help(help);
    }
    let report = Report::new(diagnostic);
    match (&d.file, text) {
        (Some(file), Some((text, _, _))) => report.with_source_code(NamedSource::new(file, text.into_owned())),
        _ => report,
    }
}

/// Whether the lines a snippet shows for `start..end` (the lines it covers and one on each side)
/// are at most [`MAX_SNIPPET_LINE`] bytes long.
fn short_lines_around(text: &str, start: usize, end: usize) -> bool {
    let bytes = text.as_bytes();
    let line_start = |at: usize| bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line_end = |at: usize| bytes[at..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| at + i);
    let first = line_start(start);
    let from = if first == 0 { 0 } else { line_start(first - 1) };
    let last = line_end(end);
    let to = if last == bytes.len() { last } else { line_end(last + 1) };
    bytes[from..to].split(|&b| b == b'\n').all(|line| line.len() <= MAX_SNIPPET_LINE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rendered(text: &str, at: usize) -> String {
        let mut sources = Sources::default();
        sources.insert("f.toml", text);
        let d = Diagnostic::error("bad value").in_file("f.toml").at(Some(at..at + 1)).label("here");
        render(&[d], &sources, false)
    }

    #[test]
    fn long_lines_are_named_not_drawn() {
        let short = rendered("a = 1\nb = ?\n", 10);
        assert!(short.contains("b = ?") && short.contains("here"), "a short line is drawn:\n{short}");
        // Past column 65,535 miette cannot draw the label at all.
        let long = format!("a = 1\nb = \"{}\" ?\n", "x".repeat(70_000));
        let out = rendered(&long, long.len() - 2);
        assert!(out.contains("f.toml:2:70008: bad value"), "{out}");
        assert!(!out.contains("xxxx") && !out.contains("here"), "{out}");
        // A long line beside the labelled one would be shown too.
        let beside = format!("a = \"{}\"\nb = ?\nc = 3\n", "x".repeat(MAX_SNIPPET_LINE));
        let out = rendered(&beside, beside.find('?').expect("?"));
        assert!(out.contains("f.toml:2:5: bad value") && !out.contains("xxxx"), "{out}");
        let below = format!("a = 1\nb = ?\nc = 3\nd = \"{}\"\n", "x".repeat(MAX_SNIPPET_LINE));
        assert!(rendered(&below, 10).contains("b = ?"), "a line two lines away is not shown, so not in the way");
    }
}
