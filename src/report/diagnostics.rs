//! Diagnostics for people: miette's graphical report, with every secret masked and every text
//! that came from a file or a name made inert for a terminal or a CI log ([`super::escape`]).
//!
//! A finding's snippet is cut from its file first (the lines it covers and one on each side,
//! found through the line index of [`Sources`]): the work per finding is bounded by the lines it
//! shows, never by the size of its file.

use std::collections::BTreeMap;
use std::ops::Range;

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteDiagnostic, MietteError, MietteSpanContents, Report, SourceCode, SourceSpan,
    SpanContents,
};

use super::escape::{self, Untrusted};
use crate::diagnostic::{Diagnostic, Severity, Sources};
use crate::rules::secrets;

/// Width diagnostics wrap at, fixed so output does not depend on the terminal.
const WIDTH: usize = 100;

/// The longest line (in bytes) a snippet shows: miette cannot draw a label past column 65,535 (it
/// panics), and a longer line would only repeat kilobytes of one line. A diagnostic on such a
/// line is printed as `file:line:col: message`.
const MAX_SNIPPET_LINE: usize = 10_000;

/// Related places a finding lists in text at most (the rest are counted).
const MAX_RELATED_SHOWN: usize = 6;

/// Renders diagnostics as text, in colour or not.
pub fn render(diagnostics: &[Diagnostic], sources: &Sources, color: bool) -> String {
    let theme = if color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(WIDTH);
    // The secrets the patterns find in each file, found once per file for the whole report.
    let mut secrets_of: BTreeMap<&str, Vec<Range<usize>>> = BTreeMap::new();
    let mut out = String::new();
    for d in diagnostics {
        let report = to_report(d, sources, &mut secrets_of);
        if handler.render_report(&mut out, report.as_ref()).is_err() {
            out.push_str(&escape::terminal_text(&secrets::mask_with(&d.message, sources.secrets())));
        }
        out.push('\n');
    }
    out
}

/// The lines of a file a snippet shows, cut from it, with the file's line number of its first
/// line: miette numbers the lines from there.
struct Excerpt {
    name: String,
    text: String,
    first_line: usize,
}

impl SourceCode for Excerpt {
    fn read_span<'a>(&'a self, span: &SourceSpan, before: usize, after: usize) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self.text.read_span(span, before, after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.first_line,
            inner.column(),
            inner.line_count(),
        )))
    }
}

/// The excerpt a finding on `span` of `file` shows (the lines it covers, one more on each side),
/// secrets masked and made inert, with the span's place in it; `None` when a line is too long to
/// draw.
fn excerpt<'s>(
    file: &'s str,
    span: &Range<usize>,
    sources: &Sources,
    secrets_of: &mut BTreeMap<&'s str, Vec<Range<usize>>>,
) -> Option<(Excerpt, usize, usize)> {
    let len = sources.len_of(file)?;
    let start = span.start.min(len);
    let end = span.end.min(len).max(start);
    let first = sources.line_range(file, start)?;
    let last = sources.line_range(file, end)?;
    let from = match first.start {
        0 => first.clone(),
        at => sources.line_range(file, at - 1)?,
    };
    let to = match last.end {
        at if at >= len => last.clone(),
        at => sources.line_range(file, at + 1)?,
    };
    // Every line shown is short: the lines between `first` and `last` are measured as they are cut.
    if [&from, &first, &last, &to].iter().any(|r| r.len() > MAX_SNIPPET_LINE) {
        return None;
    }
    // With the line break after the last line: miette shows an empty last line only before one.
    let window = sources.excerpt(file, from.start..(to.end + 1).min(len))?;
    if window.split('\n').any(|line| line.len() > MAX_SNIPPET_LINE) {
        return None;
    }
    let found = match secrets_of.get(file) {
        Some(found) => found,
        None => {
            let found = sources.get_shared(file).map(|text| secrets::file_ranges(text)).unwrap_or_default();
            secrets_of.entry(file).or_insert(found)
        }
    };
    let masked = secrets::mask_window(window, from.start, found, sources.secrets());
    let (text, marks) = escape::terminal_text_marking(&masked, &[start - from.start, end - from.start]);
    let (line, _) = sources.line_col(file, from.start)?;
    let excerpt = Excerpt { name: Untrusted(file).to_string(), text, first_line: line - 1 };
    Some((excerpt, marks[0], marks[1] - marks[0]))
}

/// A text ctxc wrote around names and quotes (a message, a label, a help): secrets masked,
/// lines kept, made inert.
fn shown(text: &str, sources: &Sources) -> String {
    escape::terminal_text(&secrets::mask_with(text, sources.secrets())).into_owned()
}

