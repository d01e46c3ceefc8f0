//! `ctxc check` as a library call. For each agent under a path: load (load errors end the agent
//! with exit 2), render and measure every mode × scenario, run the budget stage and the lint
//! rules, then apply `[lint]` and command-line selection and suppression comments. Every agent
//! file under the path that no agent loads (a path with no manifest at all: every one) is linted
//! zero-config: SKILL.md, memory files and the other kinds of [`crate::agent_files::FileKind`].

use std::collections::{BTreeSet, HashSet};
use std::hash::BuildHasher;
use std::path::{Component, Path, PathBuf};

use serde::Serialize;

use super::config::{ManifestText, Options, RawLint, Selection};
use super::{lint, AgentRun, Context};
use crate::agent_files::{self as files, MemoryDoc};
use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Severity, Sources};
use crate::memo::Cache;
use crate::models::Tokenizer;
use crate::project::ProjectRoot;
use crate::rules::cache::cache001_dynamic_before_static::{prefix_summary, PrefixSummary};
use crate::rules::secrets;
use crate::rules::suppress;
use crate::session::{AgentRuns, Only, Session, Stage};
use crate::tokens::TokenCounter;

/// How a check ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// No error (and, under `--deny-warnings`, no warning).
    Clean,
    /// Findings that fail the check (exit 1).
    Findings,
    /// Input that cannot be loaded, or a usage error (exit 2).
    Unloadable,
}

impl Outcome {
    /// The exit code `ctxc check` ends with: 0 clean, 1 findings, 2 unloadable.
    pub fn exit_code(self) -> u8 {
        match self {
            Outcome::Clean => 0,
            Outcome::Findings => 1,
            Outcome::Unloadable => 2,
        }
    }
}

/// One agent a check looked at (fields in alphabetical order, as in JSON).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgentSummary {
    pub loaded: bool,
    pub manifest: String,
    pub name: Option<String>,
    pub prefixes: Vec<PrefixSummary>,
    /// Modes × scenarios rendered and measured.
    pub renders: usize,
}

/// Everything `ctxc check` reports.
#[derive(Debug, Default)]
pub struct CheckReport {
    /// True when there was no manifest and files were linted zero-config.
    pub zero_config: bool,
    pub agents: Vec<AgentSummary>,
    /// Files linted zero-config (display paths): the agent files no agent loads.
    pub files: Vec<String>,
    /// Why nothing was linted (no manifest and no agent file, or a file of no known kind).
    pub nothing_to_lint: Option<String>,
    /// Findings and load errors, in report order: per agent, load diagnostics, budget findings,
    /// settings findings (`src/checks/settings/`), then lint findings by file and position.
    pub diagnostics: Vec<Diagnostic>,
    /// Findings silenced by suppression comments.
    pub suppressed: usize,
    /// Findings left out because `--baseline` records them.
    pub baselined: usize,
    pub sources: Sources,
    /// Files the agents' checks read for what they say about the agents' files, not as theirs
    /// (the configuration a recorded MCP server's hash is taken from), by display path: not in
    /// `sources`, so that the files no agent loads are still linted; the editor checks an agent
    /// again when one of them changes.
    pub consulted: BTreeSet<String>,
    /// The canonical paths of the files the agents read as theirs (`sources` less `consulted`),
    /// when the lint of the files beside the agents follows (a check of a folder): it leaves them out.
    pub read: HashSet<PathBuf>,
    /// Something could not be loaded (or the command was misused).
    pub unloadable: bool,
    pub deny_warnings: bool,
}

