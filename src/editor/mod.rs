//! A project as an editor sees it, for `ctxc lsp` and `ctxc watch`: open documents whose
//! unsaved text stands in for the files on disk, every agent's findings placed in editor
//! positions, and its costs for hovers, inlay hints and previews. Returns data only; the
//! command line speaks the protocol.
//!
//! Work follows the edit: each agent is a unit, and so is the project's root (the agent files no
//! agent loads, and the hosts' budgets: what `ctxc check` of the folder adds to its agents'
//! checks). Each unit remembers the files its last check read, and a change re-checks only the
//! units that read the changed file, in one long-lived [`Session`] whose caches keep the work done for unchanged
//! content. So that those caches hold only what the project still uses, each refresh is a
//! generation of the session's cache and each unit remembers the generation of its last check:
//! after a refresh of several units (or every few of one), what no unit's last check used is
//! dropped (`memo::Cache::keep`), so memory follows the project's current texts, not the number
//! of edits.

pub mod complete;
pub mod costs;
pub mod position;
pub mod watch;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::lint::{self, CheckReport, Options};
use crate::project::ProjectRoot;
use crate::report::cost::Costed;
use crate::session::{Only, Session};
pub use position::{Lines, Position, Range};

/// A finding placed in its file, as an editor shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub range: Range,
    pub severity: Severity,
    pub code: Option<&'static str>,
    /// The message, with the help on a line of its own.
    pub message: String,
    pub fix: Option<Action>,
}

/// A fix as an editor applies it: edits to whole files by path.
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    pub title: String,
    /// Safe to apply without review (`ctxc check --fix` applies it).
    pub safe: bool,
    pub edits: Vec<TextEdit>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TextEdit {
    pub path: PathBuf,
    pub range: Range,
    pub new_text: String,
}

/// The findings of one file now (empty: the file has none any more).
#[derive(Debug, Clone, PartialEq)]
pub struct Published {
    pub path: PathBuf,
    pub findings: Vec<Finding>,
}

/// An agent's costs: the agent as loaded and every mode × scenario measured, with its budgets.
pub struct AgentCosts {
    pub loaded: crate::manifest::Loaded,
    pub costed: Vec<Costed>,
}

/// One thing checked: an agent's manifest, or the project's root (see [`Workspace::check_unit`]).
#[derive(Default)]
struct Unit {
    /// Every file its last check read (canonical paths).
    files: BTreeSet<PathBuf>,
    /// The files its last check read for what they say about its own, not as its own (see
    /// `CheckReport::consulted`): a change of one checks it again, but they are still linted
    /// by the root as files no agent loads.
    consulted: BTreeSet<PathBuf>,
    findings: BTreeMap<PathBuf, Vec<Finding>>,
    checked: bool,
    /// The cache generation of its last check: what that check used is kept.
    generation: u32,
    /// Made on first use after each check.
    costs: Option<Option<Arc<AgentCosts>>>,
}

/// Refreshes of a single unit between two sweeps of the cache: what they leave unused is held
/// at most this long.
const SWEEP_EVERY: usize = 8;

pub struct Workspace {
    root: PathBuf,
    options: Options,
    session: Arc<Session>,
    /// Open documents' texts, by canonical path.
    open: BTreeMap<PathBuf, String>,
    units: BTreeMap<PathBuf, Unit>,
    published: BTreeMap<PathBuf, Vec<Finding>>,
    /// The cache generation of the last refresh (see the module's documentation).
    generation: u32,
    /// Refreshes of one unit since the cache was last swept.
    unswept: usize,
    /// Units the last refresh checked.
    last_checked: usize,
    /// The files the agents read when the root was last checked: the files it left to them.
    left_to_agents: BTreeSet<PathBuf>,
    /// Whether every change of a file under the root is reported ([`Workspace::trust_reports`]).
    reported: bool,
}

/// A path made canonical; a file that does not exist yet, by its canonical folder.
pub fn canonical(path: &Path) -> PathBuf {
    if let Ok(path) = std::fs::canonicalize(path) {
        return path;
    }
    match (path.parent().and_then(|p| std::fs::canonicalize(p).ok()), path.file_name()) {
        (Some(dir), Some(name)) => dir.join(name),
        _ => path.to_path_buf(),
    }
}

fn is_manifest(path: &Path) -> bool {
    path.file_name().is_some_and(|n| crate::manifest::MANIFEST_NAMES.iter().any(|m| n == *m))
}

impl Workspace {
    /// A workspace for the project under `root`; nothing is checked before [`Workspace::refresh_all`].
    pub fn new(root: &Path, options: Options, overrides: Vec<String>) -> Self {
        let mut workspace = Workspace {
            root: canonical(root),
            session: Arc::new(Session::new(overrides).with_file_memory()),
            options,
            open: BTreeMap::new(),
            units: BTreeMap::new(),
            published: BTreeMap::new(),
            generation: 0,
            unswept: 0,
            last_checked: 0,
            left_to_agents: BTreeSet::new(),
            reported: false,
        };
        workspace.discover();
        workspace
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The agents (manifests) of the project.
    pub fn agents(&self) -> impl Iterator<Item = &Path> {
        self.units.keys().filter(|p| is_manifest(p)).map(PathBuf::as_path)
    }

    /// Finds the units: every agent under the root, and the root itself.
    fn discover(&mut self) {
        let mut found: BTreeSet<PathBuf> = match crate::discover::find_manifests(&self.root) {
            Ok(manifests) => manifests.iter().map(|m| canonical(m)).collect(),
            Err(_) => BTreeSet::new(),
        };
        found.insert(self.root.clone());
        self.units.retain(|path, _| found.contains(path));
        for path in found {
            self.units.entry(path).or_default();
        }
    }

    /// The text of a file as the project sees it now: the open document's, else the disk's, read
    /// by the guarded reader from inside the project (a request may name any path: `/dev/zero`,
    /// a link out of the project).
    pub fn text(&self, path: &Path) -> Option<String> {
        if let Some(text) = self.open.get(path) {
            return Some(text.clone());
        }
        let file = ProjectRoot::new(&self.root).ok()?.read_named(path).ok()?;
        Some(file.text.to_string())
    }

    /// From now on every change of a file or folder under the root is reported
    /// ([`Workspace::disk_changed`]; an editor's file watcher the server registered for every
    /// file): what the session kept of the disk, and the findings of the rules that read it,
    /// hold until the next report instead of being checked against the disk at each refresh.
    pub fn trust_reports(&mut self) {
        self.reported = true;
        self.session.trust_reports(self.root.clone());
    }

    /// Files or folders changed on disk (a report of the client's file watcher).
    pub fn disk_changed(&self) {
        self.session.reported_change();
    }

    /// Whether a folder from the one holding `path` up to the root holds a skill (a SKILL.md,
    /// in any case): the file may then be read as a skill's bundled file, whose text the rules
    /// that read the disk take from the editor too.
    fn in_skill_folder(&self, path: &Path) -> bool {
        let is_skill = |dir: &Path| {
            std::fs::read_dir(dir).is_ok_and(|entries| {
                entries.flatten().any(|e| e.file_name().to_str().is_some_and(|n| n.eq_ignore_ascii_case(crate::agent_files::SKILL_FILE)))
            })
        };
        let open = |dir: &Path| {
            self.open.keys().any(|p| {
                p.parent() == Some(dir)
                    && p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.eq_ignore_ascii_case(crate::agent_files::SKILL_FILE))
            })
        };
        path.ancestors().skip(1).take_while(|dir| dir.starts_with(&self.root)).any(|dir| open(dir) || is_skill(dir))
    }

    /// An editor opened or changed a document (`Some` text: it stands in for the file from now
    /// on) or closed it (`None`: the file on disk counts again). Returns the file's canonical
    /// path, for [`Workspace::refresh`].
    pub fn set_text(&mut self, path: &Path, text: Option<String>) -> PathBuf {
        let path = canonical(path);
        // A file of a skill's folder stands in for the disk's for the rules that read the disk.
        if self.reported && self.in_skill_folder(&path) {
            self.session.reported_change();
        }
        self.session.overlay(path.clone(), text.as_deref());
        match text {
            Some(text) => self.open.insert(path.clone(), text),
            None => self.open.remove(&path),
        };
        path
    }

