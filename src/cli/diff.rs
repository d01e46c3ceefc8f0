//! `ctxc diff --base REV`: the project as it was at a git revision against the work tree (the
//! comparison is [`ctxc::review::diff`]'s); per agent, mode × scenario and section the tokens
//! before, after and the delta, then the text diffs; or per host and file without a manifest.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::report::Reporter;
use super::{check_path, output, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK};
use ctxc::lint::baseline::Changes;
use ctxc::report::escape::Untrusted;
use ctxc::review::compare::{over_threshold, Delta, Threshold};
use ctxc::review::diff::{self, Base};
use ctxc::review::git;
use ctxc::Failure;

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
fn host_diff(args: &DiffArgs, base: &Base, baseline: Option<(String, Changes)>, reporter: &Reporter) -> u8 {
    let usage = |(message, help): (String, String)| reporter.usage(format!("{message} ({help})"));
    let (hosts, explicit) = match args.hosts.hosts() {
        Ok(found) => found,
        Err(e) => return usage(e),
    };
    if !args.path.is_dir() {
        return usage((format!("{}: the host view reads a directory", args.path.display()), "give the repository's folder as PATH".into()));
    }
    if let Some(flag) = args.tokenizers.given().next() {
        return usage((
            format!("{flag} is for a manifest's agents"),
            "the host view's diff counts each host for its own model: leave it out".into(),
        ));
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
    let diff = match diff::hosts(&root, base, &from, &hosts, explicit) {
        Ok(diff) => diff,
        Err(d) => {
            reporter.diagnostics(&[d], &ctxc::Sources::default());
            return EXIT_INPUT;
        }
    };
    reporter.diagnostics(&diff.problems, &ctxc::Sources::default());
    if diff.changes.is_empty() && !explicit {
        return reporter.usage(format!(
            "no ctxc.toml or ctxc.yaml in `{}`, and no file an agent host loads, neither at {} nor in the work tree",
            args.path.display(),
            args.base
        ));
    }
    let baseline = baseline.as_ref().map(|(file, changes)| (file.as_str(), changes));
    match args.format {
        DiffFormat::Text | DiffFormat::Markdown => {
            let md = args.format == DiffFormat::Markdown;
            let listed = baseline.map(|(file, changes)| match md {
                true => ctxc::report::changes::baseline_markdown(file, changes),
                false => ctxc::report::changes::baseline_text(file, changes),
            });
            output::print(&format!(
                "{}{}",
                ctxc::report::changes::hosts(&diff.changes, &args.base, args.all, md),
                listed.unwrap_or_default()
            ));
        }
        DiffFormat::Json => print_json(diff::hosts_json(base, &diff, args.fail_on_increase.as_ref()), baseline),
    }
    let over = args.fail_on_increase.map(|t| ctxc::review::host_changes::over_threshold(&diff.changes, &t)).unwrap_or_default();
    if let Some(threshold) = args.fail_on_increase.filter(|_| !over.is_empty()) {
        return grew(&threshold, over.iter().map(|c| (Untrusted(&c.name).to_string(), &c.total)));
    }
    if diff.problems.is_empty() {
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
    let base = match Base::read(&args.path, &Untrusted(&args.path.display().to_string()).to_string(), &args.base, &overrides) {
        Ok(found) => found,
        Err(message) => return reporter.usage(message),
    };
    let baseline = match &args.baseline {
        Some(file) => match baseline_changes(file, &base.repo, &base.commit, &args.base) {
            Ok(changes) => Some((file.display().to_string(), changes)),
            Err(message) => return reporter.usage(message),
        },
        None => None,
    };
    let manifests = diff::manifests(&args.path, &base);
    if args.hosts.given() || (manifests.0.is_empty() && manifests.1.is_empty()) {
        return host_diff(&args, &base, baseline, reporter);
    }
    let session = args.tokenizers.session(overrides);
    let diff = match diff::agents(&manifests, &base, &session) {
        Ok(diff) => diff,
        Err(unrendered) => {
            let shown = |failures: &[Failure]| failures.iter().map(|f| reporter.render(&f.diagnostics, &f.sources)).collect::<String>();
            if !unrendered.before.is_empty() {
                reporter.eprint(&format!("the project at {} cannot be rendered:\n{}", args.base, base.shown(&shown(&unrendered.before))));
            }
            if !unrendered.after.is_empty() {
                reporter.eprint(&shown(&unrendered.after));
            }
            return EXIT_INPUT;
        }
    };
    let baseline = baseline.as_ref().map(|(file, changes)| (file.as_str(), changes));
    match args.format {
        DiffFormat::Text => {
            let text = ctxc::report::changes::text(&diff.comparison, args.all);
            let counts = ctxc::report::changes::counts_text(&diff.counts);
            let listed = baseline.map(|(file, changes)| ctxc::report::changes::baseline_text(file, changes)).unwrap_or_default();
            output::print(&format!("{text}{counts}{listed}"));
        }
        DiffFormat::Markdown => {
            let table = ctxc::report::changes::markdown(&diff.comparison, &args.base, "work tree", args.all);
            let counts = ctxc::report::changes::counts_markdown(&diff.counts);
            let listed = baseline.map(|(file, changes)| ctxc::report::changes::baseline_markdown(file, changes)).unwrap_or_default();
            output::print(&format!("{table}{counts}{listed}"));
        }
        DiffFormat::Json => print_json(diff::agents_json(&base, &diff, args.fail_on_increase.as_ref()), baseline),
    }
    let over = args.fail_on_increase.map(|t| over_threshold(&diff.comparison, &t)).unwrap_or_default();
    if let Some(threshold) = args.fail_on_increase.filter(|_| !over.is_empty()) {
        let named =
            over.iter().map(|(a, p)| (format!("{} {} · {}", Untrusted(&a.agent), Untrusted(&p.mode), Untrusted(&p.scenario)), &p.total));
        return grew(&threshold, named);
    }
    EXIT_OK
}