impl CheckReport {
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == Severity::Error).count()
    }

    pub fn warnings(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == Severity::Warning).count()
    }

    pub fn outcome(&self) -> Outcome {
        if self.unloadable {
            Outcome::Unloadable
        } else if self.errors() > 0 || (self.deny_warnings && self.warnings() > 0) {
            Outcome::Findings
        } else {
            Outcome::Clean
        }
    }

    /// What was checked and what was found, in one line: "1 error, 2 warnings in 3 agents (9
    /// modes × scenarios)", or "no problems in …".
    pub fn summary(&self) -> String {
        if let (Some(note), true) = (&self.nothing_to_lint, self.diagnostics.is_empty()) {
            return note.clone();
        }
        let mut checked = Vec::new();
        if !self.agents.is_empty() {
            let renders: usize = self.agents.iter().map(|a| a.renders).sum();
            let renders = if renders == 1 { "1 mode × scenario".to_string() } else { format!("{renders} modes × scenarios") };
            checked.push(format!("{} ({renders})", plural(self.agents.len(), "agent")));
        }
        if !self.files.is_empty() || self.agents.is_empty() {
            checked.push(plural(self.files.len(), "file"));
        }
        let checked = checked.join(" and ");
        let found = match (self.errors(), self.warnings()) {
            (0, 0) => "no problems".to_string(),
            (errors, warnings) => format!("{}, {}", plural(errors, "error"), plural(warnings, "warning")),
        };
        let mut line = format!("{found} in {checked}");
        if self.suppressed > 0 {
            line.push_str(&format!(", {} suppressed", self.suppressed));
        }
        if self.baselined > 0 {
            line.push_str(&format!(", {} in the baseline", self.baselined));
        }
        if self.unloadable {
            line.push_str("; some input could not be loaded");
        }
        line
    }

    /// Appends another agent's report.
    fn merge(&mut self, other: CheckReport) {
        self.agents.extend(other.agents);
        self.files.extend(other.files);
        self.diagnostics.extend(other.diagnostics);
        self.suppressed += other.suppressed;
        self.sources.extend(other.sources);
        self.consulted.extend(other.consulted);
        self.read.extend(other.read);
        self.unloadable |= other.unloadable;
    }

    /// Keeps each finding once, where it first came: two agents reading one file, or an agent
    /// and the lint of the files beside it reading one host configuration, reach the same finding
    /// (the language server merges its units' findings the same way).
    fn drop_repeats(&mut self) {
        let hashing = std::collections::hash_map::RandomState::new();
        let mut kept: std::collections::HashMap<u64, Vec<usize>> = std::collections::HashMap::new();
        let mut unique: Vec<Diagnostic> = Vec::with_capacity(self.diagnostics.len());
        for d in std::mem::take(&mut self.diagnostics) {
            let same_place = kept.entry(hashing.hash_one((&d.file, &d.span, d.code, &d.message))).or_default();
            if !same_place.iter().any(|&i| unique[i] == d) {
                same_place.push(unique.len());
                unique.push(d);
            }
        }
        self.diagnostics = unique;
    }

    fn usage_error(&mut self, d: Diagnostic) {
        self.diagnostics.push(d);
        self.unloadable = true;
    }

    /// Masks every secret in the source texts and in every message, label, help and related
    /// place, the values redacting findings reported included (see [`secrets::mask_report`]).
    fn mask_secrets(&mut self, cache: &Cache) {
        secrets::mask_report(&mut self.sources, &mut self.diagnostics, cache);
    }
}

/// "1 error", "2 errors".
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Checks one agent file whose text is given (`ctxc check -` with `--stdin-filename`): linted as
/// if it were at `path`, which decides its kind, its folder and what its links resolve against.
pub fn check_text(path: &Path, text: &str, options: &Options, session: &Session) -> CheckReport {
    let mut report = CheckReport { deny_warnings: options.deny_warnings, zero_config: true, ..CheckReport::default() };
    // Relative to the current folder, which is the root its links resolve against.
    let rel = path.components().filter(|c| !matches!(c, Component::CurDir)).collect::<std::path::PathBuf>();
    let inside = rel.components().all(|c| matches!(c, Component::Normal(_)));
    let rel = rel.to_string_lossy().replace('\\', "/");
    let root = match (inside && !rel.is_empty(), session.project_root(Path::new("."))) {
        (true, Ok(root)) => root,
        (false, _) => {
            report
                .usage_error(Diagnostic::error(format!("--stdin-filename `{}` must be a path inside the current folder", path.display())));
            return report;
        }
        (_, Err(e)) => {
            report.usage_error(e.into_diagnostic());
            return report;
        }
    };
    match files::Named::find(&root, &rel, Some(text)) {
        Some(named) => lint_files(&mut report, &root, files::given(&root, named, text), options, session.counter(), session.rule_times()),
        None => {
            report.nothing_to_lint =
                Some(format!("nothing to lint: `{rel}` is not an agent file ctxc knows (manifests are checked from disk)"))
        }
    }
    report.mask_secrets(session.cache());
    report
}