    /// Checks every unit.
    pub fn refresh_all(&mut self) -> Vec<Published> {
        self.session.look_again(true);
        self.discover();
        self.units.values_mut().for_each(|u| u.checked = false);
        self.refresh(&[])
    }

    /// Files changed (on disk or in the overlay): re-checks the units that read them, or whose
    /// folder holds a file no unit read (a new skill; the root holds every file), and returns
    /// the files whose findings changed.
    pub fn refresh(&mut self, changed: &[PathBuf]) -> Vec<Published> {
        self.session.look_again(false);
        // Whether the files the agents read may have changed: the root's share is then looked at
        // again (the union of every agent's files is too costly to make on every keystroke).
        let mut reads_changed = changed.iter().any(|p| is_manifest(p));
        if reads_changed {
            self.discover();
        }
        for path in changed {
            // A file only consulted (see `Unit::consulted`) is still the root's to lint.
            let read = self.units.values().any(|u| u.files.contains(path));
            for (unit_path, unit) in &mut self.units {
                // The root is the one unit that is a folder (no lookup on the disk per unit).
                let folder = if *unit_path == self.root { Some(unit_path.as_path()) } else { unit_path.parent() };
                let holds = !read && folder.is_some_and(|f| path.starts_with(f));
                if unit.files.contains(path) || unit.consulted.contains(path) || unit_path == path || holds {
                    unit.checked = false;
                }
            }
        }
        // The agents first: the root leaves them the files they read.
        let due: Vec<PathBuf> = self.units.iter().filter(|(p, u)| !u.checked && **p != self.root).map(|(p, _)| p.clone()).collect();
        self.last_checked = due.len();
        self.generation = self.generation.wrapping_add(1);
        let generation = self.generation;
        let session = Arc::clone(&self.session);
        session.begin(generation);
        let reports = crate::parallel::map_in_order(&due, |unit| lint::check(unit, &self.options, &session));
        for (path, report) in due.into_iter().zip(reports) {
            let unit = Unit {
                files: read_files(&path, &report),
                consulted: report.consulted.iter().map(PathBuf::from).collect(),
                findings: place(&path, &report),
                checked: true,
                generation,
                costs: None,
            };
            reads_changed |= self.units.get(&path).is_none_or(|old| old.files != unit.files);
            self.units.insert(path, unit);
        }
        let root_due = self.units.get(&self.root).is_some_and(|u| !u.checked);
        let left_to_agents = (root_due || reads_changed).then(|| self.read_by_agents());
        if let Some(left_to_agents) = left_to_agents.filter(|left| root_due || *left != self.left_to_agents) {
            // A generation of its own: what the agents' checks used is not kept for the root's sake.
            self.generation = self.generation.wrapping_add(1);
            let generation = self.generation;
            session.begin(generation);
            let report = lint::check_beside_agents(&self.root, left_to_agents.iter().cloned().collect(), &self.options, &session);
            let unit = Unit {
                files: read_files(&self.root, &report),
                consulted: report.consulted.iter().map(PathBuf::from).collect(),
                findings: place(&self.root, &report),
                checked: true,
                generation,
                costs: None,
            };
            self.units.insert(self.root.clone(), unit);
            self.left_to_agents = left_to_agents;
            self.last_checked += 1;
        }
        // The sweep walks every value held: after a refresh of many units, or of one now and then.
        self.unswept += 1;
        if self.last_checked > 1 || self.unswept >= SWEEP_EVERY {
            self.forget_unused();
            self.unswept = 0;
        }
        self.publish()
    }

    /// Drops from the session's cache what no unit's last check used (this refresh's work
    /// stays too: hovers and previews made before the next one use it).
    fn forget_unused(&self) {
        let live: BTreeSet<u32> = self.units.values().map(|u| u.generation).chain([self.generation]).collect();
        self.session.keep(|g| live.contains(&g));
    }

    /// How many values and counts the session's caches hold (what [`Workspace::refresh`] keeps bounded).
    #[cfg(test)]
    pub fn cached(&self) -> usize {
        self.session.keep(|_| true)
    }

