//! `ctxc diff --base REV` for a repository without a manifest: what each host loads at session
//! start (the host view, [`crate::hostview`]) at the revision against the work tree, part by
//! part: each file or listing entry, and each section's joins.

use serde::Serialize;

use super::compare::{Delta, Threshold};
use crate::checks::budgets::Band;
use crate::hostview::HostView;

/// One host's startup context on both sides.
#[derive(Debug, Clone, Serialize)]
pub struct HostChange {
    pub host: String,
    pub name: String,
    pub model: String,
    /// Whether every count is exact (else the figures are estimates).
    pub exact: bool,
    pub total: Delta,
    /// For estimates: the range the work tree's total (else the base's) lies in.
    pub band: Option<Band>,
    /// Every part on either side, in the work tree's order, then the parts it no longer has.
    pub parts: Vec<PartChange>,
}

impl HostChange {
    /// Whether any part's tokens differ, or a part came or went.
    pub fn changed(&self) -> bool {
        self.parts.iter().any(|p| p.tokens.before != p.tokens.after)
    }
}

/// A file or a listing entry (or a section's joins, labelled `(joins)`).
#[derive(Debug, Clone, Serialize)]
pub struct PartChange {
    pub section: String,
    /// The file, relative to the repository folder.
    pub file: String,
    pub label: String,
    pub tokens: Delta,
}

/// A view's parts keyed by section, file (relative to `root`, the display path of the view's
/// project folder) and label, with their tokens.
fn parts(view: &HostView, root: &str) -> Vec<((String, String, String), i64)> {
    let prefix = format!("{}/", root.trim_end_matches('/'));
    let mut out = Vec::new();
    for s in &view.sections {
        for p in &s.parts {
            let file = p.file.strip_prefix(&prefix).unwrap_or(&p.file).to_string();
            out.push(((s.title.clone(), file, p.label.clone()), p.tokens.tokens));
        }
        if s.joins.tokens != 0 {
            out.push(((s.title.clone(), String::new(), "(joins)".to_string()), s.joins.tokens));
        }
    }
    out
}

/// The hosts' views at the base (`before`, its project folder shown as `before_root`) against
/// the work tree's. A host with none of its files on either side is left out.
pub fn compare<'a>(before: &'a [HostView], before_root: &str, after: &'a [HostView], after_root: &str) -> Vec<HostChange> {
    let present = |v: &&HostView| !v.found_nothing();
    let mut hosts: Vec<&str> = after.iter().filter(present).map(|v| v.host.as_str()).collect();
    hosts.extend(before.iter().filter(present).map(|v| v.host.as_str()).filter(|h| !hosts.contains(h)).collect::<Vec<_>>());
    hosts
        .into_iter()
        .map(|id| {
            let find = |views: &'a [HostView]| views.iter().find(|v| v.host == id).filter(|v| !v.found_nothing());
            let (was, now) = (find(before), find(after));
            let was_parts = was.map(|v| parts(v, before_root)).unwrap_or_default();
            let now_parts = now.map(|v| parts(v, after_root)).unwrap_or_default();
            let mut changes: Vec<PartChange> = now_parts
                .iter()
                .map(|(key, tokens)| {
                    let before = was_parts.iter().find(|(k, _)| k == key).map(|(_, t)| *t);
                    part(key, Delta::new(before, Some(*tokens)))
                })
                .collect();
            let gone = was_parts.iter().filter(|(key, _)| !now_parts.iter().any(|(k, _)| k == key));
            changes.extend(gone.map(|(key, tokens)| part(key, Delta::new(Some(*tokens), None))));
            let view = now.or(was).expect("a host listed is on one side at least"); // ok: `hosts` holds only hosts present on a side
            let total = |v: Option<&HostView>| v.map(|v| v.total.tokens);
            HostChange {
                host: view.host.clone(),
                name: view.name.clone(),
                model: view.model.clone(),
                exact: was.iter().chain(&now).all(|v| v.total.exact),
                total: Delta::new(total(was), total(now)),
                band: view.band,
                parts: changes,
            }
        })
        .collect()
}

fn part((section, file, label): &(String, String, String), tokens: Delta) -> PartChange {
    PartChange { section: section.clone(), file: file.clone(), label: label.clone(), tokens }
}

/// The hosts whose total grew by more than `threshold`.
pub fn over_threshold<'a>(changes: &'a [HostChange], threshold: &Threshold) -> Vec<&'a HostChange> {
    changes.iter().filter(|c| threshold.exceeded_by(&c.total)).collect()
}