/// Checks every agent under `path` (or lints its files zero-config).
pub fn check(path: &Path, options: &Options, session: &Session) -> CheckReport {
    let mut report = CheckReport { deny_warnings: options.deny_warnings, ..CheckReport::default() };
    if let Err(d) = crate::project::check_path_argument(path) {
        report.usage_error(d);
        return report;
    }
    if path.is_file() {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // From the plugin or marketplace folder holding it, if any, as a check of that folder.
        let (dir, rel) = files::checked_from(path);
        match session.project_root(&dir) {
            Ok(root) => match files::Named::find(&root, &rel, None) {
                Some(named) => zero_config(&mut report, &root, Some(named), Default::default(), options, session),
                None if is_manifest_name(&name) => check_agents(&mut report, &[path.to_path_buf()], false, options, session),
                None => {
                    report.nothing_to_lint =
                        Some(format!("nothing to lint: `{}` is not a manifest or an agent file ctxc knows", path.display()))
                }
            },
            Err(e) => report.usage_error(e.into_diagnostic()),
        }
        report.mask_secrets(session.cache());
        return report;
    }
    match crate::discover::find_manifests(path) {
        Ok(manifests) => {
            check_agents(&mut report, &manifests, true, options, session);
            let read = std::mem::take(&mut report.read);
            beside_agents(&mut report, path, read, options, session);
            report.zero_config = false;
            report.drop_repeats();
        }
        Err(_) if path.is_dir() => beside_agents(&mut report, path, Default::default(), options, session),
        Err(d) => report.usage_error(d),
    }
    if report.agents.is_empty() && report.files.is_empty() && !report.unloadable {
        report.nothing_to_lint = Some(match options.changed {
            Some(_) => format!("nothing to lint: no agent and no agent file in `{}` changed", path.display()),
            None => format!("nothing to lint: no manifest and no agent file in `{}`", path.display()),
        });
    }
    report.mask_secrets(session.cache());
    report
}

/// What `check` of the folder `dir` adds to its agents' checks: the agent files no agent loads
/// (`loaded`: the canonical paths of the files agents read), linted as files, and the hosts'
/// budgets. The language server checks it as a unit of its own beside each agent's.
pub fn check_beside_agents(dir: &Path, loaded: HashSet<PathBuf>, options: &Options, session: &Session) -> CheckReport {
    let mut report = CheckReport { deny_warnings: options.deny_warnings, ..CheckReport::default() };
    beside_agents(&mut report, dir, loaded, options, session);
    report.mask_secrets(session.cache());
    report
}

fn beside_agents(report: &mut CheckReport, dir: &Path, loaded: HashSet<PathBuf>, options: &Options, session: &Session) {
    zero_config_in(report, dir, loaded, options, session);
    host_budgets(report, dir, options, session);
    host_listings(report, dir, options, session);
}

/// Whether a file named on the command line is read as a manifest: `.toml`, `.yaml` or `.yml`.
fn is_manifest_name(name: &str) -> bool {
    [".toml", ".yaml", ".yml"].iter().any(|ext| name.ends_with(ext))
}

