//! `ctxc diff --base REV`: the project at a git revision against the work tree, for the command
//! and the MCP server's `diff` tool alike. The revision is read with git's plumbing into a
//! temporary folder ([`git::checkout`]); the work tree and the index are never touched. With agent
//! manifests on either side, each agent is rendered and counted on both sides ([`agents`]);
//! without, or when hosts are asked for, what each host loads at session start ([`hosts`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Value};

use super::compare::{compare, over_threshold, Comparison, Labels, Threshold};
use super::host_changes::HostChange;
use super::{git, AgentPin};
use crate::counts::{FileChange, Recorded};
use crate::diagnostic::{Diagnostic, Failure};
use crate::hosts::Host;
use crate::project::ProjectRoot;
use crate::tokens::TokenCounter;
use crate::Session;

/// The revision compared with: its commit and its files in a temporary folder.
pub struct Base {
    /// As the user wrote it (`HEAD`, `origin/main`).
    pub rev: String,
    pub repo: git::Repo,
    pub commit: String,
    pub checkout: git::Checkout,
}

impl Base {
    /// The revision `rev` of the repository holding `path` (an agent folder or manifest, `shown`
    /// as the caller prints it), checked out with the manifests' `[project] root`s (`overrides`
    /// applied) covered.
    pub fn read(path: &Path, shown: &str, rev: &str, overrides: &[String]) -> Result<Base, String> {
        let repo = git::locate(path)?;
        let commit = git::resolve(&repo, rev)?;
        let checkout = git::checkout(&repo, &commit, overrides).map_err(|message| format!("cannot read `{shown}` at {rev}: {message}"))?;
        Ok(Base { rev: rev.to_string(), repo, commit, checkout })
    }

    /// A path inside the checkout shown as `REV:path`.
    pub fn shown(&self, text: &str) -> String {
        text.replace(&format!("{}/", self.checkout.root().display()), &format!("{}:", self.rev))
    }
}

/// The agent manifests under `path` in the work tree and at the base, each keyed by its path
/// relative to `path` (`/` separators): (before, after).
pub type Manifests = (Vec<(String, PathBuf)>, Vec<(String, PathBuf)>);

pub fn manifests(path: &Path, base: &Base) -> Manifests {
    let after = crate::discover::find_manifests(path).map(|m| keyed(path, m)).unwrap_or_default();
    let before = match base.checkout.exists {
        true => crate::discover::find_manifests(&base.checkout.path).map(|m| keyed(&base.checkout.path, m)).unwrap_or_default(),
        false => Vec::new(),
    };
    (before, after)
}

