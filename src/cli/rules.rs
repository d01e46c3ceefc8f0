//! `ctxc rules`: the rule catalogue as a table (or JSON).

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::report::Reporter;
use super::{EXIT_INPUT, EXIT_OK};
use ctxc::diagnostic::Diagnostic;
use ctxc::rules::{self, docs, Lifecycle, Rule};

#[derive(Debug, Args)]
pub struct RulesArgs {
    #[command(flatten)]
    pub color: super::ColorOption,
    /// Only rules whose code starts with this (e.g. `SKILL`, `TOOL00`), or of this family (e.g. `skills`).
    filter: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RulesFormat::Text)]
    format: RulesFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RulesFormat {
    /// An aligned table: code, name, family, default severity, summary.
    Text,
    /// A JSON array of rules.
    Json,
}

#[derive(Serialize)]
struct JsonRule {
    code: &'static str,
    family: &'static str,
    name: &'static str,
    /// Only for a rule in preview.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    preview: bool,
    severity: &'static str,
    summary: &'static str,
}

pub fn run(args: RulesArgs, reporter: &Reporter) -> u8 {
    let selected: Vec<&Rule> = rules::ALL
        .iter()
        .filter(|r| args.filter.as_deref().is_none_or(|f| rules::matches(f, r.code.as_str()) || r.family.name().eq_ignore_ascii_case(f)))
        .collect();
    if selected.is_empty() {
        let filter = args.filter.unwrap_or_default();
        let families: Vec<&str> = rules::Family::ALL.iter().map(|f| f.name()).collect();
        let mut d = Diagnostic::error(format!("no rule matches `{filter}`"));
        d = match rules::suggest(&filter).or_else(|| ctxc::diagnostic::did_you_mean(&filter, families.iter().copied())) {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None => d.help(format!("filter by a code prefix (e.g. SKILL) or a family: {}", families.join(", "))),
        };
        reporter.diagnostics(&[d], &Default::default());
        return EXIT_INPUT;
    }
    match args.format {
        RulesFormat::Text => super::output::print(&table(&selected)),
        RulesFormat::Json => {
            let list: Vec<JsonRule> = selected
                .iter()
                .map(|r| JsonRule {
                    code: r.code.as_str(),
                    family: r.family.name(),
                    name: r.name,
                    severity: docs::severity_name(r.severity),
                    summary: r.summary,
                    preview: r.lifecycle == Lifecycle::Preview,
                })
                .collect();
            super::output::print_json(&ctxc::report::escape::json_text(&list));
        }
    }
    EXIT_OK
}

fn table(selected: &[&Rule]) -> String {
    let width = |f: &dyn Fn(&Rule) -> usize, header: &str| selected.iter().map(|r| f(r)).max().unwrap_or(0).max(header.len());
    let code_w = width(&|r| r.code.as_str().len(), "CODE");
    let name_w = width(&|r| r.name.len(), "NAME");
    let family_w = width(&|r| r.family.name().len(), "FAMILY");
    let severity_w = width(&|r| docs::severity_name(r.severity).len(), "SEVERITY");
    let mut out = format!("{:code_w$}  {:name_w$}  {:family_w$}  {:severity_w$}  SUMMARY\n", "CODE", "NAME", "FAMILY", "SEVERITY");
    for r in selected {
        out.push_str(&format!(
            "{:code_w$}  {:name_w$}  {:family_w$}  {:severity_w$}  {}\n",
            r.code,
            r.name,
            r.family.name(),
            docs::severity_name(r.severity),
            docs::summary_line(r)
        ));
    }
    out
}