/// Checks each agent of `manifests`; `beside`: the lint of the files no agent loads follows, and
/// the paths of the files the agents read are kept for it ([`CheckReport::read`]).
fn check_agents(report: &mut CheckReport, manifests: &[std::path::PathBuf], beside: bool, options: &Options, session: &Session) {
    let parts = session.each(manifests, |manifest| {
        // A panic loading, rendering or measuring one agent costs only that agent.
        super::guarded(|| {
            let mut part = CheckReport::default();
            check_agent(&mut part, manifest, beside, options, session);
            part
        })
        .unwrap_or_else(|message| CheckReport {
            diagnostics: vec![files::internal_error(&manifest.display().to_string(), "checking the agent", &message)],
            unloadable: true,
            ..CheckReport::default()
        })
    });
    for part in parts {
        report.merge(part);
    }
}

fn check_agent(report: &mut CheckReport, manifest: &Path, beside: bool, options: &Options, session: &Session) {
    let loaded = match session.load(manifest) {
        Ok(loaded) => loaded,
        Err(failure) => {
            report.diagnostics.extend(failure.diagnostics);
            // Read before the agent failed (no root to find them from): the disk says where.
            if beside {
                report.read.extend(failure.sources.iter_shared().filter_map(|(display, _)| std::fs::canonicalize(display).ok()));
            }
            report.sources.extend(failure.sources);
            report.unloadable = true;
            report.agents.push(AgentSummary {
                name: None,
                manifest: manifest.display().to_string(),
                loaded: false,
                prefixes: Vec::new(),
                renders: 0,
            });
            return;
        }
    };
    // `--changed-since`: an agent none of whose files changed is not checked.
    if !loaded.sources.iter_shared().any(|(display, _)| options.keeps(display)) {
        return;
    }
    let AgentRuns { loaded, runs, problems: mut render_problems } = session.measure(loaded, Only::default());
    let agent = &loaded.agent;
    let manifest_text = ManifestText { file: &agent.manifest_display, text: loaded.sources.get(&agent.manifest_display).unwrap_or("") };
    let (selection, settings, problems) = Selection::build(&agent.lint, options, Some(&manifest_text));
    let mut findings = loaded.warnings.clone();
    session.timed(Stage::Checks, || {
        let measured: Vec<_> = runs.iter().map(|r| r.measured.clone()).collect();
        findings.extend(crate::checks::budgets::check(agent, &measured));
        let (workload_findings, over_budget) = crate::checks::workloads::check(agent, &runs, session.counter());
        findings.extend(workload_findings);
        if let Some(d) = over_budget {
            report.usage_error(d);
        }
        // The workloads were counted after the renders: a tokenizer engine failure there too.
        if let Some(failure) = session.file_failure(&loaded) {
            crate::diagnostic::push_once(&mut render_problems, failure);
        }
        findings.extend(crate::checks::budgets::implausible_counts(agent, &measured));
        if options.require_exact || agent.budgets.require_exact.is_some() {
            findings.extend(crate::checks::budgets::not_recorded(agent, &measured));
        }
        findings.extend(crate::checks::settings::check(agent, &measured));
    });
    let mut summary = AgentSummary {
        name: Some(agent.name.clone()),
        manifest: agent.manifest_display.clone(),
        loaded: true,
        prefixes: Vec::new(),
        renders: runs.len(),
    };
    if render_problems.is_empty() {
        let skills = files::skills_in(&loaded.root, &loaded.sources);
        let memory: Vec<MemoryDoc> = agent
            .memory_files
            .iter()
            .map(|f| MemoryDoc { file: loaded.root.display_path(&f.path), rel: f.path.clone(), text: f.text.clone() })
            .collect();
        let cx = Context {
            agent: Some(AgentRun { loaded: &loaded, runs: &runs }),
            skills: &skills,
            memory: &memory,
            files: &[],
            sources: &loaded.sources,
            root: &loaded.root,
            counter: session.counter(),
            tokenizer: agent.profile.tokenizer,
            settings,
        };
        session.timed(Stage::Lint, || {
            summary.prefixes = runs.iter().map(|run| prefix_summary(&cx, run)).collect();
            findings.extend(lint(&cx, |code| selection.selects(code), session.rule_times()));
        });
    }
    report.unloadable |= !problems.is_empty() || !render_problems.is_empty();
    report.diagnostics.extend(problems);
    report.diagnostics.extend(render_problems);
    add_consulted_configurations(report, &loaded, &findings);
    finish(report, findings, &selection, &loaded.sources);
    // Each path found from the agent's root: its folders' links were resolved when it was read.
    if beside {
        let own = loaded.sources.iter_shared().filter(|(display, _)| !loaded.consulted.contains(*display));
        report.read.extend(own.filter_map(|(display, _)| match crate::agent_files::rel_of(&loaded.root, display) {
            Some(rel) => loaded.root.resolve(rel).ok(),
            None => std::fs::canonicalize(display).ok(),
        }));
    }
    report.sources.extend(loaded.sources);
    report.consulted.extend(loaded.consulted);
    report.agents.push(summary);
}

