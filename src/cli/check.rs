//! `ctxc check`: load every agent, render and measure every mode in every scenario, and report
//! budget overruns and lint findings (or, with no manifest, lint the SKILL.md, AGENTS.md and
//! CLAUDE.md files found). Exit 0 clean, 1 findings, 2 input that cannot be loaded. `--fix` applies
//! the findings' fixes ([`ctxc::lint::fix`]) and reports what remains; `--diff` only shows them.

use std::path::{Path, PathBuf};

use clap::{ArgGroup, Args, ValueEnum};

use super::report::Reporter;
use super::{output, EXIT_FINDINGS, EXIT_INPUT, EXIT_OK};
use ctxc::diagnostic::Diagnostic;
use ctxc::lint::check::plural;
use ctxc::lint::{fix, CheckReport, Options};
use ctxc::project::ProjectRoot;
use ctxc::report::escape::Untrusted;
use ctxc::report::formats;
use ctxc::review::compare::unified_diff;
use ctxc::review::fixes::{self, fix_root, read_for_fix};
use ctxc::rules::secrets;

#[derive(Debug, Args)]
#[command(group(ArgGroup::new("fixing").args(["fix", "diff"])))]
pub struct CheckArgs {
    #[command(flatten)]
    pub color: super::ColorOption,
    /// Agent directory, manifest file, directory of agents, or (no manifest) a directory of skills and memory files.
    #[arg(default_value = ".")]
    path: PathBuf,
    #[command(flatten)]
    overrides: super::AgentOverrides,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    format: CheckFormat,
    /// Print findings only: no summary line, no notes.
    #[arg(long, short)]
    quiet: bool,
    /// Only report these rule codes or code prefixes (comma-separated or repeated; replaces `[lint] select`).
    #[arg(long, value_name = "CODES")]
    select: Vec<String>,
    /// Do not report these rule codes or code prefixes (comma-separated or repeated; added to `[lint] ignore`).
    #[arg(long, value_name = "CODES")]
    ignore: Vec<String>,
    /// Fail (exit 1) on warnings too.
    #[arg(long)]
    deny_warnings: bool,
    /// Validate SKILL.md files at the strict Agent Skills level (no fields outside the specification).
    #[arg(long)]
    strict: bool,
    /// Run the rules in preview too (as `[lint] preview = true`).
    #[arg(long)]
    preview: bool,
    /// Check only what changed since this git revision: the agents that load a changed file, and
    /// the changed agent files no agent loads (new and modified files, committed or not).
    #[arg(long, value_name = "REV")]
    changed_since: Option<String>,
    /// Check only these files and the agents that load them, as `--changed-since` does (for
    /// pre-commit, which passes the files a commit changes). Names after `--` are file names
    /// however they are spelled (`--files -- a.md -b.md`), as the pre-commit hook passes them.
    #[arg(long, value_name = "FILE", num_args = 0.., conflicts_with = "changed_since")]
    files: Option<Vec<PathBuf>>,
    /// With `--files`: the file names after `--`, never read as options.
    #[arg(last = true, value_name = "FILE", requires = "files")]
    file_names: Vec<PathBuf>,
    /// With PATH `-`: the path the text read from stdin stands for (its kind and its folder).
    #[arg(long, value_name = "PATH")]
    stdin_filename: Option<PathBuf>,
    /// Also fail (exit 1) when a render drifted from its ctxc.lock (written by `ctxc snapshot`):
    /// prints the token delta per section and a unified diff of the prompt text on stderr.
    #[arg(long)]
    locked: bool,
    /// Fail (BUDGET005) when a Claude or Gemini count is an estimate because `ctxc.counts` does not
    /// record it (`ctxc counts sync` records the counts).
    #[arg(long)]
    require_exact: bool,
    /// The most tokens a host may load at session start from PATH (BUDGET008), as
    /// `[hosts.HOST] budget` in `.ctxc/hosts.toml` (repeatable; replaces the file's for the host).
    #[arg(long = "host-budget", value_name = "HOST=TOKENS", value_parser = host_budget)]
    host_budgets: Vec<(String, u64)>,
    /// Apply the safe fixes of the findings (files inside PATH only, written atomically), then report what remains.
    #[arg(long)]
    fix: bool,
    /// With `--fix` or `--diff`: apply the unsafe fixes too (renames, removals: review the result).
    #[arg(long, requires = "fixing")]
    unsafe_fixes: bool,
    /// Print a unified diff of what `--fix` would change, and write nothing (exit 1 when there is a change).
    #[arg(long)]
    diff: bool,
    /// Report only the findings this file does not record (written by `--update-baseline`): for a
    /// repository that adopts ctxc with findings it will fix later. An entry hides only a finding
    /// of its own code and file; findings on secrets are never recorded nor hidden.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Record every finding of this run in the `--baseline` file, replacing what it held.
    #[arg(long, requires = "baseline")]
    update_baseline: bool,
    /// Report an unknown key once per file, instead of once for every file that has it (with the
    /// count, the folder holding them and the places).
    #[arg(long)]
    no_group: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CheckFormat {
    /// Diagnostics with source snippets on stderr (`human` is accepted too).
    #[value(alias = "human")]
    Text,
    /// One line per finding on stdout: `file:line:col: CODE message`.
    Concise,
    /// One JSON object on stdout (see docs/json-output.md).
    Json,
    /// SARIF 2.1.0 on stdout, for code scanning.
    Sarif,
    /// GitHub Actions annotations on stdout (and a summary in $GITHUB_STEP_SUMMARY).
    Github,
}

/// The most `ctxc check -` reads from stdin.
const STDIN_MAX_BYTES: u64 = 16 * 1024 * 1024;

/// `--baseline FILE` (and `--update-baseline`): writes the report's findings to FILE when asked,
/// then leaves out of the report those FILE records.
fn apply_baseline(file: &Path, update: bool, report: &mut CheckReport) -> Result<(), String> {
    let shown = file.display();
    let folder = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let root = folder.canonicalize().map_err(|e| format!("--baseline {shown}: {e}"))?;
    if update {
        let rendered = ctxc::lint::baseline::render(report, &root);
        ctxc::review::atomic::write(file, rendered.text.as_bytes(), None)
            .map_err(|e| format!("--update-baseline: cannot write {shown}: {e}"))?;
        if rendered.secrets_left_out > 0 {
            let n = rendered.secrets_left_out;
            output::eprint(&format!(
                "note: --update-baseline left out {}: a secret is never baselined; remove it from the file (and revoke it)\n",
                plural(n, "finding")
            ));
        }
    }
    let read = ProjectRoot::read_path(file).map_err(|e| format!("--baseline: {}", e.message()))?;
    let baseline = ctxc::lint::baseline::Baseline::parse(file, &read.text)?;
    report.baselined = baseline.apply(report, &root);
    Ok(())
}

pub fn run(mut args: CheckArgs, reporter: &Reporter) -> u8 {
    // A path leading out of the project is reported by `lint::check` and never walked from (nor
    // is git run there).
    let path_ok = args.path.as_os_str() != "-" && ctxc::project::check_path_argument(&args.path).is_ok();
    if path_ok {
        args.path = ctxc::discover::agent_folder(&args.path);
    }
    let session = match args.overrides.session(reporter) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let changed = match changed_files(&args, path_ok) {
        Ok(changed) => changed,
        Err(message) => return reporter.usage(message),
    };
    let options = Options {
        select: args.select,
        ignore: args.ignore,
        strict: args.strict,
        deny_warnings: args.deny_warnings,
        changed,
        require_exact: args.require_exact,
        preview: args.preview,
        host_budgets: args.host_budgets,
    };
    let mut fixed = None;
    let mut report: CheckReport = if args.path.as_os_str() == "-" {
        if args.fix || args.diff {
            return reporter.usage("--fix and --diff change files: `ctxc check -` reads stdin, where there is no file to change");
        }
        let Some(name) = &args.stdin_filename else {
            return reporter
                .usage("`ctxc check -` reads one agent file from stdin: name it with --stdin-filename PATH (e.g. skills/pdf/SKILL.md)");
        };
        match output::read_stdin(STDIN_MAX_BYTES) {
            Ok(text) => ctxc::lint::check_text(name, &text, &options, &session),
            Err(e) => return reporter.usage(format!("cannot read stdin: {e}")),
        }
    } else if args.diff {
        return diff(fix_root(&args.path), &ctxc::lint::check(&args.path, &options, &session), args.unsafe_fixes, reporter);
    } else if args.fix {
        let fixing = fix(&args.path, args.unsafe_fixes, || ctxc::lint::check(&args.path, &options, &session));
        fixed = Some(fixing.fixed.len());
        fixing.report
    } else {
        ctxc::lint::check(&args.path, &options, &session)
    };
    if let Some(file) = &args.baseline {
        if let Err(message) = apply_baseline(file, args.update_baseline, &mut report) {
            return reporter.usage(message);
        }
    }
    // GitHub annotations stay one per file: each shows on its own line of the pull request.
    if !args.no_group && args.format != CheckFormat::Github {
        ctxc::lint::group::group(&mut report.diagnostics);
    }
    let mut code = report.outcome().exit_code();
    let printing = std::time::Instant::now();
    print_report(args.format, &report, code, reporter);
    super::print_timings(&session, printing);
    // `--locked`: the render against ctxc.lock (only when every agent loaded).
    let mut drifted = false;
    if args.locked && code < EXIT_INPUT {
        let locked = super::locked::run(&args.path, &session, report.sources.secrets(), reporter);
        drifted = locked == EXIT_FINDINGS;
        code = code.max(locked);
    }
    // The summary comes last, after everything it counts, on stderr, in the formats people read.
    if matches!(args.format, CheckFormat::Text | CheckFormat::Concise) && !args.quiet {
        let drift = if drifted { "; drifted from ctxc.lock" } else { "" };
        let fixes = match fixed {
            // Nothing was linted: nothing was fixed either, and saying so would be noise.
            Some(_) if report.nothing_to_lint.is_some() && report.diagnostics.is_empty() => String::new(),
            Some(n) => format!("; {n} fixed ({} remaining)", report.diagnostics.len()),
            None => fixable(&report.diagnostics),
        };
        output::eprint(&format!("ctxc check: {}{drift}{fixes}\n", report.summary()));
    }
    super::keep_until_exit((report, session));
    code
}

/// `--host-budget HOST=TOKENS`.
fn host_budget(value: &str) -> Result<(String, u64), String> {
    let (host, tokens) = value.split_once('=').ok_or("write HOST=TOKENS, e.g. claude-code=20000")?;
    let tokens = tokens.trim().parse().map_err(|_| format!("`{tokens}` is not a number of tokens"))?;
    Ok((host.trim().to_string(), tokens))
}

/// The files `--changed-since REV` or `--files` limit findings to (none: every file).
fn changed_files(args: &CheckArgs, path_ok: bool) -> Result<Option<std::sync::Arc<std::collections::BTreeSet<PathBuf>>>, String> {
    let mut changed = None;
    if let Some(rev) = args.changed_since.as_ref().filter(|_| path_ok) {
        let files = ctxc::review::git::locate(&args.path)
            .and_then(|repo| ctxc::review::git::changed_since(&repo, rev))
            .map_err(|e| format!("--changed-since {rev}: {e}"))?;
        changed = Some(std::sync::Arc::new(files));
    }
    if let Some(named) = args.files.as_ref().filter(|_| path_ok) {
        if named.is_empty() && args.file_names.is_empty() {
            return Err("--files: no file named (give them after it, or after `--`)".into());
        }
        let mut files = std::collections::BTreeSet::new();
        for file in named.iter().chain(&args.file_names) {
            files.insert(std::fs::canonicalize(file).map_err(|e| format!("--files {}: {e}", file.display()))?);
        }
        changed = Some(std::sync::Arc::new(files));
    }
    Ok(changed)
}

/// The report in the chosen format; `github` also appends the step summary.
fn print_report(format: CheckFormat, report: &CheckReport, code: u8, reporter: &Reporter) {
    match format {
        CheckFormat::Text => reporter.diagnostics(&report.diagnostics, &report.sources),
        CheckFormat::Concise => output::print(&formats::concise::render(report)),
        CheckFormat::Json => output::print_json(&formats::json::render(report, code)),
        CheckFormat::Sarif => output::print_json(&formats::sarif::render(report, &formats::Paths::detect())),
        CheckFormat::Github => {
            let paths = formats::Paths::detect();
            output::print_exact(&formats::github::annotations(report, &paths));
            if let Some(summary_file) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|v| !v.is_empty()) {
                let summary = formats::github::summary(report, &paths);
                if let Err(e) = formats::github::append(&PathBuf::from(summary_file), &summary) {
                    output::eprint(&format!("ctxc: cannot write the step summary to $GITHUB_STEP_SUMMARY: {e}\n"));
                }
            }
        }
    }
}

