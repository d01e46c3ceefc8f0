//! `ctxc diff --base REV`: the project as it was at a git revision against the work tree. Both
//! sides are rendered and counted with the same counter; per agent, mode × scenario and section
//! the tokens before, after and the delta, then the text diffs. The work tree and the index are
//! never touched: the revision is read with git's plumbing into a temporary folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, ValueEnum};

use super::report::Reporter;
use super::{check_path, output, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK};
use ctxc::counts::{FileChange, Recorded};
use ctxc::lint::baseline::Changes;
use ctxc::report::escape::Untrusted;
use ctxc::review::compare::{compare, over_threshold, AgentChange, Comparison, Delta, Labels, PromptChange, Threshold};
use ctxc::review::{self, git, AgentPin};
use ctxc::{Failure, Session};

#[derive(Debug, Args)]
pub struct DiffArgs {
    #[command(flatten)]
    pub color: super::ColorOption,
    /// The git revision to compare the work tree with: a commit, branch or tag (`HEAD`, `origin/main`).
    #[arg(long, value_name = "REV")]
    base: String,
    /// Agent directory, manifest file, or a directory of agents, inside a git work tree
    /// (default: the current directory).
    #[arg(default_value = ".")]
    path: PathBuf,
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    format: DiffFormat,
    /// Exit 1 when the total (system prompt + tool schemas) of any mode and scenario grows by
    /// more than N tokens, or N percent with `N%` (e.g. `500`, `5%`).
    #[arg(long, value_name = "N|N%")]
    fail_on_increase: Option<Threshold>,
    /// Also list what did not change (text and Markdown).
    #[arg(long)]
    all: bool,
    /// A `ctxc check --baseline` file: also list the entries the change adds to it (findings
    /// `check` stops reporting) and removes from it, by code and file.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    #[command(flatten)]
    set: super::SetArgs,
    #[command(flatten)]
    pub tokenizers: super::TokenizerOptions,
    /// Without a manifest (or with `--host`): compare what each host loads at session start.
    #[command(flatten)]
    hosts: super::HostArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DiffFormat {
    /// Token tables and unified diffs for the terminal.
    Text,
    /// A table and folded diffs for a pull request comment.
    Markdown,
    /// Everything, for tools (see docs/review.md).
    Json,
}

/// Agent manifests under `path` keyed by their path relative to it (`/` separators).
fn keyed(path: &Path, manifests: Vec<PathBuf>) -> Vec<(String, PathBuf)> {
    manifests
        .into_iter()
        .map(|m| {
            let rel = if path.is_file() { Path::new(m.file_name().unwrap_or_default()) } else { m.strip_prefix(path).unwrap_or(&m) };
            (rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/"), m)
        })
        .collect()
}

/// An agent's `ctxc.counts` (empty when it has none) and the finding for counts in it that no
/// tokenizer gives.
struct AgentCounts {
    agent: String,
    recorded: Arc<Recorded>,
    implausible: Option<String>,
}

/// One side's agents: each pinned, with its recorded counts.
struct Side {
    pins: Vec<(String, AgentPin)>,
    /// By the same keys.
    counts: BTreeMap<String, AgentCounts>,
}

/// Pins one side's agents; on failure, the rendered diagnostics.
fn pin_side(manifests: &[(String, PathBuf)], session: &Session, reporter: &Reporter) -> Result<Side, String> {
    let paths: Vec<PathBuf> = manifests.iter().map(|(_, m)| m.clone()).collect();
    let results = session.each(&paths, |m| review::pin_measured(session, m));
    let mut side = Side { pins: Vec::new(), counts: BTreeMap::new() };
    let mut errors = String::new();
    for ((key, _), result) in manifests.iter().zip(results) {
        match result {
            Ok((loaded, pin, measured)) => {
                let implausible = ctxc::checks::budgets::implausible_counts(&loaded.agent, &measured).map(|d| d.message);
                let recorded = loaded.recorded.unwrap_or_default();
                side.counts.insert(key.clone(), AgentCounts { agent: pin.agent.clone(), recorded, implausible });
                side.pins.push((key.clone(), pin));
            }
            Err(Failure { diagnostics, sources }) => errors.push_str(&reporter.render(&diagnostics, &sources)),
        }
    }
    if errors.is_empty() {
        Ok(side)
    } else {
        Err(errors)
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
                Some((folder, _)) => format!("{folder}/{}", ctxc::counts::FILE_NAME),
                None => ctxc::counts::FILE_NAME.to_string(),
            };
            let implausible = now.implausible.clone();
            (changes.any() || implausible.is_some()).then(|| FileChange { file, agent: now.agent.clone(), changes, implausible })
        })
        .collect()
}

