//! `ctxc check --format json`: one pretty-printed object on stdout (docs/json-output.md).

use std::borrow::Cow;

use serde::Serialize;

use super::region;
use crate::diagnostic::{Fix, Severity};
use crate::lint::check::{AgentSummary, CheckReport, Outcome};
use crate::rules::secrets;

/// Version of this JSON shape; bumped only for incompatible changes.
pub const VERSION: u32 = 1;

#[derive(Serialize)]
struct Output<'a> {
    agents: &'a [AgentSummary],
    diagnostics: Vec<Finding<'a>>,
    exit_code: u8,
    files: &'a [String],
    outcome: Outcome,
    summary: Summary,
    tool: Tool,
    version: u32,
    zero_config: bool,
}

#[derive(Serialize)]
struct Summary {
    errors: usize,
    suppressed: usize,
    warnings: usize,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Finding<'a> {
    code: Option<&'a str>,
    column: Option<usize>,
    end_column: Option<usize>,
    end_line: Option<usize>,
    family: Option<&'static str>,
    /// Credentials in a path are masked, as in a message.
    file: Option<Cow<'a, str>>,
    /// The edits that make the finding go away (`ctxc check --fix`); left out when there are none.
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<&'a Fix>,
    help: Option<&'a str>,
    label: Option<&'a str>,
    line: Option<usize>,
    message: &'a str,
    /// Places that led here (a template's include chain); left out when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related: Vec<RelatedPlace<'a>>,
    rule: Option<&'static str>,
    severity: Severity,
}

#[derive(Serialize)]
struct RelatedPlace<'a> {
    column: Option<usize>,
    file: Cow<'a, str>,
    line: Option<usize>,
    message: &'a str,
}

pub fn render(report: &CheckReport, exit_code: u8) -> String {
    let diagnostics = report
        .diagnostics
        .iter()
        .map(|d| {
            let rule = d.code.map(crate::rules::rule);
            let region = region(d, &report.sources);
            Finding {
                code: d.code.map(|c| c.as_str()),
                column: region.map(|r| r.start_column),
                end_column: region.map(|r| r.end_column),
                end_line: region.map(|r| r.end_line),
                family: rule.map(|r| r.family.name()),
                file: d.file.as_deref().map(secrets::mask),
                fix: d.fix.as_deref(),
                help: d.help.as_deref(),
                label: d.label.as_deref(),
                line: region.map(|r| r.start_line),
                message: &d.message,
                related: d
                    .related
                    .iter()
                    .map(|r| {
                        let at = r.span.as_ref().and_then(|span| report.sources.line_col(&r.file, span.start));
                        RelatedPlace {
                            column: at.map(|(_, c)| c),
                            file: secrets::mask(&r.file),
                            line: at.map(|(l, _)| l),
                            message: &r.message,
                        }
                    })
                    .collect(),
                rule: rule.map(|r| r.name),
                severity: d.severity,
            }
        })
        .collect();
    let output = Output {
        agents: &report.agents,
        diagnostics,
        exit_code,
        files: &report.files,
        outcome: report.outcome(),
        summary: Summary { errors: report.errors(), suppressed: report.suppressed, warnings: report.warnings() },
        tool: Tool { name: "ctxc", version: env!("CARGO_PKG_VERSION") },
        version: VERSION,
        zero_config: report.zero_config,
    };
    crate::report::escape::json_text(&output)
}
