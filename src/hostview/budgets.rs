//! Budgets per agent host (BUDGET008): `.ctxc/hosts.toml` (`[hosts.<id>] budget = N`) and
//! `--host-budget HOST=N` set the most tokens a host may load at session start from a folder;
//! `ctxc check` compares each with the host view's total (docs/host-view.md). And the host's own
//! budget of a listing (Codex's skills), which `check --preview` reports passed (BUDGET009):
//! descriptions shortened, or entries left out.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;

use crate::codes::Code;
use crate::diagnostic::{grouped, Diagnostic, Sources};
use crate::hosts::Host;
use crate::project::{ProjectRoot, ReadError};
use crate::tokens::TokenCounter;

/// The budgets file, relative to the folder checked.
pub const FILE: &str = ".ctxc/hosts.toml";

/// One host's budget, and where it is set.
pub struct HostBudget {
    pub host: &'static Host,
    pub budget: u64,
    /// The `budget` key and its value in [`FILE`]; `None` for a budget of the command line.
    pub span: Option<Range<usize>>,
}

/// The budgets set for a folder, what is wrong with them (exit 2), and the file's text.
#[derive(Default)]
pub struct Budgets {
    pub budgets: Vec<HostBudget>,
    pub problems: Vec<Diagnostic>,
    pub sources: Sources,
    /// The file's display path.
    pub file: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(default)]
    hosts: BTreeMap<toml::Spanned<String>, RawHost>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHost {
    budget: toml::Spanned<i64>,
}

fn known() -> String {
    super::hosts().map(|h| h.id.as_str()).collect::<Vec<_>>().join(", ")
}

/// The budgets of [`FILE`] under `root` (none when it is not there), and `flags`
/// (`--host-budget`), which replace the file's for their host.
pub fn read(root: &ProjectRoot, flags: &[(String, u64)]) -> Budgets {
    let mut out = Budgets { file: root.display_path(FILE), ..Budgets::default() };
    match root.read(FILE) {
        Ok(file) => {
            let text = file.text.to_string();
            out.sources.insert(out.file.clone(), &text);
            match toml::from_str::<Raw>(&text) {
                Ok(raw) => {
                    for (id, host) in raw.hosts {
                        let Some(found) = super::hosts().find(|h| h.id == *id.get_ref()) else {
                            out.problems.push(
                                Diagnostic::error(format!("unknown host `{}`: ctxc does not show its startup context", id.get_ref()))
                                    .in_file(&out.file)
                                    .at(Some(id.span()))
                                    .help(format!("use one of: {}", known())),
                            );
                            continue;
                        };
                        let value = host.budget.span();
                        match u64::try_from(*host.budget.get_ref()) {
                            // The key and its value: the key is the last `budget` before the value.
                            Ok(budget) => {
                                let key = text[..value.start].rfind("budget").unwrap_or(value.start);
                                out.budgets.push(HostBudget { host: found, budget, span: Some(key..value.end) });
                            }
                            Err(_) => out
                                .problems
                                .push(Diagnostic::error("a budget is a number of tokens, 0 or more").in_file(&out.file).at(Some(value))),
                        }
                    }
                }
                Err(e) => out.problems.push(
                    Diagnostic::error(format!("{FILE} is not valid: {}", e.message().trim()))
                        .in_file(&out.file)
                        .at(e.span())
                        .help("write `[hosts.<host>]` tables with `budget = <tokens>` (docs/host-view.md)"),
                ),
            }
        }
        Err(ReadError::Missing(_)) => {}
        Err(e) => out.problems.push(e.into_diagnostic().in_file(&out.file)),
    }
    for (id, budget) in flags {
        match super::hosts().find(|h| h.id == *id) {
            Some(host) => {
                out.budgets.retain(|b| b.host.id != *id);
                out.budgets.push(HostBudget { host, budget: *budget, span: None });
            }
            None => out.problems.push(
                Diagnostic::error(format!("--host-budget {id}: ctxc does not show that host's startup context"))
                    .help(format!("use one of: {}", known())),
            ),
        }
    }
    out
}