/// The repository, the base commit's id and its files in a temporary checkout.
fn base_checkout(args: &DiffArgs, overrides: &[String]) -> Result<(git::Repo, String, git::Checkout), String> {
    let repo = git::locate(&args.path)?;
    let commit = git::resolve(&repo, &args.base)?;
    let checkout = git::checkout(&repo, &commit, overrides)
        .map_err(|message| format!("cannot read `{}` at {}: {message}", Untrusted(&args.path.display().to_string()), args.base))?;
    Ok((repo, commit, checkout))
}

/// `--baseline FILE`: the entries of FILE at the base commit against those in the work tree.
fn baseline_changes(file: &Path, repo: &git::Repo, commit: &str, base: &str) -> Result<ctxc::lint::baseline::Changes, String> {
    let shown = file.display().to_string();
    let folder = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let folder = folder.canonicalize().map_err(|e| format!("--baseline {shown}: {e}"))?;
    let name = file.file_name().ok_or_else(|| format!("--baseline {shown}: not a file"))?;
    let rel = folder.join(name);
    let rel = rel.strip_prefix(&repo.top).map_err(|_| format!("--baseline {shown}: outside the repository"))?;
    let rel = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/");
    let before = git::read_file(repo, commit, &rel, ctxc::project::MAX_FILE_BYTES).map_err(|e| format!("--baseline {shown}: {e}"))?;
    let before = before.map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    let after = match std::fs::symlink_metadata(file) {
        Ok(_) => Some(ctxc::project::ProjectRoot::read_path(file).map_err(|e| format!("--baseline: {}", e.message()))?.text),
        Err(_) => None,
    };
    let before_shown = PathBuf::from(format!("{base}:{rel}"));
    ctxc::lint::baseline::changes(before.as_deref().map(|t| (t, before_shown.as_path())), after.as_deref().map(|t| (t, file)))
}

/// `--format json`: the comparison with its base, the recorded counts' changes and the renders
/// over `--fail-on-increase`.
fn json_report(
    args: &DiffArgs,
    commit: &str,
    comparison: &Comparison,
    counts: &[FileChange],
    over: &[(&AgentChange, &PromptChange)],
) -> serde_json::Value {
    let over_json: Vec<_> = over
        .iter()
        .map(|(a, p)| serde_json::json!({ "path": a.path, "agent": a.agent, "mode": p.mode, "scenario": p.scenario, "total": p.total }))
        .collect();
    serde_json::json!({
        "base": args.base,
        "commit": commit,
        "head": "work tree",
        "changed": comparison.changed(),
        "agents": comparison.agents,
        "counts": counts,
        "fail_on_increase": args.fail_on_increase.map(|t| t.to_string()),
        "over_threshold": over_json,
    })
}

/// Prints the JSON report, with the `--baseline` entries the change adds and removes.
fn print_json(mut json: serde_json::Value, baseline: Option<(&str, &Changes)>) {
    if let Some((file, changes)) = baseline {
        json["baseline"] = serde_json::json!({ "file": file, "added": changes.added, "removed": changes.removed });
    }
    output::print_json(&ctxc::report::escape::json_text(&json));
}

/// `--fail-on-increase` passed: names each total that grew too much (with its name, shown) on
/// stderr; exit 1.
fn grew<'a>(threshold: &Threshold, over: impl Iterator<Item = (String, &'a Delta)>) -> u8 {
    let list: Vec<String> = over
        .map(|(name, total)| {
            let pct = total.percent().map(|x| format!(", {x:+.1} %")).unwrap_or_default();
            format!("{name}: {:+} tokens{pct}", total.delta)
        })
        .collect();
    output::eprint(&format!("error: grew by more than {threshold} (--fail-on-increase): {}\n", list.join("; ")));
    EXIT_FINDINGS
}

