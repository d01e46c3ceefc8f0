//! Diagnostics for people: miette's graphical report, with every secret masked.

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, NamedSource, Report};

use crate::diagnostic::{Diagnostic, Severity, Sources};
use crate::rules::secrets;

/// Width diagnostics wrap at, fixed so output does not depend on the terminal.
const WIDTH: usize = 100;

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
    let mut diagnostic = MietteDiagnostic::new("").with_severity(match d.severity {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
    });
    if let Some(code) = &d.code {
        diagnostic = diagnostic.with_code(code.as_str());
    }
    match (&d.file, text.as_deref(), &d.span) {
        (Some(_), Some(text), Some(span)) => {
            let start = span.start.min(text.len());
            let len = span.end.min(text.len()).saturating_sub(start);
            diagnostic = diagnostic.with_label(LabeledSpan::new(d.label.as_deref().map(|l| secrets::mask(l).into_owned()), start, len));
        }
        (Some(file), _, Some(span)) if sources.get(file).is_some() => {
            let (line, column) = sources.line_col(file, span.start).unwrap_or((1, 1));
            message = format!("{file}:{line}:{column}: {message}");
        }
        (Some(file), _, _) => message = format!("{file}: {message}"),
        _ => {}
    }
    diagnostic.message = message;
    if let Some(code) = &d.code {
        diagnostic = diagnostic.with_code(code.as_str());
    }
    if let Some(help) = &d.help {
        diagnostic = diagnostic.with_help(secrets::mask(help).into_owned());
    }
    let report = Report::new(diagnostic);
    match (&d.file, text) {
        (Some(file), Some(text)) if d.span.is_some() => report.with_source_code(NamedSource::new(file, text.into_owned())),
        _ => report,
    }
}