fn to_report<'s>(d: &'s Diagnostic, sources: &Sources, secrets_of: &mut BTreeMap<&'s str, Vec<Range<usize>>>) -> Report {
    let mut message = shown(&d.message, sources);
    // The code leads the message's line (miette would print it on a line of its own above); a
    // place named in the text comes before both, as in `--format concise`.
    if let Some(code) = &d.code {
        message = format!("{} {message}", code.as_str());
    }
    let mut diagnostic = MietteDiagnostic::new("").with_severity(match d.severity {
        Severity::Error => miette::Severity::Error,
        Severity::Warning => miette::Severity::Warning,
    });
    // A secret's line is never shown: the finding names its place instead of quoting it. Other
    // findings show their lines, when they can be drawn; otherwise the place is named.
    let cut = match (&d.file, &d.span) {
        (Some(file), Some(span)) if !d.redact => excerpt(file, span, sources, secrets_of),
        _ => None,
    };
    let mut source = None;
    match (&d.file, cut, &d.span) {
        (Some(_), Some((excerpt, start, len)), _) => {
            diagnostic = diagnostic.with_label(LabeledSpan::new(d.label.as_deref().map(|l| shown(l, sources)), start, len));
            source = Some(excerpt);
        }
        (Some(file), None, Some(span)) if sources.contains(file) => {
            let (line, column) = sources.line_col(file, span.start).unwrap_or((1, 1));
            message = format!("{}:{line}:{column}: {message}", Untrusted(file));
        }
        (Some(file), _, _) => message = format!("{}: {message}", Untrusted(file)),
        _ => {}
    }
    diagnostic.message = message;
    let mut help = d.help.as_deref().map(|h| shown(h, sources));
    // Places that led here (a template's include chain), one line each; a long list (a key
    // repeated in many files) shows its first places and how many more.
    let shown_related = if d.related.len() > MAX_RELATED_SHOWN { MAX_RELATED_SHOWN - 1 } else { d.related.len() };
    for r in &d.related[..shown_related] {
        let at = match r.span.as_ref().and_then(|span| sources.line_col(&r.file, span.start)) {
            Some((line, column)) => format!("{}:{line}:{column}", Untrusted(&r.file)),
            None => Untrusted(&r.file).to_string(),
        };
        let line = format!("{}: {at}", shown(&r.message, sources));
        help = Some(match help {
            Some(h) => format!("{h}\n{line}"),
            None => line,
        });
    }
    if shown_related < d.related.len() {
        let more = format!("… and {} more places (every one in `--format json` and `sarif`)", d.related.len() - shown_related);
        help = Some(help.map_or_else(|| more.clone(), |h| format!("{h}\n{more}")));
    }
    if let Some(help) = help {
        diagnostic = diagnostic.with_help(help);
    }
    let report = Report::new(diagnostic);
    match source {
        Some(excerpt) => report.with_source_code(excerpt),
        None => report,
    }
}

/// Why `wrong` names no rule, with the closest code or name when there is one (`ctxc explain`).
pub fn not_a_rule(wrong: &str) -> crate::diagnostic::Diagnostic {
    let d = crate::diagnostic::Diagnostic::error(format!("`{wrong}` is not a rule code or name"));
    let wrong = wrong.trim();
    match crate::diagnostic::did_you_mean(wrong, crate::rules::ALL.iter().map(|r| r.name)).or_else(|| crate::rules::suggest(wrong)) {
        Some(s) => d.help(format!("did you mean `{s}`? (`ctxc rules` lists every code)")),
        None => d.help("`ctxc rules` lists every code"),
    }
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

    /// Related places are listed one a line up to [`MAX_RELATED_SHOWN`]; past it the first ones
    /// and how many more, the count taking the last line, so the list never grows past it.
    #[test]
    fn related_places_past_the_limit_are_counted_not_listed() {
        let mut sources = Sources::default();
        let text: String = (1..=10).map(|i| format!("key{i} = 1\n")).collect();
        sources.insert("f.toml", &text);
        let with_related = |n: usize| {
            let mut d = Diagnostic::warning("repeated key").in_file("f.toml").at(Some(0..4));
            let place = |i: usize| text.find(&format!("key{i} ")).map(|at| at..at + 4);
            d.related = (1..=n)
                .map(|i| crate::diagnostic::Related { file: "f.toml".into(), span: place(i), message: "also here".into() })
                .collect();
            render(&[d], &sources, false)
        };
        let places = |out: &str| out.lines().filter(|l| l.contains("also here: f.toml:")).count();
        let all = with_related(MAX_RELATED_SHOWN);
        assert_eq!(places(&all), MAX_RELATED_SHOWN, "{all}");
        assert!(all.contains("also here: f.toml:6:1") && !all.contains("more places"), "{all}");
        let cut = with_related(MAX_RELATED_SHOWN + 4);
        assert_eq!(places(&cut), MAX_RELATED_SHOWN - 1, "{cut}");
        assert!(cut.contains("also here: f.toml:5:1") && !cut.contains("f.toml:6:1"), "{cut}");
        assert!(cut.contains("… and 5 more places (every one in `--format json` and `sarif`)"), "{cut}");
    }
}