/// "; 2 fixable with --fix (1 more with --unsafe-fixes)", or "" when no finding has a fix.
fn fixable(findings: &[Diagnostic]) -> String {
    let safe = findings.iter().filter(|d| fix::applies(d, false)).count();
    let more = findings.iter().filter(|d| fix::applies(d, true)).count() - safe;
    match (safe, more) {
        (0, 0) => String::new(),
        (0, more) => format!("; {more} fixable with --fix --unsafe-fixes"),
        (safe, 0) => format!("; {safe} fixable with --fix"),
        (safe, more) => format!("; {safe} fixable with --fix ({more} more with --unsafe-fixes)"),
    }
}

/// `--fix`: fixes, writes and checks again ([`fix::fix`]); notes on stderr what could not be done.
fn fix(path: &Path, unsafe_fixes: bool, check: impl FnMut() -> CheckReport) -> fix::Fixing {
    let fixing = fixes::fix_in(path, unsafe_fixes, check);
    for (file, why) in &fixing.failed {
        output::eprint(&format!("ctxc: cannot fix `{}`: {}\n", Untrusted(file), Untrusted(why)));
    }
    for skipped in &fixing.skipped {
        let code = skipped.code.map(|c| format!("{c} ")).unwrap_or_default();
        output::eprint(&format!(
            "ctxc: {code}fix not applied in `{}` (it overlaps another fix): {}\n",
            Untrusted(&skipped.file),
            Untrusted(&skipped.title)
        ));
    }
    fixing
}