fn keyed(path: &Path, manifests: Vec<PathBuf>) -> Vec<(String, PathBuf)> {
    manifests
        .into_iter()
        .map(|m| {
            let rel = if path.is_file() { Path::new(m.file_name().unwrap_or_default()) } else { m.strip_prefix(path).unwrap_or(&m) };
            (rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/"), m)
        })
        .collect()
}

/// The agents compared: per agent, mode × scenario and section, and the agents whose
/// `ctxc.counts` changed.
pub struct AgentsDiff {
    pub comparison: Comparison,
    pub counts: Vec<FileChange>,
}

/// The agents that could not be rendered, on each side (the base's paths inside the checkout).
pub struct Unrendered {
    pub before: Vec<Failure>,
    pub after: Vec<Failure>,
}

/// Renders and counts both sides' agents with one session and compares them.
pub fn agents(manifests: &Manifests, base: &Base, session: &Session) -> Result<AgentsDiff, Unrendered> {
    let (before, after) = (pin_side(&manifests.0, session), pin_side(&manifests.1, session));
    match (before, after) {
        (Ok(before), Ok(after)) => {
            let labels = Labels { before: base.rev.clone(), after: "work tree".into() };
            Ok(AgentsDiff { comparison: compare(&before.pins, &after.pins, &labels), counts: counts_changes(&before, &after) })
        }
        (before, after) => Err(Unrendered { before: before.err().unwrap_or_default(), after: after.err().unwrap_or_default() }),
    }
}

/// An agent's `ctxc.counts` (empty when it has none) and the finding for counts in it that no
/// tokenizer gives.
struct AgentCounts {
    agent: String,
    recorded: Arc<Recorded>,
    implausible: Option<String>,
}

/// One side's agents: each pinned, with its recorded counts by the same keys.
struct Side {
    pins: Vec<(String, AgentPin)>,
    counts: BTreeMap<String, AgentCounts>,
}

fn pin_side(manifests: &[(String, PathBuf)], session: &Session) -> Result<Side, Vec<Failure>> {
    let paths: Vec<PathBuf> = manifests.iter().map(|(_, m)| m.clone()).collect();
    let results = session.each(&paths, |m| super::pin_measured(session, m));
    let mut side = Side { pins: Vec::new(), counts: BTreeMap::new() };
    let mut failures = Vec::new();
    for ((key, _), result) in manifests.iter().zip(results) {
        match result {
            Ok((loaded, pin, measured)) => {
                let implausible = crate::checks::budgets::implausible_counts(&loaded.agent, &measured).map(|d| d.message);
                let recorded = loaded.recorded.unwrap_or_default();
                side.counts.insert(key.clone(), AgentCounts { agent: pin.agent.clone(), recorded, implausible });
                side.pins.push((key.clone(), pin));
            }
            Err(failure) => failures.push(failure),
        }
    }
    match failures.is_empty() {
        true => Ok(side),
        false => Err(failures),
    }
}

/// The agents whose `ctxc.counts` changed, or holds counts no tokenizer gives, in the work tree.
fn counts_changes(before: &Side, after: &Side) -> Vec<FileChange> {
    let none = Arc::new(Recorded::default());
    after
        .counts
        .iter()
        .filter_map(|(key, now)| {
            let base = before.counts.get(key).map_or(&none, |was| &was.recorded);
            let changes = now.recorded.changes_from(base);
            let file = match key.rsplit_once('/') {
                Some((folder, _)) => format!("{folder}/{}", crate::counts::FILE_NAME),
                None => crate::counts::FILE_NAME.to_string(),
            };
            let implausible = now.implausible.clone();
            (changes.any() || implausible.is_some()).then(|| FileChange { file, agent: now.agent.clone(), changes, implausible })
        })
        .collect()
}

/// What each host loads at session start, at the base against the work tree.
pub struct HostsDiff {
    pub changes: Vec<HostChange>,
    /// Files that could not be read, on either side (the base's shown as `REV:path`).
    pub problems: Vec<Diagnostic>,
}

/// The host views of `root` (the work tree's folder) and of the same folder at the base, which
/// is read where the work tree is: hosts that name files by their absolute path name them the
/// same on both sides. `from`: the hosts' working directory, relative to `root`. Unless the
/// hosts were asked for (`explicit`), only those whose own files either side has.
pub fn hosts(root: &ProjectRoot, base: &Base, from: &str, hosts: &[&Host], explicit: bool) -> Result<HostsDiff, Diagnostic> {
    let counter = TokenCounter::new();
    let mut after = crate::hostview::views(root, from, hosts, None, &counter);
    let before_root = match base.checkout.exists {
        true => Some(ProjectRoot::new(&base.checkout.path).map_err(|e| e.into_diagnostic())?),
        false => None,
    };
    let mut before =
        before_root.as_ref().map(|b| crate::hostview::views_seen_at(b, root.canonical(), from, hosts, None, &counter)).unwrap_or_default();
    if !explicit {
        let shown: Vec<String> = after.views.iter().chain(&before.views).filter(|v| v.shown_by_default()).map(|v| v.host.clone()).collect();
        after.views.retain(|v| shown.contains(&v.host));
        before.views.retain(|v| shown.contains(&v.host));
    }
    let mut problems = after.problems;
    problems.extend(before.problems.into_iter().map(|mut d| {
        d.file = d.file.map(|f| base.shown(&f));
        d
    }));
    let before_shown = before_root.as_ref().map(|b| b.display().display().to_string()).unwrap_or_default();
    let changes = super::host_changes::compare(&before.views, &before_shown, &after.views, &root.display().display().to_string());
    Ok(HostsDiff { changes, problems })
}

/// `ctxc diff --format json` for agents: the comparison with its base, the recorded counts'
/// changes and the renders over `threshold`.
pub fn agents_json(base: &Base, diff: &AgentsDiff, threshold: Option<&Threshold>) -> Value {
    let over: Vec<Value> = threshold
        .map(|t| over_threshold(&diff.comparison, t))
        .unwrap_or_default()
        .iter()
        .map(|(a, p)| json!({ "path": a.path, "agent": a.agent, "mode": p.mode, "scenario": p.scenario, "total": p.total }))
        .collect();
    json!({
        "base": base.rev,
        "commit": base.commit,
        "head": "work tree",
        "changed": diff.comparison.changed(),
        "agents": diff.comparison.agents,
        "counts": diff.counts,
        "fail_on_increase": threshold.map(|t| t.to_string()),
        "over_threshold": over,
    })
}

/// `ctxc diff --format json` for hosts.
pub fn hosts_json(base: &Base, diff: &HostsDiff, threshold: Option<&Threshold>) -> Value {
    let over = threshold.map(|t| super::host_changes::over_threshold(&diff.changes, t)).unwrap_or_default();
    json!({
        "base": base.rev,
        "commit": base.commit,
        "head": "work tree",
        "changed": diff.changes.iter().any(|c| c.changed()),
        "hosts": diff.changes,
        "fail_on_increase": threshold.map(|t| t.to_string()),
        "over_threshold": over.iter().map(|c| &c.host).collect::<Vec<_>>(),
    })
}
