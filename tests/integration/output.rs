//! Every output format fed the same hostile names and contents (issue 27): nothing executable
//! comes out (no raw control character, no line that reads as a GitHub workflow command, no
//! Markdown or HTML markup from a name, no secret a finding redacted), and the work each format
//! does grows linearly with the findings, counted in bytes read from the sources, not in time.

use ctxc::diagnostic::{Diagnostic, Related};
use ctxc::lint::CheckReport;
use ctxc::report::escape::{self, inert};
use ctxc::report::formats::{self, Paths};
use ctxc::report::{changes, diagnostics};
use ctxc::review::compare::{AgentChange, Comparison, Delta, PromptChange, SectionChange, Status};
use ctxc::rules::secrets;

/// Names a pull request can give a file, an agent, a mode or a section.
const NAMES: [&str; 8] = [
    "skills/pdf\n::error file=x.md,line=1::forged/SKILL.md",
    "mode\r::add-mask::hunter2",
    "  ::stop-commands::tok",
    "tool ##[error]legacy",
    "clip\u{1b}]52;c;Y3VybA==\u{7}board",
    "\u{1b}[2J\u{1b}[Hno problems\u{9b}31m \u{202e}gnp.exe",
    "a`b|c <img src=x onerror=alert(1)> [x](https://evil.example) @everyone </details>",
    "AKIAZ7Q3M5N2P4R6T8V0",
];

/// A line of file content every finding quotes: escapes, a lone CR and a command.
const LINE: &str = "see \u{1b}]8;;https://evil.example\u{1b}\\here\u{1b}]8;;\u{1b}\\ \u{7}\r::error::forged ##[warning]x";

/// A credential a finding redacted; other findings quote its line.
const SECRET: &str = "Qw7Er5Ty3Ui1Op9As2Df4Gh6";
const SECRET_TAIL: &str = "Ty3Ui1Op9As2Df4Gh6";

/// A report of `per_file` findings in each hostile file, every one on a hostile line, with
/// related places and a secret redacted on the line they quote.
fn hostile_report(per_file: usize) -> CheckReport {
    let mut report = CheckReport::default();
    for (i, name) in NAMES.iter().enumerate() {
        // Each line: its number, the hostile line, the secret and the name (which may hold line
        // breaks of its own), with where its finding and its secret are.
        let mut text = String::new();
        let mut places = Vec::new();
        for n in 0..per_file {
            let start = text.len();
            text.push_str(&format!("{n}: {LINE} token = \"{SECRET}\" {name}\n"));
            let line = &text[start..];
            places.push((start + line.find(':').unwrap_or(0), start + line.find(SECRET).expect("secret")));
        }
        report.sources.insert(*name, &text);
        for (n, (start, secret)) in places.into_iter().enumerate() {
            let related = vec![Related { file: name.to_string(), span: Some(start..start + 1), message: format!("included by {name}") }];
            report.diagnostics.push(
                Diagnostic::warning(format!("finding {n} in `{name}`\n::error::from a message"))
                    .in_file(*name)
                    .at(Some(start..start + 2))
                    .label(format!("here, {name}"))
                    .help(format!("rename `{name}`"))
                    .related(related),
            );
            if n % 2 == 0 {
                report.diagnostics.push(
                    Diagnostic::error(format!("a credential in {i}"))
                        .in_file(*name)
                        .at(Some(secret..secret + SECRET.len()))
                        .label("secret (not shown)")
                        .redacted(),
                );
            }
        }
    }
    secrets::mask_report(&mut report.sources, &mut report.diagnostics, &ctxc::memo::Cache::default());
    report
}

/// One way `ctxc check` reports.
type Format = fn(&CheckReport) -> String;

/// Every way `ctxc check` reports, by name.
fn check_formats() -> Vec<(&'static str, Format)> {
    vec![
        ("text", |r| diagnostics::render(&r.diagnostics, &r.sources, false)),
        ("text in colour", |r| diagnostics::render(&r.diagnostics, &r.sources, true)),
        ("concise", formats::concise::render),
        ("json", |r| escape::json(&formats::json::render(r, 1)).into_owned()),
        ("sarif", |r| escape::json(&formats::sarif::render(r, &Paths::default())).into_owned()),
        ("github", |r| formats::github::annotations(r, &Paths::default())),
        ("step summary", |r| formats::github::summary(r, &Paths::default())),
    ]
}

fn assert_inert(format: &str, out: &str) {
    let colour = format.contains("colour");
    match format {
        // ctxc's own annotations are workflow commands, one per finding, each on its line.
        "github" => {
            for line in out.lines() {
                assert!(line.starts_with("::error ") || line.starts_with("::warning "), "{format}: a forged line {line:?}");
                assert_eq!(inert(&line.replacen("::", "", 1), false), None, "{format}: {line:?}");
            }
        }
        _ => assert_eq!(inert(out, colour), None, "{format}:\n{out}"),
    }
    assert!(!out.contains(SECRET_TAIL), "{format} printed a redacted secret:\n{out}");
    assert!(!out.contains("Q3M5N2P4R6T8V0"), "{format} printed a credential used as a name:\n{out}");
}

#[test]
fn every_check_format_is_inert() {
    let report = hostile_report(3);
    for (format, render) in check_formats() {
        let out = render(&report);
        assert!(!out.is_empty(), "{format}");
        assert_inert(format, &out);
    }
}