/// The hosts' MCP configurations an agent's findings point into (MCP022 reads them beside the
/// agent's files): their texts join the report, so those findings have a line and a column, and
/// they are marked consulted, so the lint of the files beside the agents still lints them.
fn add_consulted_configurations(report: &mut CheckReport, loaded: &crate::manifest::Loaded, findings: &[Diagnostic]) {
    let elsewhere: BTreeSet<&str> =
        findings.iter().filter_map(|d| d.file.as_deref()).filter(|file| !loaded.sources.contains(file)).collect();
    if elsewhere.is_empty() {
        return;
    }
    let files = crate::hosts::all().iter().filter_map(|h| Some(h.startup.as_ref()?.mcp.as_ref()?.file.as_str()));
    for file in files.filter(|rel| elsewhere.contains(loaded.root.display_path(rel).as_str())).filter_map(|rel| loaded.root.read(rel).ok())
    {
        report.sources.insert_shared(file.display.clone(), file.text);
        report.consulted.insert(file.display);
    }
}

/// The budgets set per agent host for the folder `dir` (BUDGET008), when any is set.
fn host_budgets(report: &mut CheckReport, dir: &Path, options: &Options, session: &Session) {
    // A folder that is no project root was reported by the file checks.
    let Ok(root) = session.project_root(dir) else { return };
    let budgets = crate::hostview::budgets::read(&root, &options.host_budgets);
    report.unloadable |= !budgets.problems.is_empty();
    report.diagnostics.extend(budgets.problems.iter().cloned());
    if budgets.budgets.is_empty() {
        report.sources.extend(budgets.sources);
        return;
    }
    let mut findings = crate::hostview::budgets::check(&root, &budgets, session.counter());
    // Found outside the lint stage: the rule's severity, as the lint stage gives it.
    for d in &mut findings {
        d.severity = d.code.map_or(d.severity, |code| crate::rules::rule(code).severity);
    }
    let (selection, _, _) = Selection::build(&RawLint::default(), options, None);
    finish(report, findings, &selection, &budgets.sources);
    report.sources.extend(budgets.sources);
}

/// The host listings of the folder `dir` that leave entries out past their budget (BUDGET009),
/// when that rule is selected: the host views it needs are made for it alone.
fn host_listings(report: &mut CheckReport, dir: &Path, options: &Options, session: &Session) {
    let (selection, _, _) = Selection::build(&RawLint::default(), options, None);
    if !selection.selects(Code::BUDGET009) {
        return;
    }
    let Ok(root) = session.project_root(dir) else { return };
    let (mut findings, sources) = crate::hostview::budgets::listings_past_budget(&root, session.counter());
    // Found outside the lint stage: the rule's severity, as the lint stage gives it.
    for d in &mut findings {
        d.severity = crate::rules::rule(Code::BUDGET009).severity;
    }
    findings.retain(|d| d.file.as_deref().is_none_or(|file| options.keeps(file)));
    finish(report, findings, &selection, &sources);
    report.sources.extend(sources);
}