/// The host view of the base against the work tree's, for a folder without a manifest (see
/// [`ctxc::review::host_changes`]).
fn host_diff(args: &DiffArgs, commit: &str, checkout: &git::Checkout, baseline: Option<(String, Changes)>, reporter: &Reporter) -> u8 {
    let usage = |(message, help): (String, String)| reporter.usage(format!("{message} ({help})"));
    let (hosts, explicit) = match args.hosts.hosts() {
        Ok(found) => found,
        Err(e) => return usage(e),
    };
    if !args.path.is_dir() {
        return usage((format!("{}: the host view reads a directory", args.path.display()), "give the repository's folder as PATH".into()));
    }
    let root = match ctxc::project::ProjectRoot::new(&args.path) {
        Ok(root) => root,
        Err(e) => {
            reporter.diagnostics(&[e.into_diagnostic()], &ctxc::Sources::default());
            return EXIT_INPUT;
        }
    };
    let from = match args.hosts.from(&root) {
        Ok(from) => from,
        Err(e) => return usage(e),
    };
    let counter = ctxc::tokens::TokenCounter::new();
    let mut after = ctxc::hostview::views(&root, &from, &hosts, None, &counter);
    let base = match checkout.exists.then(|| ctxc::project::ProjectRoot::new(&checkout.path)) {
        Some(Ok(base)) => Some(base),
        Some(Err(e)) => {
            reporter.diagnostics(&[e.into_diagnostic()], &ctxc::Sources::default());
            return EXIT_INPUT;
        }
        None => None,
    };
    // The base is read where the work tree is: hosts that name files by their absolute path
    // name them the same on both sides.
    let mut before =
        base.as_ref().map(|b| ctxc::hostview::views_seen_at(b, root.canonical(), &from, &hosts, None, &counter)).unwrap_or_default();
    if !explicit {
        // Without --host: the hosts whose own files either side has.
        let shown: Vec<String> = after.views.iter().chain(&before.views).filter(|v| v.shown_by_default()).map(|v| v.host.clone()).collect();
        after.views.retain(|v| shown.contains(&v.host));
        before.views.retain(|v| shown.contains(&v.host));
    }
    let shown_base = format!("{}/", checkout.root().display());
    let mut problems = after.problems.clone();
    problems.extend(before.problems.iter().cloned().map(|mut d| {
        d.file = d.file.map(|f| f.replace(&shown_base, &format!("{}:", args.base)));
        d
    }));
    reporter.diagnostics(&problems, &ctxc::Sources::default());
    let before_root = base.as_ref().map(|b| b.display().display().to_string()).unwrap_or_default();
    let changes = ctxc::review::host_changes::compare(&before.views, &before_root, &after.views, &root.display().display().to_string());
    if changes.is_empty() && !explicit {
        return reporter.usage(format!(
            "no ctxc.toml or ctxc.yaml in `{}`, and no file an agent host loads, neither at {} nor in the work tree",
            args.path.display(),
            args.base
        ));
    }
    let over = args.fail_on_increase.map(|t| ctxc::review::host_changes::over_threshold(&changes, &t)).unwrap_or_default();
    let baseline = baseline.as_ref().map(|(file, changes)| (file.as_str(), changes));
    match args.format {
        DiffFormat::Text | DiffFormat::Markdown => {
            let md = args.format == DiffFormat::Markdown;
            let listed = baseline.map(|(file, changes)| match md {
                true => ctxc::report::changes::baseline_markdown(file, changes),
                false => ctxc::report::changes::baseline_text(file, changes),
            });
            output::print(&format!("{}{}", ctxc::report::changes::hosts(&changes, &args.base, args.all, md), listed.unwrap_or_default()));
        }
        DiffFormat::Json => {
            let json = serde_json::json!({
                "base": args.base,
                "commit": commit,
                "head": "work tree",
                "changed": changes.iter().any(|c| c.changed()),
                "hosts": changes,
                "fail_on_increase": args.fail_on_increase.map(|t| t.to_string()),
                "over_threshold": over.iter().map(|c| &c.host).collect::<Vec<_>>(),
            });
            print_json(json, baseline);
        }
    }
    if let Some(threshold) = args.fail_on_increase.filter(|_| !over.is_empty()) {
        return grew(&threshold, over.iter().map(|c| (Untrusted(&c.name).to_string(), &c.total)));
    }
    if problems.is_empty() {
        EXIT_OK
    } else {
        EXIT_INPUT
    }
}