    /// The findings of every file, merged across units; returns the files that changed.
    fn publish(&mut self) -> Vec<Published> {
        let mut now: BTreeMap<PathBuf, Vec<Finding>> = BTreeMap::new();
        for unit in self.units.values() {
            for (path, findings) in &unit.findings {
                let list = now.entry(path.clone()).or_default();
                for f in findings {
                    // A shared file's finding comes once, not once per agent reading it.
                    if !list.contains(f) {
                        list.push(f.clone());
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (path, old) in &self.published {
            if !now.contains_key(path) && !old.is_empty() {
                out.push(Published { path: path.clone(), findings: Vec::new() });
            }
        }
        for (path, findings) in &now {
            if self.published.get(path) != Some(findings) {
                out.push(Published { path: path.clone(), findings: findings.clone() });
            }
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        self.published = now;
        out
    }

    /// The files the agents read, as their last checks read them.
    fn read_by_agents(&self) -> BTreeSet<PathBuf> {
        self.units.iter().filter(|(p, _)| **p != self.root).flat_map(|(_, u)| u.files.iter().cloned()).collect()
    }

    /// The files a client should report changes of (glob patterns relative to the root): every
    /// file. Once the client agrees to report them ([`Workspace::trust_reports`]), what the server
    /// kept of the disk is trusted until a report, and a skill's folder holds files of any kind
    /// (its listing is read by the rules), so a watch of the kinds of file the agents read would
    /// not do. A change the client does not report (another folder) is seen when the agents
    /// reading the file are next checked; a report makes them checked at once.
    pub fn watched(&self) -> Vec<String> {
        vec!["**/*".to_string()]
    }

    /// How many units (agents, and the root) the last refresh checked again.
    pub fn last_checked(&self) -> usize {
        self.last_checked
    }

    /// The findings now shown for a file.
    pub fn findings(&self, path: &Path) -> &[Finding] {
        self.published.get(path).map_or(&[], Vec::as_slice)
    }

    /// The agent a file belongs to: the manifest itself, an agent that reads it, or the agent
    /// whose folder holds it.
    pub fn agent_of(&self, path: &Path) -> Option<PathBuf> {
        let agents = || self.units.iter().filter(|(p, _)| is_manifest(p));
        agents()
            .find(|(p, u)| p.as_path() == path || u.files.contains(path))
            .or_else(|| agents().find(|(p, _)| p.parent().is_some_and(|dir| path.starts_with(dir))))
            .map(|(p, _)| p.clone())
    }

    /// The agents that read a file.
    pub fn agents_reading(&self, path: &Path) -> Vec<PathBuf> {
        self.units.iter().filter(|(p, u)| is_manifest(p) && u.files.contains(path)).map(|(p, _)| p.clone()).collect()
    }

    /// An agent's costs (every mode × scenario measured), made once per check of the agent.
    pub fn costs(&mut self, manifest: &Path) -> Option<Arc<AgentCosts>> {
        let session = Arc::clone(&self.session);
        let unit = self.units.get_mut(manifest)?;
        unit.costs
            .get_or_insert_with(|| {
                let runs = session.run(manifest, Only::default()).ok()?;
                let costed = runs.runs.into_iter().map(|r| Costed::new(&runs.loaded.agent, r.measured)).collect();
                Some(Arc::new(AgentCosts { loaded: runs.loaded, costed }))
            })
            .clone()
    }

    /// The rendered prompt of one mode and scenario (the agent's first of each by default) of
    /// the agent a file belongs to, and its token count.
    pub fn render(&self, path: &Path, mode: Option<&str>, scenario: Option<&str>) -> Result<Rendering, String> {
        let manifest = self.agent_of(&canonical(path)).ok_or_else(|| format!("`{}` belongs to no agent", path.display()))?;
        let session = &self.session;
        let loaded = session.load(&manifest).map_err(|f| failure_text(&f.diagnostics))?;
        let agent = &loaded.agent;
        let mode = mode.or_else(|| agent.modes.keys().next().map(String::as_str)).ok_or("the agent has no mode")?;
        let rendered = session.render(&loaded, mode, scenario).map_err(|d| failure_text(&d))?;
        let measured = session.measure_render(&loaded, &rendered);
        if let Some(failed) = session.file_failure(&loaded) {
            return Err(failure_text(&[failed]));
        }
        Ok(Rendering {
            agent: agent.name.clone(),
            mode: rendered.mode.clone(),
            scenario: rendered.scenario.clone(),
            text: rendered.prompt(),
            tokens: measured.system_prompt.tokens,
            exact: measured.exact,
        })
    }
}

/// A rendered prompt for a preview.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Rendering {
    pub agent: String,
    pub mode: String,
    pub scenario: String,
    pub text: String,
    pub tokens: i64,
    pub exact: bool,
}

fn failure_text(diagnostics: &[Diagnostic]) -> String {
    diagnostics.iter().map(|d| d.message.as_str()).collect::<Vec<_>>().join("\n")
}

/// Every file a check read, and the unit itself. Display paths are absolute and canonical, as
/// the unit's path is: no file is looked up again.
fn read_files(unit: &Path, report: &CheckReport) -> BTreeSet<PathBuf> {
    // A file the unit only consulted is not one it reads (see `CheckReport::consulted`).
    let mut files: BTreeSet<PathBuf> =
        report.sources.iter().filter(|(path, _)| !report.consulted.contains(*path)).map(|(path, _)| PathBuf::from(path)).collect();
    files.insert(unit.to_path_buf());
    files
}

/// A check's findings placed in their files. One without a file is shown on the unit.
fn place(unit: &Path, report: &CheckReport) -> BTreeMap<PathBuf, Vec<Finding>> {
    let mut texts: BTreeMap<String, Option<Lines>> = BTreeMap::new();
    let mut range = |file: &str, span: &std::ops::Range<usize>| {
        let lines = texts.entry(file.to_string()).or_insert_with(|| report.sources.get(file).map(Lines::new));
        lines.as_ref().map_or_else(Range::default, |l| l.range(span))
    };
    let mut out: BTreeMap<PathBuf, Vec<Finding>> = BTreeMap::new();
    for d in &report.diagnostics {
        let file = d.file.clone().unwrap_or_else(|| unit.display().to_string());
        if Path::new(&file).is_dir() {
            continue;
        }
        let fix = d.fix.as_ref().map(|fix| Action {
            title: fix.title.clone(),
            safe: fix.applicability == Applicability::Safe,
            edits: fix
                .edits
                .iter()
                .map(|e| TextEdit { path: PathBuf::from(&e.file), range: range(&e.file, &e.span), new_text: e.replacement.clone() })
                .collect(),
        });
        let mut message = d.message.clone();
        if let Some(help) = &d.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        let finding = Finding {
            range: d.span.as_ref().map_or_else(Range::default, |span| range(&file, span)),
            severity: d.severity,
            code: d.code.map(|c| c.as_str()),
            message,
            fix,
        };
        out.entry(PathBuf::from(file)).or_default().push(finding);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Edit, Fix, Sources};

    #[test]
    fn a_fix_becomes_edits_in_editor_positions() {
        let mut sources = Sources::default();
        sources.insert("/p/SKILL.md", "---\nname: Bad_Name\n---\n");
        let fix = Fix::safe("rename to `bad-name`", vec![Edit::replace("/p/SKILL.md", 10..18, "bad-name")]);
        let finding = Diagnostic::warning("not lowercase").in_file("/p/SKILL.md").at(Some(10..18)).help("use lowercase").fix(fix);
        let report = CheckReport { diagnostics: vec![finding], sources, ..CheckReport::default() };
        let placed = place(Path::new("/p/ctxc.toml"), &report);
        let found = &placed[Path::new("/p/SKILL.md")][0];
        let range = Range { start: Position { line: 1, character: 6 }, end: Position { line: 1, character: 14 } };
        assert_eq!(found.range, range);
        assert_eq!(found.message, "not lowercase\nhelp: use lowercase");
        let action = found.fix.as_ref().expect("a fix");
        assert!(action.safe);
        assert_eq!(action.edits, [TextEdit { path: PathBuf::from("/p/SKILL.md"), range, new_text: "bad-name".into() }]);
    }

    fn agent(dir: &Path, name: &str) {
        let manifest = format!(
            "[agent]\nname = \"{name}\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [{{ id = \"core\", kind = \"module\" }}]\n\n[modules]\ncore = {{ source = \"core.md\" }}\n"
        );
        std::fs::create_dir_all(dir.join(name)).expect("mkdir");
        std::fs::write(dir.join(name).join("ctxc.toml"), manifest).expect("write");
        std::fs::write(dir.join(name).join("core.md"), "You are careful.\n").expect("write");
    }

    #[test]
    fn text_reads_only_regular_files_inside_the_project() {
        let dir = tempfile::tempdir().expect("tempdir");
        agent(dir.path(), "a");
        let workspace = Workspace::new(&dir.path().join("a"), Options::default(), Vec::new());
        assert_eq!(workspace.text(&dir.path().join("a/core.md")).as_deref(), Some("You are careful.\n"));
        std::fs::write(dir.path().join("outside.md"), "secret\n").expect("write");
        assert_eq!(workspace.text(&dir.path().join("outside.md")), None, "outside the project");
        assert_eq!(workspace.text(Path::new("/dev/zero")), None, "not a regular file");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("outside.md"), dir.path().join("a/link.md")).expect("symlink");
            assert_eq!(workspace.text(&dir.path().join("a/link.md")), None, "a link out of the project");
        }
    }

    #[test]
    fn an_edit_rechecks_only_the_agents_that_read_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        agent(dir.path(), "a");
        agent(dir.path(), "b");
        let mut workspace = Workspace::new(dir.path(), Options::default(), Vec::new());
        assert_eq!(workspace.refresh_all(), Vec::new(), "clean");
        assert_eq!(workspace.last_checked(), 3, "two agents and the root");
        let core = workspace.set_text(&dir.path().join("a/core.md"), Some("Use {tools_description}.\n".into()));
        let published = workspace.refresh(std::slice::from_ref(&core));
        assert_eq!(workspace.last_checked(), 1, "b does not read a/core.md");
        assert_eq!(published.len(), 1);
        assert_eq!((published[0].path.as_path(), published[0].findings[0].code), (core.as_path(), Some("TPL003")));
        assert_eq!(std::fs::read_to_string(&core).expect("read"), "You are careful.\n", "the disk is not written");
        let rows = workspace.hover(&core, Position::default()).expect("a hover");
        assert!(rows.contains("| `a` | `default` | `default` | 5 |"), "{rows}");
        // Closed unsaved: the file on disk counts again and the finding goes.
        workspace.set_text(&core, None);
        assert_eq!(workspace.refresh(std::slice::from_ref(&core)), [Published { path: core.clone(), findings: Vec::new() }]);
    }

    #[test]
    fn hovers_keep_hostile_names_in_code_spans() {
        let dir = tempfile::tempdir().expect("tempdir");
        let name = "<img src=x onerror=alert(1)> [x](https://evil.example) @everyone | `x`\r";
        let manifest = format!(
            "[agent]\nname = {name:?}\n\n[pipeline]\nsteps = [{{ id = \"core\", kind = \"module\" }}]\n\n[modules]\ncore = {{ source = \"core.md\" }}\n\n[modes.{name:?}]\n"
        );
        std::fs::write(dir.path().join("ctxc.toml"), manifest).expect("write");
        std::fs::write(dir.path().join("core.md"), "You are careful.\n").expect("write");
        let mut workspace = Workspace::new(dir.path(), Options::default(), Vec::new());
        workspace.refresh_all();
        let hover = workspace.hover(&dir.path().join("core.md"), Position::default()).expect("a hover");
        let row = hover.lines().find(|l| l.starts_with("| ") && l.contains("img")).expect("a row naming the agent");
        let cells = row.match_indices('|').filter(|(i, _)| !row[..*i].ends_with('\\')).count() - 1;
        assert_eq!(cells, 6, "{row}");
        assert!(row.starts_with("| ``<img src=x onerror=alert(1)> [x](https://evil.example) @everyone \\| `x`\\r`` |"), "{row}");
        assert!(!hover.contains('\r'), "{hover}");
    }

    /// `ctxc.mcp-tools` is read by MCP022 beside the configuration it checks: a new record (as
    /// `ctxc mcp record` writes it) takes the finding away without an edit of `.mcp.json`.
    #[test]
    fn a_new_mcp_record_rechecks_the_configuration() {
        let dir = tempfile::tempdir().expect("tempdir");
        agent(dir.path(), "a");
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules/MCP022");
        std::fs::copy(fixtures.join("fail/.mcp.json"), dir.path().join(".mcp.json")).expect("copy");
        std::fs::copy(fixtures.join("fail/ctxc.mcp-tools"), dir.path().join("ctxc.mcp-tools")).expect("copy");
        let mut workspace = Workspace::new(dir.path(), Options::default(), Vec::new());
        workspace.refresh_all();
        let config = canonical(&dir.path().join(".mcp.json"));
        let codes = |w: &Workspace| w.findings(&config).iter().map(|f| f.code).collect::<Vec<_>>();
        assert_eq!(codes(&workspace), [Some("MCP022"), Some("MCP022")], "memory outdated, fetch missing");
        // The configuration recorded again: the pass fixture's pair.
        std::fs::copy(fixtures.join("pass/.mcp.json"), dir.path().join(".mcp.json")).expect("copy");
        workspace.refresh(std::slice::from_ref(&config));
        assert_eq!(codes(&workspace), [Some("MCP022")], "fetch gone, memory's record still outdated");
        std::fs::copy(fixtures.join("pass/ctxc.mcp-tools"), dir.path().join("ctxc.mcp-tools")).expect("copy");
        let record = canonical(&dir.path().join("ctxc.mcp-tools"));
        let published = workspace.refresh(std::slice::from_ref(&record));
        assert_eq!(published, [Published { path: config.clone(), findings: Vec::new() }], "only the record changed");
    }

    /// A manifest agent whose tools come from the record is checked against the configuration
    /// its server's hash is taken from: an edit of `.mcp.json` (or a configuration created after
    /// the record) re-checks the agent, whose MCP022 comes and goes as a fresh server shows it.
    #[test]
    fn an_edit_of_the_configuration_rechecks_the_agent_naming_its_record() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (record, mcp_json) = notes_record();
        let manifest = "[agent]\nname = \"a\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [{ id = \"role\", kind = \"text\", text = \"You help.\" }, { id = \"tools\", kind = \"tool_list\" }]\n\n[tools.mcp]\nfiles = [{ path = \"ctxc.mcp-tools\", server = \"notes\" }]\n\n[scenarios.default]\nmcp_servers = { notes = {} }\n";
        std::fs::write(dir.path().join("ctxc.toml"), manifest).expect("write");
        std::fs::write(dir.path().join("ctxc.mcp-tools"), record).expect("write");
        let config = dir.path().join(".mcp.json");
        let mut workspace = Workspace::new(dir.path(), Options::default(), Vec::new());
        workspace.refresh_all();
        let manifest = canonical(&dir.path().join("ctxc.toml"));
        let codes = |w: &Workspace| w.findings(&manifest).iter().map(|f| f.code).collect::<Vec<_>>();
        assert_eq!(codes(&workspace), [Some("MCP022")], "no configuration yet");
        for (version, expected) in [("1", &[][..]), ("2", &[Some("MCP022")][..]), ("1", &[][..])] {
            std::fs::write(&config, mcp_json(version)).expect("write");
            workspace.refresh(&[canonical(&config)]);
            assert_eq!(codes(&workspace), expected, "notes@{version}");
            assert_eq!(codes(&fresh(dir.path(), &BTreeMap::new())), expected, "a fresh server, notes@{version}");
            let in_config: Vec<_> = workspace.findings(&canonical(&config)).iter().map(|f| f.message.clone()).collect();
            assert!(in_config.iter().any(|m| m.starts_with("MCP server `other` has no record")), "{in_config:?}");
        }
    }