/// Lints the agent files of the folder `dir` no agent loads (`loaded`: the files agents read).
fn zero_config_in(report: &mut CheckReport, dir: &Path, loaded: HashSet<PathBuf>, options: &Options, session: &Session) {
    match session.project_root(dir) {
        Ok(root) => zero_config(report, &root, None, loaded, options, session),
        Err(e) => report.usage_error(e.into_diagnostic()),
    }
}

/// Lints the agent files under `root` (or only the file `only`) no agent loads.
fn zero_config(
    report: &mut CheckReport,
    root: &ProjectRoot,
    only: Option<files::Named>,
    loaded: HashSet<PathBuf>,
    options: &Options,
    session: &Session,
) {
    report.zero_config = true;
    session.timed(Stage::Files, || {
        let found = files::discover(root, only, loaded);
        lint_files(report, root, found, options, session.counter(), session.rule_times())
    })
}

/// Lints files found or given (no manifest): every rule over them, then selection and
/// suppression comments.
fn lint_files(
    report: &mut CheckReport,
    root: &ProjectRoot,
    mut found: files::Found,
    options: &Options,
    counter: &TokenCounter,
    times: &crate::session::RuleTimes,
) {
    if found.is_empty() {
        return;
    }
    let (selection, settings, problems) = Selection::build(&RawLint::default(), options, None);
    // A text with more bytes than a token limit may be over it: the tokenizer is built on another
    // thread while the rules that need no counts run.
    let smallest_limit = (crate::rules::skills::BODY_MAX_TOKENS as u64).min(settings.memory_max_tokens);
    if found.skills.iter().map(|s| s.body().len()).chain(found.memory.iter().map(|m| m.text.len())).any(|len| len as u64 > smallest_limit) {
        crate::tokens::warm_up(Tokenizer::O200kBase);
    }
    report.unloadable |= !problems.is_empty() || !found.problems.is_empty();
    report.diagnostics.extend(problems);
    report.diagnostics.extend(found.problems.iter().cloned());
    let cx = Context {
        agent: None,
        skills: &found.skills,
        memory: &found.memory,
        files: &found.files,
        sources: &found.sources,
        root,
        counter,
        tokenizer: Tokenizer::O200kBase,
        settings,
    };
    let mut findings = found.warnings.clone();
    findings.extend(found.failed.iter().cloned());
    findings.extend(lint(&cx, |code| selection.selects(code), times));
    // Every file takes part in the rules that compare files; only the kept ones are reported.
    findings.retain(|d| d.file.as_deref().is_none_or(|file| options.keeps(file)));
    // MCP022 reads other hosts' MCP configurations the walk lists as no agent file
    // (`.vscode/mcp.json`): their texts too, so that its findings there have a line and column.
    for rel in crate::hosts::all().iter().filter_map(|h| Some(h.startup.as_ref()?.mcp.as_ref()?.file.as_str())) {
        let display = root.display_path(rel);
        if found.sources.get(&display).is_none() && findings.iter().any(|d| d.file.as_deref() == Some(display.as_str())) {
            if let Ok(file) = root.read(rel) {
                found.sources.insert_shared(display, file.text);
            }
        }
    }
    report.files.extend(found.paths().into_iter().filter(|file| options.keeps(file)));
    finish(report, findings, &selection, &found.sources);
    report.sources.extend(found.sources);
}

/// Applies the selection and suppression comments, and adds what is left to the report.
fn finish(report: &mut CheckReport, findings: Vec<Diagnostic>, selection: &Selection, sources: &Sources) {
    let (suppressions, _) = suppress::scan(sources);
    for d in findings {
        // A bug in ctxc is reported whatever the selection, and the check did not finish: exit 2.
        if d.code == Some(Code::MAN015) {
            report.unloadable = true;
            report.diagnostics.push(d);
            continue;
        }
        let Some(d) = selection.apply(d) else { continue };
        if suppressions.covers(&d, sources) {
            report.suppressed += 1;
        } else {
            report.diagnostics.push(d);
        }
    }
}