/// A BUDGET008 finding for each host whose startup context, with `root` as the working
/// directory, passes its budget. Files that cannot be read are reported by the file checks.
pub fn check(root: &ProjectRoot, budgets: &Budgets, counter: &TokenCounter) -> Vec<Diagnostic> {
    let hosts: Vec<&Host> = budgets.budgets.iter().map(|b| b.host).collect();
    let views = super::views(root, "", &hosts, None, counter);
    let mut findings = Vec::new();
    for (set, view) in budgets.budgets.iter().zip(&views.views) {
        let total = u64::try_from(view.total.tokens).unwrap_or(0);
        if total <= set.budget {
            continue;
        }
        let estimate = if view.total.exact { "" } else { "~" };
        let band = view.band.map(|b| format!(" ({b})")).unwrap_or_default();
        let mut d = Diagnostic::finding(format!(
            "{} loads {estimate}{} tokens at session start{band}, over its budget of {} by {}",
            view.name,
            grouped(view.total.tokens),
            grouped(set.budget as i64),
            grouped((total - set.budget) as i64)
        ))
        .code(Code::BUDGET008)
        .help(format!("`ctxc cost --host {}` shows what each file adds; trim the files or raise the budget", view.host));
        d = match &set.span {
            Some(span) => d.in_file(&budgets.file).at(Some(span.clone())).label("the budget"),
            None => d.label("--host-budget"),
        };
        findings.push(d);
    }
    findings
}

/// A BUDGET009 finding for each host listing (Codex's skills) past its budget, with `root` as
/// the working directory: one that leaves entries out, at the first left out, naming them all;
/// else one whose descriptions the host shortens, at the entry that loses most. The host views
/// are made only for hosts with such a budget; the texts of the files pointed at come back with
/// the findings.
pub fn listings_past_budget(root: &ProjectRoot, counter: &TokenCounter) -> (Vec<Diagnostic>, Sources) {
    let hosts: Vec<&Host> = super::hosts()
        .filter(|h| h.startup.as_ref().is_some_and(|s| s.listings.iter().any(|l| l.budget_window_percent.is_some())))
        .collect();
    let mut sources = Sources::default();
    if hosts.is_empty() {
        return (Vec::new(), sources);
    }
    let views = super::views(root, "", &hosts, None, counter);
    // Parts name files by their display path: the root's own prefix off gives the path to read.
    let prefix = root.display_path("");
    let mut findings = Vec::new();
    for view in &views.views {
        for section in &view.sections {
            let Some(budget) = section.entry_budget.filter(|b| b.omitted > 0 || b.shortened > 0) else { continue };
            let left_out: Vec<_> = section.parts.iter().filter(|p| p.bytes == 0 && p.cut.is_some()).collect();
            let shortened = section.parts.iter().filter(|p| p.bytes > 0 && p.cut.is_some());
            let most = shortened.max_by_key(|p| (p.cut.as_ref().map_or(0, |c| c.dropped_bytes), std::cmp::Reverse(p.label.clone())));
            let Some(first) = left_out.first().copied().or(most) else { continue };
            let listing = hosts
                .iter()
                .find(|h| h.id == view.host)
                .and_then(|h| h.startup.as_ref()?.listings.iter().find(|l| l.title == section.title));
            let over = format!(
                "{}'s {} listing is over its budget of {} tokens ({} % of {}'s window of {} tokens as {} knows it, counted as bytes / {})",
                view.name,
                section.title,
                grouped(budget.limit as i64),
                listing.and_then(|l| l.budget_window_percent).unwrap_or_default(),
                view.model,
                grouped(budget.window as i64),
                view.name,
                budget.bytes_per_token
            );
            let (message, label) = match left_out.is_empty() {
                true => (
                    format!("{over}: it shortens the descriptions of {} of its {} entries", budget.shortened, section.parts.len()),
                    "shortened most",
                ),
                false => {
                    let names: Vec<String> = left_out.iter().map(|p| format!("`{}`", p.label)).collect();
                    (
                        format!(
                            "{over}: it removes every description and leaves out {} of its {} entries: {}",
                            budget.omitted,
                            section.parts.len(),
                            names.join(", ")
                        ),
                        "left out first",
                    )
                }
            };
            let mut d = Diagnostic::finding(message)
                .code(Code::BUDGET009)
                .in_file(&first.file)
                .at(Some(0..0))
                .label(label)
                .help(format!("`ctxc cost --host {}` shows each entry's cost and cut; shorten the longest descriptions, or move skills this project does not need out of it", view.host));
            if let Ok(file) = root.read(first.file.strip_prefix(&prefix).unwrap_or(&first.file)) {
                sources.insert_shared(first.file.clone(), file.text);
            } else {
                d.span = None;
            }
            findings.push(d);
        }
    }
    (findings, sources)
}
