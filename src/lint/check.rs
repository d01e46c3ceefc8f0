//! `ctxc check` as a library call. For each agent under a path: load (load errors end the agent
//! with exit 2), render and measure every mode × scenario, run the budget stage and the lint
//! rules, then apply `[lint]` and command-line selection and suppression comments. A path with
//! no manifest at all is linted zero-config: every SKILL.md, AGENTS.md and CLAUDE.md under it.

use std::path::Path;

use serde::Serialize;

use super::config::{ManifestText, Options, RawLint, Selection};
use super::{lint, AgentRun, Context};
use crate::agent_files::{self as files, MemoryDoc};
use crate::diagnostic::{Diagnostic, Severity, Sources};
use crate::models::Tokenizer;
use crate::project::ProjectRoot;
use crate::rules::cache::cache001_dynamic_before_static::{prefix_summary, PrefixSummary};
use crate::rules::secrets;
use crate::rules::suppress;
use crate::session::{AgentRuns, Only, Session};
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
    /// Files linted zero-config (display paths).
    pub files: Vec<String>,
    /// Findings and load errors, in report order: per agent, load diagnostics, budget findings,
    /// settings findings (`src/checks/settings/`), then lint findings by file and position.
    pub diagnostics: Vec<Diagnostic>,
    /// Findings silenced by suppression comments.
    pub suppressed: usize,
    pub sources: Sources,
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
        let checked = if self.zero_config {
            plural(self.files.len(), "file")
        } else {
            let renders: usize = self.agents.iter().map(|a| a.renders).sum();
            let renders = if renders == 1 { "1 mode × scenario".to_string() } else { format!("{renders} modes × scenarios") };
            format!("{} ({renders})", plural(self.agents.len(), "agent"))
        };
        let found = match (self.errors(), self.warnings()) {
            (0, 0) => "no problems".to_string(),
            (errors, warnings) => format!("{}, {}", plural(errors, "error"), plural(warnings, "warning")),
        };
        let mut line = format!("{found} in {checked}");
        if self.suppressed > 0 {
            line.push_str(&format!(", {} suppressed", self.suppressed));
        }
        if self.unloadable {
            line.push_str("; some input could not be loaded");
        }
        line
    }

    /// Appends another agent's report. A finding without a file (a command-line option every
    /// agent rejects) is kept once.
    fn merge(&mut self, other: CheckReport) {
        self.agents.extend(other.agents);
        self.files.extend(other.files);
        for d in other.diagnostics {
            if d.file.is_some() || !self.diagnostics.contains(&d) {
                self.diagnostics.push(d);
            }
        }
        self.suppressed += other.suppressed;
        self.sources.extend(other.sources);
        self.unloadable |= other.unloadable;
    }

    fn usage_error(&mut self, d: Diagnostic) {
        self.diagnostics.push(d);
        self.unloadable = true;
    }

    /// Masks every secret in the source texts and in every message, label and help, so no output
    /// format can print one (a line quoted by any finding, or a preview in a message).
    fn mask_secrets(&mut self) {
        secrets::mask_sources(&mut self.sources);
        for d in &mut self.diagnostics {
            for text in [Some(&mut d.message), d.label.as_mut(), d.help.as_mut()].into_iter().flatten() {
                if let std::borrow::Cow::Owned(m) = secrets::mask(text) {
                    *text = m;
                }
            }
        }
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

/// Checks every agent under `path` (or lints its files zero-config).
pub fn check(path: &Path, options: &Options, session: &Session) -> CheckReport {
    session.scope(|| check_in_scope(path, options, session))
}

fn check_in_scope(path: &Path, options: &Options, session: &Session) -> CheckReport {
    let mut report = CheckReport { deny_warnings: options.deny_warnings, ..CheckReport::default() };
    if let Err(d) = crate::project::check_path_argument(path) {
        report.usage_error(d);
        return report;
    }
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if path.is_file() && (name == files::SKILL_FILE || files::MEMORY_FILES.contains(&name.as_str())) {
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        zero_config(&mut report, dir, Some(&name), options, session.counter());
        return report;
    }
    match crate::discover::find_manifests(path) {
        Ok(manifests) => {
            let parts = session.each(&manifests, |manifest| {
                let mut part = CheckReport::default();
                check_agent(&mut part, manifest, options, session);
                part
            });
            for part in parts {
                report.merge(part);
            }
        }
        Err(_) if path.is_dir() => zero_config(&mut report, path, None, options, session.counter()),
        Err(d) => report.usage_error(d),
    }
    report.mask_secrets();
    report
}

fn check_agent(report: &mut CheckReport, manifest: &Path, options: &Options, session: &Session) {
    let AgentRuns { loaded, runs, problems: render_problems } = match session.run(manifest, Only::default()) {
        Ok(agent) => agent,
        Err(failure) => {
            report.diagnostics.extend(failure.diagnostics);
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
    let agent = &loaded.agent;
    let manifest_text = ManifestText { file: &agent.manifest_display, text: loaded.sources.get(&agent.manifest_display).unwrap_or("") };
    let (selection, settings, problems) = Selection::build(&agent.lint, options, Some(&manifest_text));
    let mut findings = loaded.warnings.clone();
    let measured: Vec<_> = runs.iter().map(|r| r.measured.clone()).collect();
    findings.extend(crate::checks::budgets::check(agent, &measured));
    findings.extend(crate::checks::settings::check(agent, &measured));
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
            sources: &loaded.sources,
            root: &loaded.root,
            counter: session.counter(),
            tokenizer: agent.profile.tokenizer,
            settings,
        };
        summary.prefixes = runs.iter().map(|run| prefix_summary(&cx, run)).collect();
        findings.extend(lint(&cx));
    }
    report.unloadable |= !problems.is_empty() || !render_problems.is_empty();
    report.diagnostics.extend(problems);
    report.diagnostics.extend(render_problems);
    finish(report, findings, &selection, &loaded.sources);
    report.sources.extend(loaded.sources);
    report.agents.push(summary);
}

fn zero_config(report: &mut CheckReport, dir: &Path, only: Option<&str>, options: &Options, counter: &TokenCounter) {
    report.zero_config = true;
    let root = match ProjectRoot::new(dir) {
        Ok(root) => root,
        Err(e) => return report.usage_error(e.into_diagnostic()),
    };
    let found = files::discover(&root, only);
    if found.is_empty() {
        return report.usage_error(
            Diagnostic::error(format!("no ctxc.toml, ctxc.yaml, SKILL.md, AGENTS.md or CLAUDE.md found in `{}`", dir.display())).help(
                "pass an agent directory (one holding ctxc.toml or ctxc.yaml), a manifest file, or a directory of skills and memory files",
            ),
        );
    }
    let (selection, settings, problems) = Selection::build(&RawLint::default(), options, None);
    report.unloadable |= !problems.is_empty() || !found.problems.is_empty();
    report.diagnostics.extend(problems);
    report.diagnostics.extend(found.problems.iter().cloned());
    let cx = Context {
        agent: None,
        skills: &found.skills,
        memory: &found.memory,
        sources: &found.sources,
        root: &root,
        counter,
        tokenizer: Tokenizer::O200kBase,
        settings,
    };
    let mut findings = found.warnings.clone();
    findings.extend(lint(&cx));
    report.files = found.skills.iter().map(|s| s.file.clone()).chain(found.memory.iter().map(|m| m.file.clone())).collect();
    report.files.sort();
    finish(report, findings, &selection, &found.sources);
    report.sources.extend(found.sources);
}

/// Applies the selection and suppression comments, and adds what is left to the report.
fn finish(report: &mut CheckReport, findings: Vec<Diagnostic>, selection: &Selection, sources: &Sources) {
    let (suppressions, _) = suppress::scan(sources);
    for d in findings {
        let Some(d) = selection.apply(d) else { continue };
        if suppressions.covers(&d, sources) {
            report.suppressed += 1;
        } else {
            report.diagnostics.push(d);
        }
    }
}