    /// A record outside the agent's folder whose configuration does not exist yet: creating it
    /// checks the agent again (the agent's folder does not hold it).
    #[test]
    fn creating_the_configuration_of_a_record_elsewhere_rechecks_the_agent() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join(".git")).expect("mkdir");
        std::fs::create_dir_all(dir.path().join("agent")).expect("mkdir");
        std::fs::create_dir_all(dir.path().join("shared")).expect("mkdir");
        let (record, mcp_json) = notes_record();
        let manifest = "[project]\nroot = \"..\"\n\n[agent]\nname = \"a\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [{ id = \"role\", kind = \"text\", text = \"You help.\" }, { id = \"tools\", kind = \"tool_list\" }]\n\n[tools.mcp]\nfiles = [{ path = \"../shared/ctxc.mcp-tools\", server = \"notes\" }]\n\n[scenarios.default]\nmcp_servers = { notes = {} }\n";
        std::fs::write(dir.path().join("agent/ctxc.toml"), manifest).expect("write");
        std::fs::write(dir.path().join("shared/ctxc.mcp-tools"), record).expect("write");
        let mut workspace = Workspace::new(dir.path(), Options::default(), Vec::new());
        workspace.refresh_all();
        let manifest = canonical(&dir.path().join("agent/ctxc.toml"));
        let codes = |w: &Workspace| w.findings(&manifest).iter().map(|f| f.code).collect::<Vec<_>>();
        assert_eq!(codes(&workspace), [Some("MCP022")], "no configuration yet");
        let config = dir.path().join("shared/.mcp.json");
        std::fs::write(&config, mcp_json("1")).expect("write");
        workspace.refresh(&[canonical(&config)]);
        assert_eq!(codes(&fresh(dir.path(), &BTreeMap::new())), [None; 0], "a fresh server");
        assert_eq!(codes(&workspace), [None; 0], "the agent checked again");
    }

    /// A record of server `notes` (notes@1), and the `.mcp.json` configuring it at a version
    /// with a server `other` the record does not hold.
    fn notes_record() -> (String, impl Fn(&str) -> String) {
        use crate::mcp_record::{config_hash, Record, RecordedServer, RECORD_VERSION};
        let server = |version: &str| serde_json::json!({ "command": "npx", "args": ["-y", format!("notes@{version}")] });
        let tool = serde_json::json!({ "name": "add", "description": "Adds a note.", "inputSchema": { "type": "object" } });
        let entry = RecordedServer {
            file: ".mcp.json".into(),
            server: "notes".into(),
            config: config_hash(&server("1")),
            protocol_version: "2025-06-18".into(),
            server_info: serde_json::json!({ "name": "notes" }),
            tools: vec![tool],
            prompts: None,
            resources: None,
        };
        let record = Record { version: RECORD_VERSION, servers: vec![entry] };
        // `other` is recorded nowhere: the lint of the files no agent loads says so in `.mcp.json`,
        // which the agent only reads its record's hash from.
        let mcp_json =
            move |version: &str| serde_json::json!({ "mcpServers": { "notes": server(version), "other": server("1") } }).to_string();
        (record.to_text(), mcp_json)
    }

    /// Three agents reading one shared module, each with a module and a tool file of its own.
    fn shared_project(dir: &Path) {
        // A git work tree: the agents' root may be its top.
        std::fs::create_dir_all(dir.join(".git")).expect("mkdir");
        for name in ["a", "b", "c"] {
            let manifest = format!(
                "[project]\nroot = \"..\"\n\n[agent]\nname = \"{name}\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [\n  {{ id = \"shared\", kind = \"module\" }},\n  {{ id = \"core\", kind = \"module\" }},\n  {{ id = \"tools\", kind = \"tool_list\" }},\n]\n\n[modules]\nshared = {{ source = \"../shared/core.md\" }}\ncore = {{ source = \"core.md\" }}\n\n[tools.main]\nfiles = [\"tools.json\"]\nread_only = [\"search\"]\n\n[modes.default]\n[modes.brief]\ntools = {{ main = \"read-only\" }}\n"
            );
            std::fs::create_dir_all(dir.join(name)).expect("mkdir");
            std::fs::write(dir.join(name).join("ctxc.toml"), manifest).expect("write");
            std::fs::write(dir.join(name).join("core.md"), format!("You are agent {name}.\n")).expect("write");
            std::fs::write(dir.join(name).join("tools.json"), tools(0)).expect("write");
        }
        std::fs::create_dir_all(dir.join("shared")).expect("mkdir");
        std::fs::write(dir.join("shared/core.md"), "Be careful.\n").expect("write");
    }

    /// A tool file whose description is new each time, with a `required` name it does not
    /// declare (TOOL007) when `i` is odd.
    fn tools(i: usize) -> String {
        let required = if i % 2 == 1 { r#"["query", "not_declared"]"# } else { r#"["query"]"# };
        format!(
            r#"[{{"type": "function", "function": {{"name": "search", "description": "Searches the index, edit {i}.", "parameters": {{"type": "object", "properties": {{"query": {{"type": "string", "description": "What to find."}}}}, "required": {required}}}}}}}]"#
        )
    }

    /// Edit `i` of the project: the shared module, a module of one agent or a tool file, each
    /// new text adding or taking away a finding as typing does.
    fn edit(workspace: &mut Workspace, dir: &Path, i: usize) -> Vec<Published> {
        let (file, text) = match i % 3 {
            0 => ("shared/core.md", format!("Be careful, edit {i}.{}\n", if i % 2 == 1 { " Use {tools_description}." } else { "" })),
            1 => ("a/core.md", format!("You are agent a, edit {i}.{}\n", if i % 2 == 1 { " Use {tools_description}." } else { "" })),
            _ => ("b/tools.json", tools(i)),
        };
        let path = workspace.set_text(&dir.join(file), Some(text));
        workspace.refresh(&[path])
    }

    /// What the server shows: every file's findings and the hover of every agent's files.
    fn shown(workspace: &mut Workspace, dir: &Path) -> Vec<(PathBuf, Vec<Finding>, Option<String>)> {
        ["shared/core.md", "a/core.md", "b/core.md", "c/core.md", "a/tools.json", "b/tools.json", "c/tools.json", "a/ctxc.toml"]
            .iter()
            .map(|file| {
                let path = canonical(&dir.join(file));
                let findings = workspace.findings(&path).to_vec();
                (path.clone(), findings, workspace.hover(&path, Position::default()))
            })
            .collect()
    }

    /// A fresh workspace opened on the edited texts.
    fn fresh(dir: &Path, open: &BTreeMap<PathBuf, String>) -> Workspace {
        let mut workspace = Workspace::new(dir, Options::default(), Vec::new());
        for (path, text) in open {
            workspace.set_text(path, Some(text.clone()));
        }
        workspace.refresh_all();
        workspace
    }

    #[test]
    fn edits_show_what_a_fresh_server_shows_on_the_edited_texts() {
        let dir = tempfile::tempdir().expect("tempdir");
        shared_project(dir.path());
        let mut workspace = Workspace::new(dir.path(), Options::default(), Vec::new());
        workspace.refresh_all();
        for i in 1..=7 {
            let published = edit(&mut workspace, dir.path(), i);
            // The first edit of a file adds a finding or leaves it clean; each later one changes it.
            assert_eq!(published.is_empty(), i == 2, "edit {i}");
            let mut again = fresh(dir.path(), &workspace.open);
            assert_eq!(shown(&mut workspace, dir.path()), shown(&mut again, dir.path()), "after edit {i}");
        }
    }

    /// [`shared_project`] whose agents also list the skills of `skills/` (one skill, `one`).
    fn skills_project(dir: &Path) {
        shared_project(dir);
        for name in ["a", "b", "c"] {
            let path = dir.join(name).join("ctxc.toml");
            let text = std::fs::read_to_string(&path).expect("read");
            let text = text.replace(
                "  { id = \"tools\", kind = \"tool_list\" },\n]",
                "  { id = \"tools\", kind = \"tool_list\" },\n  { id = \"skills\", kind = \"skills\" },\n]",
            );
            std::fs::write(&path, format!("{text}\n[skills]\ndirs = [\"../skills\"]\n")).expect("write");
        }
        skill(dir, "one", "Take meeting notes from a transcript. Use when the user shares a transcript.");
    }

    /// Writes the skill `name` under `skills/`; returns its SKILL.md's canonical path.
    fn skill(dir: &Path, name: &str, description: &str) -> PathBuf {
        std::fs::create_dir_all(dir.join("skills").join(name)).expect("mkdir");
        let path = dir.join("skills").join(name).join("SKILL.md");
        std::fs::write(&path, format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n\nDo it well.\n")).expect("write");
        canonical(&path)
    }

    /// Writes a file of the project on disk, as an editor saves it; returns its canonical path.
    fn save(dir: &Path, file: &str, text: &str) -> PathBuf {
        std::fs::write(dir.join(file), text).expect("write");
        canonical(&dir.join(file))
    }

    /// Edits on disk, reported as an editor's file watcher reports them (the file's path), leave
    /// the server showing what a fresh one shows: a skill changed, created and deleted, the
    /// module every agent reads and one manifest edited. The server keeps the files it read and
    /// the folders it walked between checks; each report must make it read or walk them again.
    #[test]
    fn edits_on_disk_show_what_a_fresh_server_shows() {
        let dir = tempfile::tempdir().expect("tempdir");
        skills_project(dir.path());
        let mut workspace = fresh(dir.path(), &BTreeMap::new());
        type Step = Box<dyn Fn(&Path) -> PathBuf>;
        let steps: Vec<(&str, Step)> = vec![
            ("a skill changed", Box::new(|d| skill(d, "one", "Take notes. Use {tools_description} when asked."))),
            ("a skill created", Box::new(|d| skill(d, "two", "Plan trips. Use when the user asks for an itinerary."))),
            (
                "a skill deleted",
                Box::new(|d| {
                    let path = canonical(&d.join("skills/one/SKILL.md"));
                    std::fs::remove_file(&path).expect("remove");
                    path
                }),
            ),
            ("the shared module", Box::new(|d| save(d, "shared/core.md", "Be careful. Use {tools_description}.\n"))),
            (
                "one manifest",
                Box::new(|d| {
                    let text = std::fs::read_to_string(d.join("b/ctxc.toml")).expect("read");
                    save(d, "b/ctxc.toml", &text.replace("model = \"gpt-4o\"", "model = \"gpt-4\""))
                }),
            ),
        ];
        for (what, step) in steps {
            let changed = step(dir.path());
            workspace.refresh(&[changed]);
            let mut again = fresh(dir.path(), &BTreeMap::new());
            assert_eq!(workspace.published, again.published, "after {what}");
            assert_eq!(shown(&mut workspace, dir.path()), shown(&mut again, dir.path()), "after {what}");
        }
        let skills = canonical(&dir.path().join("skills/two/SKILL.md"));
        assert!(workspace.agents_reading(&skills).len() == 3, "the created skill is read by every agent");
    }

    /// Waits until what the project's files were last changed is past the time within which
    /// a later change could leave their stamps as they are: what was read before then is kept
    /// and checked by its stamp alone (see `project::DiskMemory`).
    fn settle() {
        std::thread::sleep(std::time::Duration::from_millis(150));
    }

    /// [`skills_project`], checked by a fresh server once its files are [`settle`]d; with how
    /// many files its session read, folders it walked and stamps it took so far.
    fn settled_skills_project() -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().expect("tempdir");
        skills_project(dir.path());
        settle();
        let workspace = fresh(dir.path(), &BTreeMap::new());
        (dir, workspace)
    }

    fn file_work(workspace: &Workspace) -> (usize, usize, usize) {
        workspace.session().file_work().expect("the editor's session keeps files")
    }

    /// Counted in work done, not in time: an edit of one agent's file checks that agent alone
    /// and reads that one file from the disk (its other files, and the skill folders walked, are
    /// kept); an edit of the module every agent reads checks them all and still reads one file.
    #[test]
    fn an_edit_reads_the_changed_file_alone() {
        let (dir, mut workspace) = settled_skills_project();
        let (reads, walks, _) = file_work(&workspace);
        assert!(reads >= 10 && walks >= 1, "the first check reads every file: {reads} files, {walks} folders");
        let edits = [("a/core.md", "You are agent a, edited.\n", 1), ("shared/core.md", "Be careful, edited.\n", 3)];
        for (i, (file, text, agents)) in edits.into_iter().enumerate() {
            let path = save(dir.path(), file, text);
            // Read later than just after its change: kept (a file read just after its change is
            // read again at the next check, when a later change could have left its stamp as is).
            settle();
            workspace.refresh(&[path]);
            assert_eq!(workspace.last_checked(), agents, "{file}: the agents reading it");
            let (read_again, walked_again, _) = file_work(&workspace);
            assert_eq!((read_again, walked_again), (reads + i + 1, walks), "{file}: one more file read, no folder walked");
        }
    }

    /// Files changed and a skill created on disk with no one telling the server (a checkout,
    /// another program, a client that sends no file events) are seen when the agents reading
    /// them are next checked: what the server kept is checked against the disk, not trusted.
    #[test]
    fn changes_no_one_reported_are_seen_at_the_next_check() {
        let (dir, mut workspace) = settled_skills_project();
        skill(dir.path(), "one", "Take notes. Use {tools_description} when asked.");
        skill(dir.path(), "two", "Plan trips. Use when the user asks for an itinerary.");
        std::fs::write(dir.path().join("b/tools.json"), tools(1)).expect("write");
        // What the server hears of: an unsaved edit of the module every agent reads.
        let text = "Be careful, edited.\n".to_string();
        let shared = workspace.set_text(&dir.path().join("shared/core.md"), Some(text.clone()));
        workspace.refresh(std::slice::from_ref(&shared));
        let mut again = fresh(dir.path(), &BTreeMap::from([(shared, text)]));
        assert_eq!(workspace.published, again.published);
        assert_eq!(shown(&mut workspace, dir.path()), shown(&mut again, dir.path()));
        let created = canonical(&dir.path().join("skills/two/SKILL.md"));
        assert_eq!(workspace.agents_reading(&created).len(), 3, "the created skill is read by every agent");
    }

    /// Counted in system calls, not in time: checking what was kept costs one stamp (`lstat`)
    /// per kept file an agent reads and per folder its walks entered, once per check however
    /// many agents read the file, and nothing is read or walked again.
    #[test]
    fn a_check_takes_one_stamp_per_kept_file() {
        let (dir, mut workspace) = settled_skills_project();
        // The skill walk enters `skills` and `skills/one`.
        let folders = 2;
        for (edited, agents) in [("a/core.md", 1), ("shared/core.md", 3)] {
            let (reads, walks, stats) = file_work(&workspace);
            let path = workspace.set_text(&dir.path().join(edited), Some("Edited, unsaved.\n".to_string()));
            workspace.refresh(std::slice::from_ref(&path));
            assert_eq!(workspace.last_checked(), agents, "{edited}");
            let on_disk: BTreeSet<&PathBuf> = workspace
                .units
                .iter()
                .filter(|(unit, _)| is_manifest(unit))
                .take(agents)
                .flat_map(|(_, u)| u.files.iter())
                .filter(|file| !workspace.open.contains_key(*file))
                .collect();
            let (reads_now, walks_now, stats_now) = file_work(&workspace);
            assert_eq!((reads_now, walks_now), (reads, walks), "{edited}: nothing read or walked");
            assert_eq!(stats_now - stats, on_disk.len() + folders, "{edited}: {on_disk:?}");
            workspace.set_text(&path, None);
            workspace.refresh(&[path]);
        }
    }

    /// Makes agent `name` of [`shared_project`] list the skills of its own folder's `skills/`,
    /// as the bench's agents do.
    fn lists_own_skills(dir: &Path, name: &str) {
        let manifest = dir.join(name).join("ctxc.toml");
        let text = std::fs::read_to_string(&manifest).expect("read").replace(
            "  { id = \"tools\", kind = \"tool_list\" },\n]",
            "  { id = \"tools\", kind = \"tool_list\" },\n  { id = \"skills\", kind = \"skills\" },\n]",
        );
        std::fs::write(&manifest, format!("{text}\n[skills]\ndirs = [\"skills\"]\n")).expect("write");
    }

    /// [`shared_project`] whose agents each have a skill that mentions a script it does not bundle
    /// (SKILL017) and bundles two references nothing mentions (SKILL018), checked once its files are [`settle`]d, by a
    /// server told every change of the disk (`reported`: an editor's file watcher) or not.
    fn bundle_project(reported: bool) -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().expect("tempdir");
        shared_project(dir.path());
        // Each agent lists a skill of its own folder, as the bench's agents do.
        for name in ["a", "b", "c"] {
            lists_own_skills(dir.path(), name);
            let skill = dir.path().join(name).join("skills/one");
            std::fs::create_dir_all(skill.join("references")).expect("mkdir");
            let text =
                "---\nname: one\ndescription: Take notes. Use when asked.\n---\n# one\n\nRun `python scripts/extract.py input.pdf`.\n";
            std::fs::write(skill.join("SKILL.md"), text).expect("write");
            std::fs::write(skill.join("references/guide.md"), "# Guide\n").expect("write");
            std::fs::write(skill.join("references/index.md"), "# Index\n").expect("write");
        }
        settle();
        let mut workspace = Workspace::new(dir.path(), Options::default(), Vec::new());
        if reported {
            workspace.trust_reports();
        }
        workspace.refresh_all();
        (dir, workspace)
    }

    /// The codes of the findings shown for a file.
    fn codes_of(workspace: &Workspace, path: &Path) -> Vec<&'static str> {
        workspace.findings(path).iter().filter_map(|f| f.code).collect()
    }

    /// Counted in rule runs and system calls: with every change of the disk reported, an edit of
    /// the module every agent reads takes no stamp of what was kept and keeps the findings of
    /// the rules that read the skills' folders (SKILL017, SKILL018, SKILL019, SKILL023); a reported change of the
    /// disk (the script created, then deleted) and an unsaved edit of a file in the skill's
    /// folder run them again. Each time the server shows what a fresh server shows.
    #[test]
    fn with_changes_reported_an_edit_keeps_the_findings_of_the_rules_reading_the_disk() {
        use crate::codes::Code;
        let (dir, mut workspace) = bundle_project(true);
        let one = canonical(&dir.path().join("a/skills/one/SKILL.md"));
        let runs =
            |w: &Workspace| [Code::SKILL017, Code::SKILL018, Code::SKILL019, Code::SKILL023].map(|c| w.session().rule_times().runs(c));
        assert_eq!(codes_of(&workspace, &one), ["SKILL018", "SKILL018", "SKILL017"]);
        let mut open = BTreeMap::new();
        let check = |workspace: &mut Workspace, open: &BTreeMap<PathBuf, String>, what: &str| {
            let mut again = fresh(dir.path(), open);
            assert_eq!(workspace.published, again.published, "after {what}");
            assert_eq!(shown(workspace, dir.path()), shown(&mut again, dir.path()), "after {what}");
        };
        let before = runs(&workspace);
        let (_, _, stats) = file_work(&workspace);
        let text = "Be careful. Use {tools_description}.\n".to_string();
        let shared = workspace.set_text(&dir.path().join("shared/core.md"), Some(text.clone()));
        workspace.refresh(std::slice::from_ref(&shared));
        assert_eq!(workspace.last_checked(), 3);
        assert_eq!(runs(&workspace), before, "nothing the rules read changed: their findings are kept");
        assert_eq!(file_work(&workspace).2, stats, "nothing kept is stamped again");
        open.insert(shared, text);
        check(&mut workspace, &open, "an edit of the shared module");
        // The script created on disk, and reported: the finding goes.
        std::fs::create_dir_all(dir.path().join("a/skills/one/scripts")).expect("mkdir");
        let script = save(dir.path(), "a/skills/one/scripts/extract.py", "print('hi')\n");
        workspace.disk_changed();
        workspace.refresh(std::slice::from_ref(&script));
        assert!(runs(&workspace).iter().zip(before).all(|(after, before)| *after > before));
        assert_eq!(codes_of(&workspace, &one), ["SKILL018", "SKILL018"]);
        check(&mut workspace, &open, "the script created");
        // Deleted, and reported: it comes back.
        std::fs::remove_file(&script).expect("remove");
        workspace.disk_changed();
        workspace.refresh(std::slice::from_ref(&script));
        assert_eq!(codes_of(&workspace, &one), ["SKILL018", "SKILL018", "SKILL017"]);
        check(&mut workspace, &open, "the script deleted");
        // An unsaved edit of one reference mentioning the other: that one's SKILL018 goes (a nested reference now, SKILL019).
        let index = canonical(&dir.path().join("a/skills/one/references/index.md"));
        let text = "# Index\n\nThe steps are in references/guide.md.\n".to_string();
        workspace.set_text(&index, Some(text.clone()));
        workspace.refresh(std::slice::from_ref(&index));
        assert_eq!(codes_of(&workspace, &one), ["SKILL018", "SKILL019", "SKILL017"], "the mention made SKILL019 of it");
        open.insert(index, text);
        check(&mut workspace, &open, "an unsaved edit of a bundled file");
    }

    /// With every change of the disk reported, an agent's skills are read once until a report
    /// (`Files::skills` is kept): a skill created on disk and reported, then an unsaved edit of its
    /// SKILL.md, each show at once what a fresh server shows.
    #[test]
    fn with_changes_reported_the_skills_read_follow_reports_and_unsaved_edits() {
        let (dir, mut workspace) = bundle_project(true);
        let shared = workspace.set_text(&dir.path().join("shared/core.md"), Some("Edited.\n".to_string()));
        workspace.refresh(std::slice::from_ref(&shared));
        let mut open = BTreeMap::from([(shared, "Edited.\n".to_string())]);
        // A second skill of agent a, named after no folder (SKILL005), created and reported.
        std::fs::create_dir_all(dir.path().join("a/skills/two")).expect("mkdir");
        let two = save(dir.path(), "a/skills/two/SKILL.md", "---\nname: other\ndescription: Take notes. Use when asked.\n---\n# two\n");
        workspace.disk_changed();
        workspace.refresh(std::slice::from_ref(&two));
        assert!(codes_of(&workspace, &two).contains(&"SKILL005"), "{:?}", workspace.findings(&two));
        assert_eq!(workspace.published, fresh(dir.path(), &open).published, "after the skill was created");
        // Its name fixed in the editor: the finding goes.
        let fixed = "---\nname: two\ndescription: Take notes. Use when asked.\n---\n# two\n".to_string();
        workspace.set_text(&two, Some(fixed.clone()));
        workspace.refresh(std::slice::from_ref(&two));
        assert!(!codes_of(&workspace, &two).contains(&"SKILL005"), "{:?}", workspace.findings(&two));
        open.insert(two, fixed);
        assert_eq!(workspace.published, fresh(dir.path(), &open).published, "after the unsaved edit");
    }

    /// A client that reports no change of the disk: each check runs the rules that read it
    /// again and takes the stamps of what was kept, as before there were reports.
    #[test]
    fn without_reports_the_rules_reading_the_disk_run_at_each_check() {
        use crate::codes::Code;
        let (dir, mut workspace) = bundle_project(false);
        let before = workspace.session().rule_times().runs(Code::SKILL017);
        let (_, _, stats) = file_work(&workspace);
        let shared = workspace.set_text(&dir.path().join("shared/core.md"), Some("Edited.\n".to_string()));
        workspace.refresh(std::slice::from_ref(&shared));
        assert_eq!(workspace.session().rule_times().runs(Code::SKILL017), before + 3, "once per agent");
        assert!(file_work(&workspace).2 > stats, "what was kept is stamped");
        let one = canonical(&dir.path().join("a/skills/one/SKILL.md"));
        assert_eq!(codes_of(&workspace, &one), ["SKILL018", "SKILL018", "SKILL017"]);
    }

    /// Counted in rule runs, not in time: an edit of the module every agent reads runs again the
    /// rules that read the agents' prompts, not those that read only their skills (their findings
    /// are the last check's, the skills being unchanged), and shows what a fresh server shows;
    /// an edit of the skill runs those again.
    #[test]
    fn an_edit_of_a_module_reuses_the_findings_of_the_rules_that_read_only_skills() {
        use crate::codes::Code;
        let dir = tempfile::tempdir().expect("tempdir");
        shared_project(dir.path());
        // Each agent lists a skill of its own folder, as the bench's agents do; agent a's has a
        // finding of a skill rule (SKILL005: the name is not its folder's) to be kept.
        for name in ["a", "b", "c"] {
            lists_own_skills(dir.path(), name);
            let named = if name == "a" { "other" } else { "one" };
            std::fs::create_dir_all(dir.path().join(name).join("skills/one")).expect("mkdir");
            let text = format!("---\nname: {named}\ndescription: Take notes. Use when asked.\n---\n# one\n");
            std::fs::write(dir.path().join(name).join("skills/one/SKILL.md"), text).expect("write");
        }
        let one = canonical(&dir.path().join("a/skills/one/SKILL.md"));
        let mut workspace = fresh(dir.path(), &BTreeMap::new());
        let runs = |w: &Workspace, code| w.session().rule_times().runs(code);
        let before = (runs(&workspace, Code::SKILL005), runs(&workspace, Code::TPL003));
        let kept_too = [Code::INSTR010, Code::INSTR011, Code::LINK003, Code::LINK007, Code::LINK008];
        let kept_before = kept_too.map(|code| runs(&workspace, code));
        let text = "Be careful. Use {tools_description}.\n".to_string();
        let shared = workspace.set_text(&dir.path().join("shared/core.md"), Some(text.clone()));
        workspace.refresh(std::slice::from_ref(&shared));
        assert_eq!(workspace.last_checked(), 3);
        assert_eq!(runs(&workspace, Code::SKILL005), before.0, "the skills are unchanged: their findings are kept");
        assert_eq!(kept_too.map(|code| runs(&workspace, code)), kept_before, "and those of the rules reading only their text");
        assert_eq!(runs(&workspace, Code::TPL003), before.1 + 3, "every agent's prompt changed");
        let mut again = fresh(dir.path(), &BTreeMap::from([(shared.clone(), text.clone())]));
        assert!(workspace.findings(&one).iter().any(|f| f.code == Some("SKILL005")), "{:?}", workspace.findings(&one));
        assert_eq!(workspace.published, again.published);
        assert_eq!(shown(&mut workspace, dir.path()), shown(&mut again, dir.path()));
        // The skill fixed in the editor: its rules run again, and the finding goes.
        let fixed = "---\nname: one\ndescription: Take notes. Use when asked.\n---\n# one\n".to_string();
        workspace.set_text(&one, Some(fixed.clone()));
        workspace.refresh(std::slice::from_ref(&one));
        assert!(runs(&workspace, Code::SKILL005) > before.0);
        assert!(workspace.findings(&one).iter().all(|f| f.code != Some("SKILL005")));
        let mut again = fresh(dir.path(), &BTreeMap::from([(shared, text), (one, fixed)]));
        assert_eq!(workspace.published, again.published);
        assert_eq!(shown(&mut workspace, dir.path()), shown(&mut again, dir.path()));
    }

    /// Counted in rule runs: an edit of a module (the one every agent reads, then one agent's)
    /// keeps the findings of the rules that read the agent's tools but no prompt (TOOL007 among
    /// them) and runs those that read the prompts (TPL003); an edit of a tool file, and one of a
    /// manifest, run them again. Each time the server shows what a fresh server shows.
    #[test]
    fn an_edit_of_a_module_keeps_the_findings_of_the_rules_that_read_no_prompt() {
        use crate::codes::Code;
        let dir = tempfile::tempdir().expect("tempdir");
        shared_project(dir.path());
        std::fs::write(dir.path().join("a/tools.json"), tools(1)).expect("write");
        let mut workspace = fresh(dir.path(), &BTreeMap::new());
        let runs = |w: &Workspace, code| w.session().rule_times().runs(code);
        let a_tools = canonical(&dir.path().join("a/tools.json"));
        assert_eq!(codes_of(&workspace, &a_tools), ["TOOL007"]);
        let mut open = BTreeMap::new();
        let mut change = |workspace: &mut Workspace, file: &str, text: String, rerun: bool| {
            let before = (runs(workspace, Code::TOOL007), runs(workspace, Code::TOOL009), runs(workspace, Code::TPL003));
            let path = workspace.set_text(&dir.path().join(file), Some(text.clone()));
            workspace.refresh(std::slice::from_ref(&path));
            let checked = workspace.last_checked();
            let after = (runs(workspace, Code::TOOL007), runs(workspace, Code::TOOL009), runs(workspace, Code::TPL003));
            if rerun {
                assert!(after.0 > before.0 && after.1 > before.1, "{file}: {before:?} {after:?}");
            } else {
                assert_eq!(after, (before.0, before.1, before.2 + checked), "{file}: only the rule reading the prompts ran");
            }
            open.insert(path, text);
            let mut fresh = fresh(dir.path(), &open);
            assert_eq!(workspace.published, fresh.published, "{file}");
            assert_eq!(shown(workspace, dir.path()), shown(&mut fresh, dir.path()), "{file}");
        };
        change(&mut workspace, "shared/core.md", "Be careful. Use {tools_description}.\n".into(), false);
        assert_eq!(workspace.last_checked(), 3);
        change(&mut workspace, "a/core.md", "You are agent a, edited.\n".into(), false);
        // The tool file fixed: TOOL007's finding goes.
        change(&mut workspace, "a/tools.json", tools(2), true);
        assert_eq!(codes_of(&workspace, &a_tools), [""; 0]);
        // A manifest naming a writing tool read-only: TOOL009's finding comes.
        let manifest = std::fs::read_to_string(dir.path().join("b/ctxc.toml")).expect("read");
        std::fs::write(dir.path().join("b/tools.json"), tools(0).replace("\"search\"", "\"delete_notes\"")).expect("write");
        change(&mut workspace, "b/ctxc.toml", manifest.replace("read_only = [\"search\"]", "read_only = [\"delete_notes\"]"), true);
        let b_manifest = canonical(&dir.path().join("b/ctxc.toml"));
        assert_eq!(codes_of(&workspace, &b_manifest), ["TOOL009"]);
    }

    /// Two agents whose own module is a template: it reads the agent's variables and the mode,
    /// and includes a partial both agents read and a file of the agent's that may be missing.
    fn templates_project(dir: &Path) {
        std::fs::create_dir_all(dir.join(".git")).expect("mkdir");
        for name in ["a", "b"] {
            std::fs::create_dir_all(dir.join(name)).expect("mkdir");
            std::fs::write(dir.join(name).join("ctxc.toml"), templates_manifest(name, "calm")).expect("write");
            let template = "You are {{ agent.name }}, {{ vars.tone }}, in {{ mode }} mode.\n{% include \"../shared/part.md\" %}\n{% include \"extra.md\" ignore missing %}\n";
            std::fs::write(dir.join(name).join("core.md.j2"), template).expect("write");
        }
        std::fs::create_dir_all(dir.join("shared")).expect("mkdir");
        std::fs::write(dir.join("shared/core.md"), "Be careful.\n").expect("write");
        std::fs::write(dir.join("shared/part.md"), "Cite sources.\n").expect("write");
    }

    fn templates_manifest(name: &str, tone: &str) -> String {
        format!(
            "[project]\nroot = \"..\"\n\n[agent]\nname = \"{name}\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [\n  {{ id = \"shared\", kind = \"module\" }},\n  {{ id = \"core\", kind = \"module\" }},\n]\n\n[modules]\nshared = {{ source = \"../shared/core.md\" }}\ncore = {{ source = \"core.md.j2\" }}\n\n[vars]\ntone = \"{tone}\"\n\n[modes.default]\n[modes.brief]\n"
        )
    }

    /// Counted in renders, not in time: an edit of the module every agent reads renders no
    /// template again; an edit of what a template reads (a file it includes, one it would include
    /// that appears, its own text, the variables) renders it again in each mode of the agents it
    /// concerns. Each time every prompt is the one a fresh server renders.
    #[test]
    fn a_template_is_rendered_again_only_when_its_text_variables_or_loaded_files_change() {
        use crate::memo::Kind;
        let dir = tempfile::tempdir().expect("tempdir");
        templates_project(dir.path());
        let mut workspace = fresh(dir.path(), &BTreeMap::new());
        let rendered = |w: &Workspace| w.session().cache().made(Kind::TemplateRender);
        assert_eq!(rendered(&workspace), 4, "two agents in two modes");
        let edits = [
            ("shared/core.md", "Be careful, edited.\n".to_string(), 0, "a", "Be careful, edited."),
            ("shared/part.md", "Cite two sources.\n".to_string(), 4, "b", "Cite two sources."),
            ("a/extra.md", "Extra for a.\n".to_string(), 2, "a", "Extra for a."),
            (
                "a/core.md.j2",
                "You are {{ agent.name }} in {{ mode }} mode, edited.\n".to_string(),
                2,
                "a",
                "You are a in brief mode, edited.",
            ),
            ("b/ctxc.toml", templates_manifest("b", "warm"), 2, "b", "You are b, warm, in brief mode."),
        ];
        let mut open = BTreeMap::new();
        for (file, text, again, agent, shown) in edits {
            let before = rendered(&workspace);
            let path = workspace.set_text(&dir.path().join(file), Some(text.clone()));
            workspace.refresh(std::slice::from_ref(&path));
            assert_eq!(rendered(&workspace) - before, again, "{file}: templates rendered again");
            open.insert(path, text);
            let again = fresh(dir.path(), &open);
            for name in ["a", "b"] {
                for mode in ["default", "brief"] {
                    let manifest = dir.path().join(name).join("ctxc.toml");
                    let (edited, fresh) = (workspace.render(&manifest, Some(mode), None), again.render(&manifest, Some(mode), None));
                    assert_eq!(edited, fresh, "{file}: {name} in {mode}");
                }
            }
            let prompt = workspace.render(&dir.path().join(agent).join("ctxc.toml"), Some("brief"), None).expect("renders").text;
            assert!(prompt.contains(shown), "{file}: `{shown}` not in {agent}'s prompt:\n{prompt}");
        }
    }

    /// Counted in values held, not in bytes or time: twice the edits leave the cache as it was,
    /// holding no more than a fresh server on the same texts (which also holds what a hit of an
    /// outer value, a tool list's cost, spared the edited server from using again).
    #[test]
    fn the_cache_holds_what_the_current_texts_need_however_many_edits() {
        let dir = tempfile::tempdir().expect("tempdir");
        shared_project(dir.path());
        let mut workspace = Workspace::new(dir.path(), Options::default(), Vec::new());
        workspace.refresh_all();
        let mut held = Vec::new();
        for i in 1..=24 {
            edit(&mut workspace, dir.path(), i);
            if i == 12 || i == 24 {
                held.push(workspace.cached());
            }
        }
        assert_eq!(held[0], held[1], "12 more edits of the same files hold no more");
        assert!(held[1] <= fresh(dir.path(), &workspace.open).cached(), "{held:?}: more than a fresh server on the edited texts holds");
    }
}