pub fn run(mut args: DiffArgs, reporter: &Reporter) -> u8 {
    let overrides = match args.set.with_env(reporter) {
        Ok(o) => o,
        Err(code) => return code,
    };
    if let Err(code) = check_path(&args.path, reporter) {
        return code;
    }
    args.path = ctxc::discover::agent_folder(&args.path);
    let (repo, commit, checkout) = match base_checkout(&args, &overrides) {
        Ok(found) => found,
        Err(message) => return reporter.usage(message),
    };
    let baseline = match &args.baseline {
        Some(file) => match baseline_changes(file, &repo, &commit, &args.base) {
            Ok(changes) => Some((file.display().to_string(), changes)),
            Err(message) => return reporter.usage(message),
        },
        None => None,
    };
    let after = match ctxc::discover::find_manifests(&args.path) {
        Ok(m) => keyed(&args.path, m),
        Err(_) => Vec::new(),
    };
    let before = if checkout.exists {
        ctxc::discover::find_manifests(&checkout.path).map(|m| keyed(&checkout.path, m)).unwrap_or_default()
    } else {
        Vec::new()
    };
    if args.hosts.given() || (before.is_empty() && after.is_empty()) {
        return host_diff(&args, &commit, &checkout, baseline, reporter);
    }
    let session = args.tokenizers.session(overrides);
    let after_pins = pin_side(&after, &session, reporter);
    // Paths inside the temporary checkout are shown as `REV:path`.
    let before_pins = pin_side(&before, &session, reporter)
        .map_err(|e| e.replace(&format!("{}/", checkout.root().display()), &format!("{}:", args.base)));
    let (before_side, after_side) = match (before_pins, after_pins) {
        (Ok(b), Ok(a)) => (b, a),
        (b, a) => {
            if let Err(e) = b {
                reporter.eprint(&format!("the project at {} cannot be rendered:\n{e}", args.base));
            }
            if let Err(e) = a {
                reporter.eprint(&e);
            }
            return EXIT_INPUT;
        }
    };
    let labels = Labels { before: args.base.clone(), after: "work tree".into() };
    let comparison = compare(&before_side.pins, &after_side.pins, &labels);
    let counts = counts_changes(&before_side, &after_side);
    let over = args.fail_on_increase.map(|t| over_threshold(&comparison, &t)).unwrap_or_default();
    let baseline = baseline.as_ref().map(|(file, changes)| (file.as_str(), changes));
    match args.format {
        DiffFormat::Text => {
            let text = ctxc::report::changes::text(&comparison, args.all);
            let counts = ctxc::report::changes::counts_text(&counts);
            let listed = baseline.map(|(file, changes)| ctxc::report::changes::baseline_text(file, changes)).unwrap_or_default();
            output::print(&format!("{text}{counts}{listed}"));
        }
        DiffFormat::Markdown => {
            let table = ctxc::report::changes::markdown(&comparison, &args.base, "work tree", args.all);
            let counts = ctxc::report::changes::counts_markdown(&counts);
            let listed = baseline.map(|(file, changes)| ctxc::report::changes::baseline_markdown(file, changes)).unwrap_or_default();
            output::print(&format!("{table}{counts}{listed}"));
        }
        DiffFormat::Json => {
            print_json(json_report(&args, &commit, &comparison, &counts, &over), baseline);
        }
    }
    if let Some(threshold) = args.fail_on_increase.filter(|_| !over.is_empty()) {
        let named =
            over.iter().map(|(a, p)| (format!("{} {} · {}", Untrusted(&a.agent), Untrusted(&p.mode), Untrusted(&p.scenario)), &p.total));
        return grew(&threshold, named);
    }
    EXIT_OK
}