#[test]
fn markdown_sinks_keep_names_in_their_cells() {
    let report = hostile_report(1);
    let summary = formats::github::summary(&report, &Paths::default());
    for row in summary.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| severity")) {
        assert_eq!(cells(row), 4, "one finding, four cells: {row}");
        assert!(!markup(row), "markup outside a code span: {row}");
    }
    let markdown = changes::markdown(&hostile_comparison(), "HEAD", "work tree", true);
    assert_eq!(inert(&markdown, false), None, "{markdown}");
    for row in markdown.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| agent")) {
        assert_eq!(cells(row), 8, "{row}");
        assert!(!markup(row), "markup outside a code span: {row}");
    }
}

/// The cells of a Markdown table row: its `|` that are not escaped, less one.
fn cells(row: &str) -> usize {
    row.match_indices('|').filter(|(i, _)| !row[..*i].ends_with('\\')).count() - 1
}

/// Whether a Markdown line holds markup outside its code spans and backslash escapes: HTML, a
/// link, a mention (an `@` not followed by a zero-width space) or a line break.
fn markup(line: &str) -> bool {
    let mut unescaped = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
                unescaped.push('_');
            }
            c => unescaped.push(c),
        }
    }
    let plain = outside_code(&unescaped);
    plain.contains(['<', '[', '\r', '\n']) || plain.replace("@\u{200b}", "").contains('@')
}

/// A Markdown line without its code spans.
fn outside_code(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(open) = rest.find('`') {
        out.push_str(&rest[..open]);
        let ticks = rest[open..].chars().take_while(|c| *c == '`').count();
        let fence = "`".repeat(ticks);
        let after = &rest[open + ticks..];
        rest = match after.find(&fence) {
            Some(close) => &after[close + ticks..],
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// A comparison whose agent, modes, scenarios and sections are the hostile names, with a diff of
/// hostile lines.
fn hostile_comparison() -> Comparison {
    let prompts = NAMES
        .iter()
        .map(|name| PromptChange {
            mode: name.to_string(),
            scenario: name.to_string(),
            status: Status::Changed,
            system_prompt: Delta::new(Some(10), Some(12)),
            tool_schemas: Delta::new(Some(0), Some(0)),
            total: Delta::new(Some(10), Some(12)),
            bands: None,
            sections: vec![SectionChange { id: name.to_string(), status: Status::Changed, tokens: Delta::new(Some(10), Some(12)) }],
            tools_changed: false,
            diff: format!("--- before: {name}\n+++ after: {name}\n@@ -1 +1 @@\n-{LINE}\n+{LINE} {name}\n ::error::context\n"),
        })
        .collect();
    Comparison {
        agents: vec![AgentChange {
            path: NAMES[0].to_string(),
            agent: NAMES[6].to_string(),
            status: Status::Changed,
            notes: vec![format!("name: {} → {}", NAMES[1], NAMES[4])],
            exact: true,
            prompts,
        }],
    }
}

#[test]
fn comparisons_are_inert() {
    let text = changes::text(&hostile_comparison(), true);
    assert_eq!(inert(&text, false), None, "{text}");
    assert!(!text.contains("Q3M5N2P4R6T8V0"), "{text}");
}

/// The work of each format on `per_file` findings per file: bytes it read from the sources.
fn work(per_file: usize) -> Vec<(&'static str, usize, usize)> {
    check_formats()
        .into_iter()
        .map(|(format, render)| {
            let report = hostile_report(per_file);
            let before = report.sources.work();
            let out = render(&report);
            (format, report.sources.work() - before, out.len())
        })
        .collect()
}

/// Twice the findings take at most about twice the work, in every format: a report that reads a
/// whole file (or a whole line) per finding takes four times as much. Counted in bytes read from
/// the sources and bytes written, never in time.
#[test]
fn report_work_grows_linearly_with_the_findings() {
    let (small, large) = (work(100), work(200));
    for ((format, work_small, out_small), (_, work_large, out_large)) in small.iter().zip(&large) {
        assert!(*work_large as f64 <= 2.3 * *work_small as f64, "{format}: {work_small} → {work_large} bytes read for twice the findings");
        assert!(*out_large as f64 <= 2.3 * *out_small as f64, "{format}: {out_small} → {out_large} bytes written");
    }
}

/// Findings all on one long line (a minified file): placing each one reads a bounded part of it.
#[test]
fn findings_on_one_long_line_are_placed_in_bounded_work() {
    let work_of = |n: usize| {
        let line: String = (0..n).map(|i| format!("[é{i:05}](missing.md) ")).collect();
        let mut report = CheckReport::default();
        report.sources.insert("f.md", &line);
        let mut at = 0;
        for _ in 0..n {
            report.diagnostics.push(Diagnostic::warning("broken link").in_file("f.md").at(Some(at..at + 4)));
            at += "[é00000](missing.md) ".len();
        }
        check_formats()
            .into_iter()
            .map(|(format, render)| {
                let before = report.sources.work();
                render(&report);
                (format, report.sources.work() - before)
            })
            .collect::<Vec<_>>()
    };
    let (small, large) = (work_of(2000), work_of(4000));
    for ((format, a), (_, b)) in small.iter().zip(&large) {
        assert!(*b as f64 <= 2.3 * *a as f64, "{format}: {a} → {b} bytes read for twice the findings on one line");
    }
}