/// `--diff`: the changes `--fix` would make now, as a unified diff on stdout. Exit 1 when there is
/// one (as ruff's `--diff`), 0 when nothing would change, 2 when input cannot be loaded.
fn diff(root: &Path, report: &CheckReport, unsafe_fixes: bool, reporter: &Reporter) -> u8 {
    if report.unloadable {
        reporter.diagnostics(&report.diagnostics, &report.sources);
        return EXIT_INPUT;
    }
    let reader = ProjectRoot::new(root).ok();
    let round = fix::plan(&report.diagnostics, unsafe_fixes, |file| read_for_fix(reader.as_ref(), file, &report.sources));
    let mut out = String::new();
    for (file, after) in &round.texts {
        // Secrets are never printed, not even in the lines a hunk shows around an edit.
        let masked = |text: &str| secrets::mask_with(text, report.sources.secrets()).into_owned();
        let before = round.before.get(file).map(|text| masked(text));
        let diff = unified_diff(before.as_deref(), Some(&masked(after)), &format!("a/{file}"), &format!("b/{file}"));
        out.push_str(&ctxc::report::escape::terminal_text(&diff));
    }
    output::print(&out);
    let files = round.texts.len();
    output::eprint(&format!("ctxc check: would fix {} in {}\n", plural(round.fixed.len(), "finding"), plural(files, "file")));
    if files == 0 {
        EXIT_OK
    } else {
        EXIT_FINDINGS
    }
}
