//! What `ctxc watch` needs: the files of a project polled by modification time and size
//! (bounded: inside the root, no links followed, `target/`, `.git/` and `node_modules/` left
//! out), and what changed between two runs of check and cost: findings added and fixed, and
//! each mode's tokens.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::Workspace;
use crate::diagnostic::Severity;

/// Files watched at most: a project far bigger than any agent's is a mistake (a data folder).
pub const MOST_FILES: usize = 100_000;

/// Folders never watched.
const SKIPPED: [&str; 3] = ["target", ".git", "node_modules"];

/// The files under a root with their modification time and size.
pub struct Poller {
    root: PathBuf,
    seen: BTreeMap<PathBuf, (Option<SystemTime>, u64)>,
}

impl Poller {
    pub fn new(root: &Path) -> Self {
        let mut poller = Poller { root: root.to_path_buf(), seen: BTreeMap::new() };
        poller.seen = poller.scan();
        poller
    }

    fn scan(&self) -> BTreeMap<PathBuf, (Option<SystemTime>, u64)> {
        walkdir::WalkDir::new(&self.root)
            .follow_links(false)
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !SKIPPED.iter().any(|s| e.file_name() == *s))
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .take(MOST_FILES)
            .filter_map(|e| {
                let meta = e.metadata().ok()?;
                Some((e.into_path(), (meta.modified().ok(), meta.len())))
            })
            .collect()
    }

    /// Files added, removed or modified since the last call, sorted.
    pub fn changes(&mut self) -> Vec<PathBuf> {
        let now = self.scan();
        let mut changed: BTreeSet<PathBuf> =
            now.iter().filter(|(p, stamp)| self.seen.get(*p) != Some(stamp)).map(|(p, _)| p.clone()).collect();
        changed.extend(self.seen.keys().filter(|p| !now.contains_key(*p)).cloned());
        self.seen = now;
        changed.into_iter().collect()
    }
}

/// One finding as a run reports it (its place, code and first line of message).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Seen {
    /// Relative to the root.
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub error: bool,
    pub code: Option<&'static str>,
    pub message: String,
}

/// An agent, a mode and a scenario.
pub type RunKey = (String, String, String);

/// What one run found and counted.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Run {
    pub findings: BTreeSet<Seen>,
    /// The request's fixed part (system prompt, tool schemas, framing) by agent, mode and scenario.
    pub tokens: BTreeMap<RunKey, i64>,
}

/// How one run differs from the previous.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Changes {
    pub added: Vec<Seen>,
    pub fixed: Vec<Seen>,
    /// (agent, mode, scenario), before (`None`: new), after (`None`: gone).
    pub tokens: Vec<(RunKey, Option<i64>, Option<i64>)>,
}

impl Run {
    pub fn errors(&self) -> usize {
        self.findings.iter().filter(|f| f.error).count()
    }

    pub fn changes_since(&self, before: &Run) -> Changes {
        let keys: BTreeSet<_> = before.tokens.keys().chain(self.tokens.keys()).collect();
        Changes {
            added: self.findings.difference(&before.findings).cloned().collect(),
            fixed: before.findings.difference(&self.findings).cloned().collect(),
            tokens: keys
                .into_iter()
                .map(|k| (k.clone(), before.tokens.get(k).copied(), self.tokens.get(k).copied()))
                .filter(|(_, old, new)| old != new)
                .collect(),
        }
    }
}

impl Workspace {
    /// The findings shown now and every agent's tokens per mode and scenario.
    pub fn run_summary(&mut self) -> Run {
        let root = self.root().to_path_buf();
        let mut run = Run::default();
        for (path, findings) in &self.published {
            let file = path.strip_prefix(&root).unwrap_or(path).to_string_lossy().replace('\\', "/");
            for f in findings {
                run.findings.insert(Seen {
                    file: file.clone(),
                    line: f.range.start.line + 1,
                    column: f.range.start.character + 1,
                    error: f.severity == Severity::Error,
                    code: f.code,
                    message: f.message.lines().next().unwrap_or("").to_string(),
                });
            }
        }
        let agents: Vec<PathBuf> = self.agents().map(Path::to_path_buf).collect();
        for manifest in agents {
            let Some(costs) = self.costs(&manifest) else { continue };
            for c in &costs.costed {
                let m = &c.measured;
                run.tokens.insert((m.agent.clone(), m.mode.clone(), m.scenario.clone()), m.request.total.tokens);
            }
        }
        run
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_between_runs() {
        let seen = |code| Seen { file: "a.md".into(), line: 1, column: 1, error: true, code: Some(code), message: "m".into() };
        let key = |mode: &str| ("a".to_string(), mode.to_string(), "default".to_string());
        let before = Run { findings: [seen("TPL003")].into(), tokens: [(key("agent"), 10), (key("plan"), 5)].into() };
        let after = Run { findings: [seen("SEC001")].into(), tokens: [(key("agent"), 12), (key("plan"), 5), (key("ask"), 3)].into() };
        let changes = after.changes_since(&before);
        assert_eq!(changes.added, [seen("SEC001")]);
        assert_eq!(changes.fixed, [seen("TPL003")]);
        assert_eq!(changes.tokens, [(key("agent"), Some(10), Some(12)), (key("ask"), None, Some(3))]);
        assert_eq!(after.changes_since(&after), Changes::default());
    }

    #[test]
    fn polling_sees_new_changed_and_removed_files_but_not_target() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.md"), "a").expect("write");
        std::fs::create_dir(dir.path().join("target")).expect("mkdir");
        let mut poller = Poller::new(dir.path());
        assert_eq!(poller.changes(), Vec::<PathBuf>::new());
        std::fs::write(dir.path().join("a.md"), "longer").expect("write");
        std::fs::write(dir.path().join("b.md"), "b").expect("write");
        std::fs::write(dir.path().join("target/x"), "x").expect("write");
        assert_eq!(poller.changes(), [dir.path().join("a.md"), dir.path().join("b.md")]);
        std::fs::remove_file(dir.path().join("b.md")).expect("remove");
        assert_eq!(poller.changes(), [dir.path().join("b.md")]);
    }
}
