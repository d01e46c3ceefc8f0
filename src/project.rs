//! Confined file access. Every file an agent references is read through [`ProjectRoot`], which
//! keeps references inside the project root (no `..` escapes, no symlinks out), enforces a size
//! limit and insists on UTF-8, reading bytes verbatim (no line-ending or Unicode normalisation).

use std::cell::RefCell;
use std::fs;
use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

use crate::codes::Code;
use crate::diagnostic::{line_col, Diagnostic};
use crate::folders::{self, Listings, Next, Step};
use crate::memo::{Cache, KeyMap, SharedText};

/// Largest file ctxc reads (4 MiB): prompts, tool lists and skills are far smaller, and a bigger
/// file is almost always a mistake (a data dump or a binary).
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

#[derive(Debug, Clone)]
pub struct ProjectRoot {
    /// The manifest's directory as the user named it, used in every path ctxc prints (never made
    /// absolute). References are relative to it.
    display: PathBuf,
    /// The canonical manifest directory.
    canonical: PathBuf,
    /// The canonical project root: the manifest's directory, or an ancestor named by
    /// `[project] root`. Files are never read outside it.
    boundary: PathBuf,
    /// The manifest's directory relative to the boundary, one entry per level (empty when the
    /// manifest's directory is the root).
    prefix: Vec<String>,
    /// Directories already resolved: path as joined → path with symlinks resolved. An agent
    /// reads many files from few directories; resolving each file's whole path again would
    /// cost a system call per component.
    resolved_dirs: Arc<Mutex<KeyMap<PathBuf, PathBuf>>>,
    /// What the roots of this run share: the editor's unsaved texts, the memoized work.
    run: RunState,
}

/// What every root of one run shares: the texts that stand in for files on disk (an editor's
/// unsaved buffers) and the [`Cache`] of work memoized by content. A [`crate::Session`] holds one
/// and opens each root with it; a root opened with [`ProjectRoot::new`] gets a state of its own
/// (no unsaved texts, a new cache), so what a read sees is always the root's, never ambient.
#[derive(Debug, Clone, Default)]
pub struct RunState {
    pub overlay: UnsavedTexts,
    pub cache: Arc<Cache>,
    /// Files and folder listings kept between checks while the disk shows them unchanged, for a
    /// long-lived run (the editor); `None`: every read goes to the disk.
    pub disk: Option<Arc<DiskMemory>>,
    /// The folders a run without `disk` has read, each read once (see [`crate::folders`]).
    pub listings: Arc<Listings>,
}

/// What a long-lived run keeps of the disk between checks: the texts of files read, and the
/// listings of folders walked, so an agent checked again reads and walks only what changed. No
/// one needs to report a change: before a kept text is used in a new look
/// ([`DiskMemory::look_again`]) the file's stamp (size, times, inode) is taken again (one `lstat`), and before a
/// kept walk is used, the stamp of each folder it entered (an entry created, deleted or renamed
/// changes its folder's). Within one look each is checked once, however many agents use it.
/// Keys hold the project root the read was checked against (a file inside one root may escape
/// another).
/// The texts kept are bounded ([`DiskMemory::with_text_cap`]): past the cap, those least recently
/// used are dropped when the next look begins (read again if needed).
///
/// When someone reports every change under a folder ([`DiskMemory::trust_reports`]: an editor
/// whose file watcher the server registered), what was kept of paths under it holds without a
/// stamp until the next report ([`DiskMemory::reported_change`]); each report starts a new
/// reported generation, in which each is checked by its stamps again, once.
#[derive(Debug)]
pub struct DiskMemory {
    texts: RwLock<Slots<(PathBuf, PathBuf), SharedText>>,
    /// The bytes of the texts kept (a text kept under two paths counted twice), and the most
    /// kept from one look to the next.
    text_bytes: std::sync::atomic::AtomicUsize,
    text_cap: usize,
    found: RwLock<Walks<(PathBuf, PathBuf, String)>>,
    listed: RwLock<Walks<(PathBuf, PathBuf, usize, usize)>>,
    /// The look the run is in: what was checked in an earlier one is checked again.
    look: std::sync::atomic::AtomicU64,
    /// The folder whose every change is reported, if any ([`DiskMemory::trust_reports`]).
    watched: RwLock<Option<PathBuf>>,
    /// The reported generation: one more for each change reported under `watched`.
    reported: std::sync::atomic::AtomicU64,
    /// Files read from the disk, folders walked, and stamps taken to check what was kept,
    /// since the memory was made.
    reads: std::sync::atomic::AtomicUsize,
    walks: std::sync::atomic::AtomicUsize,
    stats: std::sync::atomic::AtomicUsize,
}

/// The bytes of kept texts past which a [`DiskMemory`] drops the least recently used: 64 times
/// the largest project file ctxc reads ([`MAX_FILE_BYTES`]), and twice what the bench's project
/// of a hundred agents reads (about 120 MiB, counted per path).
pub const DISK_TEXT_CAP: usize = 256 << 20;

impl Default for DiskMemory {
    fn default() -> Self {
        DiskMemory::with_text_cap(DISK_TEXT_CAP)
    }
}

/// What a kept value weighs against the cap: a text its bytes, a walk nothing (walks are few).
trait Weight {
    fn weight(&self) -> usize;
}

impl Weight for SharedText {
    fn weight(&self) -> usize {
        self.len()
    }
}

impl Weight for Arc<Walk> {
    fn weight(&self) -> usize {
        0
    }
}

/// Values kept, each in a slot of its own. Keyed by paths, hashed with the memos' cheap hasher
/// (no SipHash): an edit in the editor looks up every file each agent reads.
type Slots<K, T> = KeyMap<K, Arc<Mutex<Kept<T>>>>;

/// Folders walked, by root, folder and what the walk looked for.
type Walks<K> = Slots<K, Arc<Walk>>;

/// An entry a walk found: its root-relative components, whether its path is UTF-8, whether it
/// is a symlink, and where a symlink leads (root-relative).
type WalkEntry = (Vec<String>, bool, bool, Option<Vec<String>>);

/// A text or a walk kept, with the stamps that say whether it still holds, and the look in
/// which they were last found to hold. A value is made and checked with its slot locked: the
/// agents of one check needing the same file wait for one read of it.
#[derive(Debug)]
struct Kept<T> {
    value: Option<T>,
    /// What was seen of each path the value came from; `None`: not to be used again (the file
    /// or folder changed too recently to tell a later change by its stamp).
    stamps: Option<Vec<(PathBuf, Stamp)>>,
    look: u64,
    /// The reported generation in which the value was last made or found to hold, when every
    /// path it came from is under the watched folder (see [`DiskMemory::trust_reports`]).
    reported: Option<u64>,
}

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept { value: None, stamps: None, look: 0, reported: None }
    }
}

/// A folder walked: what it found, root-relative, and the folders it entered.
#[derive(Debug, Default)]
struct Walk {
    entries: Vec<WalkEntry>,
    /// The folders entered (no links), as [`ProjectRoot::find_files`] records them.
    dirs: Vec<PathBuf>,
    /// The stamp of each folder entered, taken before its entries were read.
    stamps: Vec<(PathBuf, Stamp)>,
}

fn write_lock<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn read_lock<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn count(counter: &std::sync::atomic::AtomicUsize) {
    counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// How long after a change of a file its stamp may still be taken for the stamp of a later
/// change: a file system sets times from a clock that moves in ticks (a few milliseconds; a
/// whole second, or two, on some), so a file written twice within one tick, to the same size,
/// can keep its stamp. What changed this recently when it was read is read again next time.
fn racy_window(stamp: &Stamp) -> std::time::Duration {
    let whole_seconds = stamp.modified().is_some_and(|t| t.duration_since(std::time::UNIX_EPOCH).is_ok_and(|d| d.subsec_nanos() == 0));
    std::time::Duration::from_millis(if whole_seconds { 2_500 } else { 100 })
}

/// Whether a value made from paths with these stamps, starting at `started`, can be told from a
/// later change by the stamps alone: every path was last changed well before (a change while the
/// value was made, between a folder's listing and its stamp say, is then too recent).
fn settled(stamps: &[(PathBuf, Stamp)], started: std::time::SystemTime) -> bool {
    stamps.iter().all(|(_, stamp)| match stamp.0 {
        // Nothing there: whatever is created later has a stamp.
        None => true,
        Some(_) => {
            let latest = [stamp.modified(), stamp.status_changed()].into_iter().flatten().max();
            latest.is_some_and(|t| started.duration_since(t).is_ok_and(|age| age > racy_window(stamp)))
        }
    })
}

impl DiskMemory {
    /// A memory keeping at most about `bytes` of texts from one look to the next.
    pub fn with_text_cap(bytes: usize) -> Self {
        DiskMemory {
            texts: RwLock::default(),
            text_bytes: Default::default(),
            text_cap: bytes,
            found: RwLock::default(),
            listed: RwLock::default(),
            look: Default::default(),
            watched: RwLock::default(),
            reported: Default::default(),
            reads: Default::default(),
            walks: Default::default(),
            stats: Default::default(),
        }
    }

    /// The disk may have changed since the last look: each text and walk kept is checked
    /// (once) before it is used again. Past the cap, the texts least recently used go first.
    pub fn look_again(&self) {
        self.look.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if self.text_bytes.load(std::sync::atomic::Ordering::Relaxed) > self.text_cap {
            self.drop_least_recent();
        }
    }

    /// Drops kept texts, the least recently used first (ties by path), until they fit the cap.
    fn drop_least_recent(&self) {
        let mut texts = write_lock(&self.texts);
        let mut by_use: Vec<(u64, (PathBuf, PathBuf), usize)> = texts
            .iter()
            .map(|(key, slot)| {
                let kept = slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                (kept.look, key.clone(), kept.value.as_ref().map_or(0, Weight::weight))
            })
            .collect();
        by_use.sort();
        let mut held: usize = by_use.iter().map(|(_, _, bytes)| bytes).sum();
        for (_, key, bytes) in by_use {
            if held <= self.text_cap {
                break;
            }
            texts.remove(&key);
            held -= bytes;
        }
        self.text_bytes.store(held, std::sync::atomic::Ordering::Relaxed);
    }

    /// From now on every change of a file or folder under `folder` is reported
    /// ([`DiskMemory::reported_change`]): what was kept of paths under it is used without a
    /// stamp until the next report.
    pub fn trust_reports(&self, folder: PathBuf) {
        *write_lock(&self.watched) = Some(folder);
        self.reported_change();
    }

    /// Something under the watched folder changed (or may have): what was kept is checked by
    /// its stamps again, once, before it is used.
    pub fn reported_change(&self) {
        self.reported.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether every change of these paths is reported.
    fn covers(&self, stamps: &[(PathBuf, Stamp)]) -> bool {
        read_lock(&self.watched).as_ref().is_some_and(|folder| stamps.iter().all(|(path, _)| path.starts_with(folder)))
    }

    /// The reported generation, when every change under `boundary` (a project root) is
    /// reported: whatever is read below it is the same until this number changes.
    pub fn reported_generation(&self, boundary: &Path) -> Option<u64> {
        read_lock(&self.watched).as_ref().filter(|folder| boundary.starts_with(folder))?;
        Some(self.reported.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// How many texts are kept, and their bytes.
    pub fn texts_kept(&self) -> (usize, usize) {
        (read_lock(&self.texts).len(), self.text_bytes.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Forgets everything kept.
    pub fn clear(&self) {
        write_lock(&self.texts).clear();
        self.text_bytes.store(0, std::sync::atomic::Ordering::Relaxed);
        write_lock(&self.found).clear();
        write_lock(&self.listed).clear();
        self.look_again();
        self.reported_change();
    }

    /// How many files were read from the disk, folders walked, and stamps taken to check what
    /// was kept, since the memory was made.
    pub fn work(&self) -> (usize, usize, usize) {
        let load = |c: &std::sync::atomic::AtomicUsize| c.load(std::sync::atomic::Ordering::Relaxed);
        (load(&self.reads), load(&self.walks), load(&self.stats))
    }

    /// The value kept under `key` in `map` if its stamps still hold (checked once a look), or
    /// the one `make` makes now (with its stamps, which `Err` lacks), kept in its place.
    fn kept<K: std::hash::Hash + Eq, T: Clone + Weight, E>(
        &self,
        map: &RwLock<Slots<K, T>>,
        key: K,
        make: impl FnOnce() -> Result<(T, Vec<(PathBuf, Stamp)>), E>,
    ) -> Result<T, E> {
        let slot = read_lock(map).get(&key).cloned();
        let slot = slot.unwrap_or_else(|| write_lock(map).entry(key).or_default().clone());
        let mut kept = slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let look = self.look.load(std::sync::atomic::Ordering::Relaxed);
        let reported = self.reported.load(std::sync::atomic::Ordering::Relaxed);
        if let Some(value) = kept.value.clone() {
            let trusted = kept.reported == Some(reported);
            let holds = kept.look == look
                || trusted
                || kept.stamps.as_ref().is_some_and(|stamps| {
                    stamps.iter().all(|(path, stamp)| {
                        count(&self.stats);
                        Stamp::of_entry(path) == *stamp
                    })
                });
            if holds {
                if !trusted && kept.look != look {
                    // Found to hold by its stamps: the same until the next report, when watched.
                    kept.reported = kept.stamps.as_deref().filter(|stamps| self.covers(stamps)).map(|_| reported);
                }
                kept.look = look;
                return Ok(value);
            }
        }
        let started = std::time::SystemTime::now();
        let (value, stamps) = make()?;
        kept.reported = self.covers(&stamps).then_some(reported);
        kept.stamps = settled(&stamps, started).then_some(stamps);
        let bytes = value.weight();
        if let Some(old) = kept.value.replace(value.clone()) {
            self.text_bytes.fetch_sub(old.weight(), std::sync::atomic::Ordering::Relaxed);
        }
        self.text_bytes.fetch_add(bytes, std::sync::atomic::Ordering::Relaxed);
        kept.look = look;
        Ok(value)
    }
}

/// What tells a file or folder on disk from the one seen before, without reading it: its size,
/// time of modification and (on Unix) inode and time of status change, which no program can set
/// back (`cp -p` or `touch -r` can set the modification time); `None` when it cannot be seen
/// (missing). A file created, replaced or rewritten changes it, and so does a folder with an
/// entry created, deleted or renamed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stamp(Option<(u64, Option<std::time::SystemTime>, u64, StatusChange)>);

/// The time of a file's last status change, in seconds and nanoseconds (Unix `ctime`).
type StatusChange = (i64, i64);

impl Stamp {
    /// The stamp of the file at `path`, links followed.
    pub(crate) fn of(path: &Path) -> Stamp {
        Stamp::from(fs::metadata(path).ok())
    }

    /// The stamp of the entry at `path` itself (a link's own, not its target's).
    fn of_entry(path: &Path) -> Stamp {
        Stamp::from(fs::symlink_metadata(path).ok())
    }

    fn from(meta: Option<fs::Metadata>) -> Stamp {
        Stamp(meta.map(|meta| {
            #[cfg(unix)]
            let (inode, changed) = {
                use std::os::unix::fs::MetadataExt;
                (meta.ino(), (meta.ctime(), meta.ctime_nsec()))
            };
            #[cfg(not(unix))]
            let (inode, changed) = (0, (0, 0));
            (meta.len(), meta.modified().ok(), inode, changed)
        }))
    }

    fn modified(&self) -> Option<std::time::SystemTime> {
        self.0.as_ref().and_then(|s| s.1)
    }

    fn status_changed(&self) -> Option<std::time::SystemTime> {
        let (seconds, nanos) = self.0.as_ref()?.3;
        let since = std::time::Duration::new(u64::try_from(seconds).ok()?, u32::try_from(nanos).ok()?);
        match cfg!(unix) {
            true => std::time::UNIX_EPOCH.checked_add(since),
            // No time of status change: the time of modification stands for it.
            false => self.modified(),
        }
    }
}

/// Texts that stand in for files on disk (an editor's unsaved buffers), by canonical path. A
/// [`crate::Session`] holds one and every root it opens reads through it: a root made without it
/// reads the disk, visibly, since it was never given one.
#[derive(Debug, Clone, Default)]
pub struct UnsavedTexts(Arc<RwLock<KeyMap<PathBuf, SharedText>>>);

impl UnsavedTexts {
    /// Makes `text` stand in for the file at `path` (canonical), or (`None`) the file on disk
    /// count again.
    pub fn set(&self, path: PathBuf, text: Option<SharedText>) {
        let mut texts = self.0.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        match text {
            Some(text) => texts.insert(path, text),
            None => texts.remove(&path),
        };
    }

    fn get(&self, path: &Path) -> Option<SharedText> {
        self.0.read().unwrap_or_else(|poisoned| poisoned.into_inner()).get(path).cloned()
    }

    fn is_empty(&self) -> bool {
        self.0.read().unwrap_or_else(|poisoned| poisoned.into_inner()).is_empty()
    }
}

/// A file read from the project: its path relative to the root (with `/` separators), the path
/// to show to users, and its text.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub rel: String,
    pub display: String,
    pub text: SharedText,
}

/// Why a reference could not be read. The caller attaches the span of the reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    Escapes(String),
    Missing(String),
    NotAFile(String),
    TooLarge {
        path: String,
        bytes: u64,
    },
    Unreadable {
        path: String,
        reason: String,
    },
    NotUtf8 {
        path: String,
        line: usize,
        column: usize,
    },
    /// A file found by a walk whose path holds a name that is not UTF-8 (shown with `�`): it
    /// could never be named in a manifest, a prompt or a report.
    NameNotUtf8(String),
}

impl ReadError {
    pub fn message(&self) -> String {
        match self {
            ReadError::Escapes(p) => format!("`{p}` points outside the project root"),
            ReadError::Missing(p) => format!("file `{p}` does not exist"),
            ReadError::NotAFile(p) => format!("`{p}` is not a regular file"),
            ReadError::TooLarge { path, bytes } => {
                format!("`{path}` is {bytes} bytes, over the {MAX_FILE_BYTES}-byte limit for files ctxc reads")
            }
            ReadError::Unreadable { path, reason } => format!("cannot read `{path}`: {reason}"),
            ReadError::NotUtf8 { path, line, column } => {
                format!("`{path}` is not valid UTF-8 (first bad byte at line {line}, column {column})")
            }
            ReadError::NameNotUtf8(p) => format!("the path of `{p}` is not valid UTF-8 (shown with `\u{FFFD}`)"),
        }
    }

    pub fn help(&self) -> Option<&'static str> {
        match self {
            ReadError::Escapes(_) => Some("references are relative to the directory holding the manifest and must stay inside it"),
            ReadError::NameNotUtf8(_) => Some("rename the folder or file so that its name is UTF-8"),
            _ => None,
        }
    }

    /// The rule code: MAN003 for a reference that leaves the project, MAN002 otherwise.
    pub fn code(&self) -> Code {
        match self {
            ReadError::Escapes(_) => Code::MAN003,
            _ => Code::MAN002,
        }
    }

    pub fn into_diagnostic(self) -> Diagnostic {
        let mut d = Diagnostic::error(self.message()).code(self.code());
        if let Some(help) = self.help() {
            d = d.help(help);
        }
        d
    }
}

/// Why `[project] root` cannot be the project root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootError {
    /// Not `.` or `..` steps.
    NotAncestor(String),
    /// Above the highest root allowed, `highest` (written from the manifest's directory), which
    /// is `limit` (or its child when `limit` is the file system root).
    OutsideRepository { ancestor: String, highest: String, limit: &'static str },
}

impl RootError {
    pub fn message(&self) -> String {
        match self {
            RootError::NotAncestor(ancestor) => {
                format!("`{ancestor}` is not an ancestor of the manifest's directory: write `.` or `..` steps such as `../..`")
            }
            RootError::OutsideRepository { ancestor, highest, limit } => {
                format!("`{ancestor}` climbs out of the project: the highest root allowed here is `{highest}` ({limit})")
            }
        }
    }

    pub fn label(&self) -> &'static str {
        match self {
            RootError::NotAncestor(_) => "not an ancestor",
            RootError::OutsideRepository { .. } => "outside the repository",
        }
    }

    pub fn help(&self) -> &'static str {
        match self {
            RootError::NotAncestor(_) => "the project root is the manifest's directory or one of its parents, e.g. `root = \"../..\"`",
            RootError::OutsideRepository { .. } => {
                "the project root is the manifest's directory or a parent inside its repository: the top of the git work tree holding the manifest (the nearest folder above it with a `.git`), or, outside git, the folder ctxc was started in; never the file system root"
            }
        }
    }

    /// MAN003 for a root that leaves the repository, like any reference that leaves the project.
    pub fn code(&self) -> Option<Code> {
        match self {
            RootError::NotAncestor(_) => None,
            RootError::OutsideRepository { .. } => Some(Code::MAN003),
        }
    }
}

/// Whether `dir` is the top of a git work tree: it holds a `.git` folder or file (a worktree or
/// submodule), found without running git.
fn is_repository_top(dir: &Path) -> bool {
    fs::symlink_metadata(dir.join(".git")).is_ok()
}

/// The highest folder a project root above `dir` (canonical) may be, and what it is: the top of
/// the git work tree holding `dir` (the nearest folder with a `.git` folder or file, found
/// without running git), else the folder ctxc was started in when it holds `dir`, else `dir`.
pub fn highest_root(dir: &Path) -> (PathBuf, &'static str) {
    if let Some(top) = dir.ancestors().find(|a| is_repository_top(a)) {
        return (top.to_path_buf(), "the top of the git work tree holding the manifest");
    }
    match std::env::current_dir().and_then(fs::canonicalize) {
        Ok(cwd) if dir.starts_with(&cwd) => (cwd, "the folder ctxc was started in, as there is no git work tree"),
        _ => (dir.to_path_buf(), "the manifest's directory, as it is neither in a git work tree nor below the folder ctxc was started in"),
    }
}

/// How many levels a root above `dir` may climb to stay at or below `limit` (an ancestor of
/// `dir`), never reaching the file system root.
fn levels_below(dir: &Path, limit: &Path) -> usize {
    let levels = dir.components().count().saturating_sub(limit.components().count());
    match limit.parent() {
        Some(_) => levels,
        None => levels.saturating_sub(1),
    }
}

/// Checks where PATH, a path named on the command line, leads. It is located lexically (made
/// absolute from the folder ctxc was started in, `..` removed, no link resolved), and then:
///
/// - in a repository (its nearest folder holding a `.git`, found by `repository_of`), PATH must
///   resolve inside that repository's top;
/// - outside any repository, PATH must resolve inside the folder ctxc was started in when it is
///   written below it, and otherwise must not pass through a link at all.
///
/// So a link committed to a repository (`agent -> ../../elsewhere`) never leads a command out of
/// it. A PATH that cannot be resolved passes: reading it reports why.
pub fn check_path_argument(path: &Path) -> Result<(), Diagnostic> {
    let Ok(resolved) = fs::canonicalize(path) else { return Ok(()) };
    // Without a starting folder (it was removed), only an absolute PATH resolved above.
    let start = std::env::current_dir().unwrap_or_default();
    let lexical = lexical_path(&start, path);
    let outside = |place: String| {
        Diagnostic::error(format!("`{}` points outside {place}: it resolves to `{}`", path.display(), resolved.display())).help(
            "a path on the command line may be a symbolic link, or pass through one, only to a place inside the repository holding it (the nearest folder above it with a `.git`); outside git, inside the folder ctxc was started in",
        )
    };
    if let Some(top) = repository_of(&lexical) {
        return match fs::canonicalize(top) {
            Ok(canonical_top) if resolved.starts_with(&canonical_top) => Ok(()),
            _ => Err(outside(format!("the repository `{}`", top.display()))),
        };
    }
    if !start.as_os_str().is_empty() && lexical.starts_with(&start) {
        return match fs::canonicalize(&start) {
            Ok(canonical_start) if resolved.starts_with(&canonical_start) => Ok(()),
            _ => Err(outside(format!("the folder ctxc was started in (`{}`), as there is no repository", start.display()))),
        };
    }
    match resolved == lexical {
        true => Ok(()),
        false => Err(outside("any repository and the folder ctxc was started in, through a symbolic link".to_string())),
    }
}

/// How many folders above PATH (a folder named on the command line) a search for its enclosing
/// agent may look: up to the top of the repository holding it, or, outside any repository, up to
/// the folder ctxc was started in (none when PATH is not below it). The same bounds as
/// [`check_path_argument`], so that walking up never reads outside the project.
pub fn levels_up_within_project(path: &Path) -> usize {
    let start = std::env::current_dir().unwrap_or_default();
    let lexical = lexical_path(&start, path);
    let top = match repository_of(&lexical) {
        Some(top) => top.to_path_buf(),
        None if !start.as_os_str().is_empty() && lexical.starts_with(&start) => start,
        None => return 0,
    };
    lexical.components().count().saturating_sub(top.components().count())
}

/// `path` made absolute from `start` with `.` and `..` removed by the names alone (a `..` after a
/// link goes back up the link's name, not its target's parent).
fn lexical_path(start: &Path, path: &Path) -> PathBuf {
    let mut lexical = PathBuf::new();
    for component in start.join(path).components() {
        match component {
            Component::ParentDir => {
                lexical.pop();
            }
            Component::CurDir => {}
            other => lexical.push(other),
        }
    }
    lexical
}

/// The top of the repository holding `lexical` (absolute, links unresolved): the nearest of its
/// ancestors, itself included, holding a `.git`. A top reached through a link that lies inside an
/// outer repository does not count (a link committed to that repository, such as `agent` leading
/// to another checkout on the machine): the outer repository holds the path.
fn repository_of(lexical: &Path) -> Option<&Path> {
    let is_link = |dir: &Path| fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink());
    let mut found: Option<&Path> = None;
    // Whether a link lies between `found` (included) and the ancestor looked at.
    let mut through_link = false;
    for dir in lexical.ancestors() {
        let top = is_repository_top(dir);
        match found {
            Some(_) if top && !through_link => break,
            _ if top => {
                found = Some(dir);
                through_link = is_link(dir);
            }
            Some(_) => through_link |= is_link(dir),
            None => {}
        }
    }
    found
}

impl ProjectRoot {
    /// The project of the manifest directory `display`, read from disk, with a cache of its own.
    pub fn new(display: impl Into<PathBuf>) -> Result<Self, ReadError> {
        Self::in_run(display, RunState::default())
    }

    /// The project of the manifest directory `display` in a run: `run`'s unsaved texts stand in
    /// for files on disk, and what is memoized goes to `run`'s cache.
    pub fn in_run(display: impl Into<PathBuf>, run: RunState) -> Result<Self, ReadError> {
        let display = display.into();
        let canonical =
            fs::canonicalize(&display).map_err(|e| ReadError::Unreadable { path: display.display().to_string(), reason: e.to_string() })?;
        Ok(ProjectRoot { display, boundary: canonical.clone(), canonical, prefix: Vec::new(), resolved_dirs: Arc::default(), run })
    }

    /// The same manifest directory with the project root moved up to an ancestor: `ancestor` is
    /// `.` or `..` steps only (e.g. `../..`), relative to the manifest's directory, and may not
    /// climb above the highest root allowed (the repository's top, or the start directory).
    pub fn with_root(&self, ancestor: &str) -> Result<ProjectRoot, RootError> {
        let mut levels = 0;
        for component in Path::new(ancestor).components() {
            match component {
                Component::ParentDir => levels += 1,
                Component::CurDir => {}
                _ => return Err(RootError::NotAncestor(ancestor.to_string())),
            }
        }
        let (limit, what) = highest_root(&self.canonical);
        let allowed = levels_below(&self.canonical, &limit);
        let boundary = match self.canonical.ancestors().nth(levels) {
            Some(boundary) if levels <= allowed => boundary,
            _ => {
                let highest = if allowed == 0 { ".".to_string() } else { vec![".."; allowed].join("/") };
                return Err(RootError::OutsideRepository { ancestor: ancestor.to_string(), highest, limit: what });
            }
        };
        let prefix =
            self.canonical.components().skip(boundary.components().count()).map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        Ok(ProjectRoot { boundary: boundary.to_path_buf(), prefix, ..self.clone() })
    }

    /// How many levels the project root is above the manifest's directory.
    pub fn depth(&self) -> usize {
        self.prefix.len()
    }

    /// Directories from the project root down to the manifest's directory, as references
    /// relative to the manifest's directory (`../..`, `..`, `.`).
    pub fn dirs_from_root(&self) -> Vec<String> {
        (0..=self.prefix.len()).rev().map(|up| if up == 0 { ".".to_string() } else { vec![".."; up].join("/") }).collect()
    }

    pub fn display_path(&self, rel: &str) -> String {
        if self.display.as_os_str().is_empty() || self.display == Path::new(".") {
            return rel.to_string();
        }
        let shown = self.display.display().to_string();
        let shown = shown.trim_end_matches('/');
        // Most paths take no `../` step: the folder's display path, joined.
        if !rel.starts_with("../") {
            return format!("{shown}/{rel}");
        }
        let mut parts: Vec<&str> = shown.split('/').collect();
        let mut rest = rel;
        // `../` steps of references above the manifest's directory eat display components
        // where they can, so `agents/x` + `../../ZEPH.md` shows as `ZEPH.md`. Not a symbolic
        // link: `link/..` is the folder above the link's target, which the path keeps naming.
        while let Some(tail) = rest.strip_prefix("../") {
            match parts.last().copied() {
                Some("..") | Some(".") | None => break,
                Some(_) if fs::symlink_metadata(parts.join("/")).is_ok_and(|m| m.file_type().is_symlink()) => break,
                Some(_) => {
                    parts.pop();
                    rest = tail;
                }
            }
        }
        if parts.is_empty() {
            rest.to_string()
        } else {
            format!("{}/{}", parts.join("/"), rest)
        }
    }

    pub fn display(&self) -> &Path {
        &self.display
    }

    /// The canonical root (only for comparing paths; never shown).
    pub fn canonical(&self) -> &Path {
        &self.canonical
    }

    /// Normalises a reference to a path relative to the manifest's directory with `/`
    /// separators, refusing absolute paths and `..` that climbs above the project root. Paths
    /// above the manifest's directory (only with `[project] root`) start with `../`.
    pub fn normalize(&self, reference: &str) -> Result<String, ReadError> {
        // Work in root-relative components, then express the result from the manifest's directory.
        let mut parts: Vec<String> = self.prefix.clone();
        for component in Path::new(reference).components() {
            match component {
                Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
                Component::CurDir => {}
                Component::ParentDir => {
                    if parts.pop().is_none() {
                        return Err(ReadError::Escapes(reference.to_string()));
                    }
                }
                Component::RootDir | Component::Prefix(_) => return Err(ReadError::Escapes(reference.to_string())),
            }
        }
        Ok(self.relative_to_manifest_dir(&parts))
    }

    /// A root-relative path (as components) written relative to the manifest's directory.
    fn relative_to_manifest_dir(&self, parts: &[String]) -> String {
        let common = self.prefix.iter().zip(parts).take_while(|(a, b)| a == b).count();
        let mut rel: Vec<&str> = vec![".."; self.prefix.len() - common];
        rel.extend(parts[common..].iter().map(String::as_str));
        rel.join("/")
    }

    /// Resolves a path relative to the manifest's directory on disk, following symlinks, and
    /// checks it stays inside the project root.
    pub fn resolve(&self, rel: &str) -> Result<PathBuf, ReadError> {
        let error = |e| io_error(rel, e);
        let path = Path::new(rel);
        let resolved = match (path.parent(), path.file_name()) {
            (Some(parent), Some(name)) => {
                let joined = self.resolve_dir(parent).map_err(error)?.join(name);
                match self.file_type(&joined).map_err(error)?.is_symlink() {
                    true => fs::canonicalize(&joined).map_err(error)?,
                    false => joined,
                }
            }
            // `.` or `..` steps only: a directory.
            _ => self.resolve_dir(path).map_err(error)?,
        };
        match resolved.starts_with(&self.boundary) {
            true => Ok(resolved),
            false => Err(ReadError::Escapes(rel.to_string())),
        }
    }

    /// Where a file found by a walk of the manifest's directory that followed no link (`rel`, below
    /// that directory) is, links resolved: the walk entered only folders that are no links, so
    /// the canonical directory joined with `rel` is the path [`ProjectRoot::resolve`] finds,
    /// without a lookup per folder and file.
    pub fn walked(&self, rel: &str) -> PathBuf {
        self.canonical.join(rel)
    }

    /// A directory relative to the manifest's directory with every symlink on the way resolved,
    /// one component at a time, reusing the directories resolved before.
    fn resolve_dir(&self, rel: &Path) -> std::io::Result<PathBuf> {
        let mut known = self.resolved_dirs.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut path = self.canonical.clone();
        for component in rel.components() {
            match component {
                Component::CurDir => {}
                Component::ParentDir => {
                    path.pop();
                }
                Component::Normal(name) => {
                    path.push(name);
                    if let Some(resolved) = known.get(&path) {
                        path = resolved.clone();
                        continue;
                    }
                    let resolved = match self.file_type(&path)?.is_symlink() {
                        true => fs::canonicalize(&path)?,
                        false => path.clone(),
                    };
                    known.insert(std::mem::replace(&mut path, resolved.clone()), resolved);
                }
                Component::RootDir | Component::Prefix(_) => {
                    return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a relative path"));
                }
            }
        }
        Ok(path)
    }

    /// The type of the entry at `path` (its folder's links resolved) without following a final
    /// link: from the listing of its folder when this run read it, else from the disk.
    fn file_type(&self, path: &Path) -> std::io::Result<fs::FileType> {
        match self.listings().and_then(|listings| listings.file_type(path)) {
            Some(listed) => listed,
            None => fs::symlink_metadata(path).map(|m| m.file_type()),
        }
    }

    /// The folders this run has read, each read once: in a run that keeps no disk memory (a
    /// long-lived one keeps walks with the stamps that tell when they no longer hold).
    pub fn listings(&self) -> Option<&Listings> {
        match self.run.disk {
            None => Some(&self.run.listings),
            Some(_) => None,
        }
    }

    /// Opens a file relative to the manifest's directory, following a symlink only when it
    /// leads to a place inside the project root. Returns the file and what it is.
    fn open(&self, rel: &str) -> Result<(fs::File, fs::Metadata), ReadError> {
        let error = |e| io_error(rel, e);
        let path = Path::new(rel);
        let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
            // `.` or `..` steps only: a directory.
            return Err(self.resolve(rel).err().unwrap_or_else(|| ReadError::NotAFile(rel.to_string())));
        };
        let dir = self.resolve_dir(parent).map_err(error)?;
        if !dir.starts_with(&self.boundary) {
            return Err(ReadError::Escapes(rel.to_string()));
        }
        let joined = dir.join(name);
        // Opening without following a final symlink spares a path lookup per file; a symlink
        // (a failure to open it so) is resolved and checked first.
        let file = match open_no_follow(&joined) {
            Ok(file) => file,
            Err(e) if fs::symlink_metadata(&joined).is_ok_and(|m| m.file_type().is_symlink()) => {
                let target = fs::canonicalize(&joined).map_err(error)?;
                if !target.starts_with(&self.boundary) {
                    return Err(ReadError::Escapes(rel.to_string()));
                }
                open_no_follow(&target).map_err(|_| error(e))?
            }
            Err(e) => return Err(error(e)),
        };
        let meta = file.metadata().map_err(error)?;
        Ok((file, meta))
    }

    /// Reads a file referenced from the manifest (or found by a walk) verbatim.
    pub fn read(&self, reference: &str) -> Result<SourceFile, ReadError> {
        let rel = self.normalize(reference)?;
        // The file's folder with its links resolved, looked up once for the overlay and the disk's memory.
        let path = Path::new(&rel);
        let dir = match (path.parent(), path.file_name()) {
            (Some(parent), Some(_)) if self.run.disk.is_some() || !self.run.overlay.is_empty() => self.resolve_dir(parent).ok(),
            _ => None,
        };
        if let Some(text) = self.overlaid(&rel, dir.as_deref())? {
            return Ok(SourceFile { display: self.display_path(&rel), rel, text });
        }
        let key = self.run.disk.as_ref().and_then(|disk| Some((disk, self.kept_key(&rel, dir.as_deref()?)?)));
        let text = match key {
            Some((disk, key)) => {
                let path = key.1.clone();
                disk.kept(&disk.texts, key, || {
                    let (text, stamp) = self.read_disk(&rel)?;
                    count(&disk.reads);
                    Ok((text, vec![(path, stamp)]))
                })?
            }
            None => self.read_disk(&rel)?.0,
        };
        Ok(SourceFile { display: self.display_path(&rel), rel, text })
    }

    /// Reads a file from the disk, with the stamp it had when opened (a link's stamp is its
    /// target's: never the link's own, so a text read through a link is read again each look).
    fn read_disk(&self, rel: &str) -> Result<(SharedText, Stamp), ReadError> {
        // Each thread reads into one buffer it keeps: most files a project's agents read have
        // contents already held (see `SharedText`), so no new text is allocated for them.
        thread_local!(static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) });
        let rel = rel.to_string();
        let (file, meta) = self.open(&rel)?;
        if !meta.is_file() {
            return Err(ReadError::NotAFile(rel));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(ReadError::TooLarge { path: rel, bytes: meta.len() });
        }
        let unreadable = |e: std::io::Error| ReadError::Unreadable { path: rel.clone(), reason: e.to_string() };
        let text = BUFFER.with_borrow_mut(|bytes| {
            bytes.clear();
            bytes.reserve(meta.len() as usize);
            // The file as it was when its size was taken: what it has up to that size.
            file.take(meta.len()).read_to_end(bytes).map_err(unreadable)?;
            SharedText::from_bytes(bytes).map_err(|e| {
                let prefix = String::from_utf8_lossy(&bytes[..e.valid_up_to()]).into_owned();
                let (line, column) = line_col(&prefix, prefix.len());
                ReadError::NotUtf8 { path: rel.clone(), line, column }
            })
        })?;
        Ok((text, Stamp::from(Some(meta))))
    }

    /// The key of a file in the run's [`DiskMemory`]: the root, and the file's path with its
    /// folder's links resolved (`dir`, inside the root), as [`ProjectRoot::open`] finds it.
    fn kept_key(&self, rel: &str, dir: &Path) -> Option<(PathBuf, PathBuf)> {
        let name = Path::new(rel).file_name()?;
        dir.starts_with(&self.boundary).then(|| (self.boundary.clone(), dir.join(name)))
    }

    /// The cache of the run this root belongs to (see [`RunState`]).
    pub fn cache(&self) -> &Arc<Cache> {
        &self.run.cache
    }

    /// The run's reported generation of the disk under this root, when every change there is
    /// reported ([`DiskMemory::trust_reports`]): what is read of the disk below the root is the same
    /// while it is. `None`: the disk may change unseen (a one-shot run, an editor without a watcher).
    pub fn reported_generation(&self) -> Option<u64> {
        self.run.disk.as_ref()?.reported_generation(&self.boundary)
    }

    /// Where a referenced file is on disk, checked as [`ProjectRoot::read`] checks it (inside the
    /// root, a regular file, at most `limit` bytes) without reading it: for files read whole
    /// later, once per run (a tokenizer file). The path has every link resolved.
    pub fn locate(&self, reference: &str, limit: u64) -> Result<PathBuf, ReadError> {
        let rel = self.normalize(reference)?;
        let (_, meta) = self.open(&rel)?;
        if !meta.is_file() {
            return Err(ReadError::NotAFile(rel));
        }
        if meta.len() > limit {
            return Err(over_limit(&rel, meta.len(), limit));
        }
        self.resolve(&rel)
    }

    /// The run's stand-in text for a file (see [`UnsavedTexts`]), found by the file's canonical path
    /// (its folder `dir`, links resolved) once that folder is known to be inside the project root.
    fn overlaid(&self, rel: &str, dir: Option<&Path>) -> Result<Option<SharedText>, ReadError> {
        if self.run.overlay.is_empty() {
            return Ok(None);
        }
        let (Some(dir), Some(name)) = (dir, Path::new(rel).file_name()) else { return Ok(None) };
        if !dir.starts_with(&self.boundary) {
            return Err(ReadError::Escapes(rel.to_string()));
        }
        match self.run.overlay.get(&dir.join(name)) {
            Some(text) if text.len() as u64 > MAX_FILE_BYTES => {
                Err(ReadError::TooLarge { path: rel.to_string(), bytes: text.len() as u64 })
            }
            found => Ok(found),
        }
    }

    /// Reads a file named by a path (absolute, or relative to the current folder) under the rules
    /// of [`ProjectRoot::read`], when it lies inside the root once links are resolved (a path an
    /// editor or a finding names may lead anywhere: `/dev/zero`, a link out of the project).
    pub fn read_named(&self, path: &Path) -> Result<SourceFile, ReadError> {
        let shown = path.display().to_string();
        let canonical = fs::canonicalize(path).map_err(|e| io_error(&shown, e))?;
        let inside = canonical.strip_prefix(&self.boundary).map_err(|_| ReadError::Escapes(shown))?;
        let parts: Vec<String> = inside.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        self.read(&self.relative_to_manifest_dir(&parts))
    }

    /// Reads a file named on the command line (or found in a folder named there) under the rules
    /// of [`ProjectRoot::read`], its own folder being the project: a symlink is followed only to
    /// a file in that folder or below it.
    pub fn read_path(path: &Path) -> Result<SourceFile, ReadError> {
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = path.file_name().ok_or_else(|| ReadError::NotAFile(path.display().to_string()))?;
        ProjectRoot::new(dir)?.read(&name.to_string_lossy())
    }

    /// Lists the files named `file_name` under a root-relative directory, sorted, never following
    /// a symlink out of the root: each as a path relative to the manifest's directory, or
    /// [`ReadError::NameNotUtf8`] when a name on its path is not UTF-8.
    pub fn find_files(&self, dir: &str, file_name: &str) -> Result<Vec<Result<String, ReadError>>, ReadError> {
        let rel_dir = self.normalize(dir)?;
        let abs_dir = self.resolve(&rel_dir)?;
        let key = (self.boundary.clone(), abs_dir.clone(), file_name.to_string());
        // Stamps only tell a kept walk from the disk: a run that keeps none (a one-shot command)
        // takes none, which saves a lookup per folder walked.
        let stamped = self.run.disk.is_some();
        let walk = self.walk(self.run.disk.as_ref().map(|d| (d, &d.found)), key, || {
            // Each folder's stamp is taken before its entries are read.
            let mut walk = Walk::default();
            if stamped {
                walk.stamps.push((abs_dir.clone(), Stamp::of_entry(&abs_dir)));
            }
            let _ = folders::walk(self.listings(), &abs_dir, &abs_dir, usize::MAX, &mut |step| {
                let Step::Entry { path, name, depth, file_type } = step else { return Next::Enter };
                if file_type.is_dir() {
                    walk.dirs.push(path.to_path_buf());
                    if stamped && depth > 0 {
                        walk.stamps.push((path.to_path_buf(), Stamp::of_entry(path)));
                    }
                }
                if name != file_name {
                    return Next::Enter;
                }
                if let Ok(rel) = path.strip_prefix(&self.boundary) {
                    let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
                    walk.entries.push((parts, rel.to_str().is_some(), false, None));
                }
                Next::Enter
            });
            walk
        });
        // A directory the walk entered is no symlink: reading from it needs no check.
        let mut known = self.resolved_dirs.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        known.extend(walk.dirs.iter().map(|d| (d.clone(), d.clone())));
        Ok(walk
            .entries
            .iter()
            .map(|(parts, utf8, _, _)| {
                let path = self.relative_to_manifest_dir(parts);
                if *utf8 {
                    Ok(path)
                } else {
                    Err(ReadError::NameNotUtf8(path))
                }
            })
            .collect())
    }

    /// A walk kept in the run's [`DiskMemory`] under `key` while the folders it entered are
    /// unchanged, or made by `make` (and kept there).
    fn walk<K: std::hash::Hash + Eq>(
        &self,
        memory: Option<(&Arc<DiskMemory>, &RwLock<Walks<K>>)>,
        key: K,
        make: impl FnOnce() -> Walk,
    ) -> Arc<Walk> {
        let Some((disk, kept)) = memory else { return Arc::new(make()) };
        let made = disk.kept(kept, key, || {
            count(&disk.walks);
            let walk = make();
            let stamps = walk.stamps.clone();
            Ok::<_, std::convert::Infallible>((Arc::new(walk), stamps))
        });
        match made {
            Ok(walk) => walk,
            Err(never) => match never {},
        }
    }

    /// Lists the files under a directory (relative to the manifest's directory), sorted, at most
    /// `max_depth` levels down and `max_entries` entries, never entering a symlink nor `.git`,
    /// `node_modules` or `__pycache__`. A symlink is listed with where it leads when that is inside the
    /// project root. Paths are relative to the manifest's directory; names that are not UTF-8 are
    /// skipped.
    pub fn list_files(&self, dir: &str, max_depth: usize, max_entries: usize) -> Result<Vec<Listed>, ReadError> {
        let rel_dir = self.normalize(dir)?;
        let abs_dir = self.resolve(if rel_dir.is_empty() { "." } else { &rel_dir })?;
        let key = (self.boundary.clone(), abs_dir.clone(), max_depth, max_entries);
        // As in `find_files`: no stamps in a run that keeps no walk.
        let stamped = self.run.disk.is_some();
        let walk = self.walk(self.run.disk.as_ref().map(|d| (d, &d.listed)), key, || {
            let mut found = Walk::default();
            if stamped {
                found.stamps.push((abs_dir.clone(), Stamp::of_entry(&abs_dir)));
            }
            let mut taken = 0;
            let _ = folders::walk(self.listings(), &abs_dir, &abs_dir, max_depth, &mut |step| {
                let Step::Entry { path, name, depth, file_type } = step else { return Next::Enter };
                if depth > 0 && matches!(name.to_str(), Some(".git" | "node_modules" | "__pycache__")) {
                    return Next::Skip;
                }
                if file_type.is_dir() {
                    // A folder entered (its stamp taken before its entries are read).
                    if stamped && depth > 0 && depth < max_depth {
                        found.stamps.push((path.to_path_buf(), Stamp::of_entry(path)));
                    }
                    return Next::Enter;
                }
                if taken == max_entries {
                    return Next::Stop;
                }
                taken += 1;
                let Some(rel) = path.strip_prefix(&self.boundary).ok().and_then(Path::to_str) else { return Next::Enter };
                let parts: Vec<String> = rel.split(std::path::MAIN_SEPARATOR).map(str::to_string).collect();
                let symlink = file_type.is_symlink();
                let target = match symlink {
                    true => fs::canonicalize(path).ok().and_then(|t| {
                        let inside = t
                            .strip_prefix(&self.boundary)
                            .ok()?
                            .to_str()?
                            .split(std::path::MAIN_SEPARATOR)
                            .map(str::to_string)
                            .collect::<Vec<_>>();
                        Some(inside)
                    }),
                    false => None,
                };
                if symlink && stamped {
                    // Where a link leads may be created, deleted or replaced with no change to
                    // the folders walked: its target's stamp is checked too, and a link that
                    // leads nowhere is looked at again on each use.
                    match fs::canonicalize(path) {
                        Ok(to) => {
                            let stamp = Stamp::of_entry(&to);
                            found.stamps.push((to, stamp));
                        }
                        Err(_) => found.stamps.push((path.to_path_buf(), Stamp(None))),
                    }
                }
                found.entries.push((parts, true, symlink, target));
                Next::Enter
            });
            found
        });
        // No size is taken: a lookup per file listed, and reading a file checks its size.
        Ok(walk
            .entries
            .iter()
            .map(|(parts, _, symlink, target)| Listed {
                rel: self.relative_to_manifest_dir(parts),
                symlink: *symlink,
                target: target.as_ref().map(|t| self.relative_to_manifest_dir(t)),
            })
            .collect())
    }
}

/// A file found by [`ProjectRoot::list_files`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// Path relative to the manifest's directory.
    pub rel: String,
    pub symlink: bool,
    /// For a symlink: where it leads, relative to the manifest's directory, when that exists
    /// inside the project root.
    pub target: Option<String>,
}

/// Why `rel` could not be resolved or opened.
fn io_error(rel: &str, e: std::io::Error) -> ReadError {
    match e.kind() {
        // A path through a file (`README.md/x.md`) names nothing, as a missing one does.
        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory => ReadError::Missing(rel.to_string()),
        _ => ReadError::Unreadable { path: rel.to_string(), reason: e.to_string() },
    }
}

/// The bytes of a file named by `path` (shown as `shown`): opened without following a final
/// link and without blocking, a regular file of at most `limit` bytes, read as it was when its
/// size was taken.
pub fn read_bytes(path: &Path, shown: &str, limit: u64) -> Result<Vec<u8>, ReadError> {
    let file = open_no_follow(path).map_err(|e| io_error(shown, e))?;
    let meta = file.metadata().map_err(|e| io_error(shown, e))?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(shown.to_string()));
    }
    if meta.len() > limit {
        return Err(over_limit(shown, meta.len(), limit));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(meta.len()).read_to_end(&mut bytes).map_err(|e| io_error(shown, e))?;
    Ok(bytes)
}

/// A file named outside any project (on the command line, or found where a tool keeps it: a
/// Hugging Face cache links its files to blobs), its links resolved, checked as
/// [`read_bytes`] checks it: a regular file of at most `limit` bytes.
pub fn locate_path(path: &Path, shown: &str, limit: u64) -> Result<PathBuf, ReadError> {
    let resolved = fs::canonicalize(path).map_err(|e| io_error(shown, e))?;
    let meta = open_no_follow(&resolved).and_then(|file| file.metadata()).map_err(|e| io_error(shown, e))?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(shown.to_string()));
    }
    if meta.len() > limit {
        return Err(over_limit(shown, meta.len(), limit));
    }
    Ok(resolved)
}

/// The text of a file named outside any project (a model's chat template given on the command
/// line or found beside its tokenizer file), shown as `shown`: links followed (a Hugging Face
/// cache links its files), then read as [`ProjectRoot::read`] reads a file of its own folder (a
/// regular file, never a FIFO or a device, at most [`MAX_FILE_BYTES`], UTF-8).
pub fn read_outside(path: &Path, shown: &str) -> Result<SharedText, ReadError> {
    let resolved = locate_path(path, shown, MAX_FILE_BYTES)?;
    let shown_in = |e: ReadError| match e {
        ReadError::NotUtf8 { line, column, .. } => ReadError::NotUtf8 { path: shown.to_string(), line, column },
        ReadError::Missing(_) => ReadError::Missing(shown.to_string()),
        ReadError::NotAFile(_) => ReadError::NotAFile(shown.to_string()),
        other => other,
    };
    ProjectRoot::read_path(&resolved).map(|file| file.text).map_err(shown_in)
}

/// A file over a limit other than [`MAX_FILE_BYTES`].
fn over_limit(shown: &str, bytes: u64, limit: u64) -> ReadError {
    ReadError::Unreadable { path: shown.to_string(), reason: format!("{bytes} bytes, over the {limit}-byte limit for this kind of file") }
}

/// Opens a file for reading without following a symlink at the end of its path (on Unix; other
/// systems check first), and without blocking on a FIFO.
#[cfg(unix)]
pub(crate) fn open_no_follow(path: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path)
}

#[cfg(not(unix))]
pub(crate) fn open_no_follow(path: &Path) -> std::io::Result<fs::File> {
    if fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "a symbolic link"));
    }
    fs::File::open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_escapes_and_absolute_paths() {
        let root = ProjectRoot::new(".").expect("cwd exists");
        assert_eq!(root.normalize("a/./b/../c.md"), Ok("a/c.md".to_string()));
        assert!(matches!(root.normalize("../../etc/passwd"), Err(ReadError::Escapes(_))));
        assert!(matches!(root.normalize("a/../../x"), Err(ReadError::Escapes(_))));
        assert!(matches!(root.normalize("/etc/passwd"), Err(ReadError::Escapes(_))));
    }

    #[test]
    fn read_named_reads_inside_the_root_only() {
        let project = tempfile::tempdir().expect("tempdir");
        fs::create_dir(project.path().join("p")).expect("mkdir");
        fs::write(project.path().join("p/a.md"), "inside\n").expect("write");
        fs::write(project.path().join("b.md"), "outside\n").expect("write");
        let root = ProjectRoot::new(project.path().join("p")).expect("root");
        assert_eq!(&*root.read_named(&project.path().join("p/a.md")).expect("inside").text, "inside\n");
        assert!(matches!(root.read_named(&project.path().join("p/../b.md")), Err(ReadError::Escapes(_))));
        assert!(matches!(root.read_named(Path::new("/dev/zero")), Err(ReadError::Escapes(_))));
        assert!(matches!(root.read_named(&project.path().join("p/missing.md")), Err(ReadError::Missing(_))));
    }

    #[test]
    fn an_overlaid_text_stands_in_for_the_file_inside_the_root_only() {
        let project = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(project.path().join("agent")).expect("mkdir");
        std::fs::write(project.path().join("agent/core.md"), "on disk").expect("write");
        std::fs::write(project.path().join("outside.md"), "on disk").expect("write");
        let canonical = fs::canonicalize(project.path()).expect("canonical");
        let overlay = UnsavedTexts::default();
        overlay.set(canonical.join("agent/core.md"), Some(SharedText::new("unsaved")));
        overlay.set(canonical.join("agent/new.md"), Some(SharedText::new("not on disk yet")));
        overlay.set(canonical.join("outside.md"), Some(SharedText::new("unsaved")));
        let plain = ProjectRoot::new(project.path().join("agent")).expect("root");
        assert_eq!(plain.read("core.md").map(|f| f.text.to_string()), Ok("on disk".to_string()), "a root without the overlay");
        let root =
            ProjectRoot::in_run(project.path().join("agent"), RunState { overlay: overlay.clone(), ..RunState::default() }).expect("root");
        let read = |rel: &str| root.read(rel).map(|f| f.text.to_string());
        assert_eq!(read("core.md"), Ok("unsaved".to_string()));
        assert_eq!(read("./core.md"), Ok("unsaved".to_string()), "by path, however written");
        assert_eq!(read("new.md"), Ok("not on disk yet".to_string()));
        assert!(matches!(read("../outside.md"), Err(ReadError::Escapes(_))), "still confined");
        overlay.set(canonical.join("agent/core.md"), None);
        assert_eq!(read("core.md"), Ok("on disk".to_string()), "dropped: the disk again");
    }

    #[test]
    fn refuses_symlinks_out_and_bad_utf8() {
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("secret.txt"), "s").expect("write");
        let project = tempfile::tempdir().expect("tempdir");
        #[cfg(unix)]
        std::os::unix::fs::symlink(outside.path().join("secret.txt"), project.path().join("link.md")).expect("symlink");
        std::fs::write(project.path().join("bad.md"), b"ok\nab\xffcd").expect("write");
        let root = ProjectRoot::new(project.path()).expect("root");
        #[cfg(unix)]
        assert!(matches!(root.read("link.md"), Err(ReadError::Escapes(_))));
        assert_eq!(root.read("bad.md").map(|f| f.text.to_string()), Err(ReadError::NotUtf8 { path: "bad.md".into(), line: 2, column: 3 }));
        assert!(matches!(root.read("nope.md"), Err(ReadError::Missing(_))));
        // Through a file: no such path, not an unreadable one.
        assert!(matches!(root.resolve("bad.md/x.md"), Err(ReadError::Missing(_))));
        assert!(matches!(root.read("bad.md/x.md"), Err(ReadError::Missing(_))));
    }

    #[cfg(unix)]
    #[test]
    fn linked_directories_are_followed_inside_the_root_only() {
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("x.md"), "out").expect("write");
        let project = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(project.path().join("real")).expect("mkdir");
        std::fs::write(project.path().join("real/x.md"), "in").expect("write");
        std::os::unix::fs::symlink(project.path().join("real"), project.path().join("inner")).expect("symlink");
        std::os::unix::fs::symlink(outside.path(), project.path().join("outer")).expect("symlink");
        let root = ProjectRoot::new(project.path()).expect("root");
        for _ in 0..2 {
            // The second round reads through the directories resolved by the first.
            assert_eq!(root.read("inner/x.md").map(|f| f.text.to_string()), Ok("in".to_string()));
            assert!(matches!(root.read("outer/x.md"), Err(ReadError::Escapes(_))));
            assert!(root.read("outer/../real/x.md").is_ok(), "normalized before resolving");
            assert!(matches!(root.read("inner/nope.md"), Err(ReadError::Missing(_))));
            assert!(matches!(root.read("real"), Err(ReadError::NotAFile(_))));
        }
    }

    #[test]
    fn a_root_above_the_manifest_allows_parents_inside_it_only() {
        let project = tempfile::tempdir().expect("tempdir");
        let agent = project.path().join("crates/agent");
        std::fs::create_dir_all(&agent).expect("mkdir");
        std::fs::create_dir(project.path().join(".git")).expect("mkdir");
        std::fs::write(project.path().join("ZEPH.md"), "root").expect("write");
        std::fs::write(agent.join("notes.md"), "n").expect("write");
        let here = ProjectRoot::new(&agent).expect("root");
        assert!(matches!(here.read("../../ZEPH.md"), Err(ReadError::Escapes(_))), "default root is the manifest's directory");
        let root = here.with_root("../..").expect("ancestor");
        assert_eq!(root.depth(), 2);
        assert_eq!(root.dirs_from_root(), ["../..", "..", "."]);
        assert_eq!(root.read("../../ZEPH.md").map(|f| f.text.to_string()), Ok("root".to_string()));
        assert_eq!(root.normalize("../../crates/agent/notes.md"), Ok("notes.md".to_string()));
        assert_eq!(root.normalize("../x/../../ZEPH.md"), Ok("../../ZEPH.md".to_string()));
        assert!(matches!(root.normalize("../../../outside.md"), Err(ReadError::Escapes(_))));
        assert!(matches!(here.with_root("sub"), Err(RootError::NotAncestor(_))));
        assert!(matches!(here.with_root("../elsewhere"), Err(RootError::NotAncestor(_))));
        let shown = ProjectRoot { display: PathBuf::from("examples/zeph/crates/agent"), ..root.clone() };
        assert_eq!(shown.display_path("../../ZEPH.md"), "examples/zeph/ZEPH.md");
        let dotted = ProjectRoot { display: PathBuf::from("."), ..root };
        assert_eq!(dotted.display_path("../../ZEPH.md"), "../../ZEPH.md");
    }

    #[test]
    fn a_root_never_climbs_out_of_the_repository() {
        let outer = tempfile::tempdir().expect("tempdir");
        let project = outer.path().join("repo");
        let agent = project.join("a/b");
        std::fs::create_dir_all(&agent).expect("mkdir");
        // A `.git` file (a worktree or submodule) marks the top as well as a folder.
        std::fs::write(project.join(".git"), "gitdir: elsewhere\n").expect("write");
        let here = ProjectRoot::new(&agent).expect("root");
        assert_eq!(here.with_root("../..").map(|r| r.depth()), Ok(2));
        let climbed = here.with_root("../../..").expect_err("above the top");
        assert_eq!(
            climbed,
            RootError::OutsideRepository {
                ancestor: "../../..".into(),
                highest: "../..".into(),
                limit: "the top of the git work tree holding the manifest"
            }
        );
        assert_eq!(climbed.code(), Some(Code::MAN003));
        assert!(climbed.message().contains("`../..`"), "{}", climbed.message());
        let deep = format!("..{}", "/..".repeat(agent.components().count() + 3));
        assert!(matches!(here.with_root(&deep), Err(RootError::OutsideRepository { .. })), "never above `/`");
        // Outside git and outside the folder ctxc runs in (the crate, for tests): no climbing.
        std::fs::remove_file(project.join(".git")).expect("remove");
        assert!(std::env::current_dir().is_ok_and(|cwd| !agent.starts_with(cwd)));
        assert_eq!(here.with_root("..").expect_err("no repository").code(), Some(Code::MAN003));
        assert_eq!(here.with_root(".").map(|r| r.depth()), Ok(0));
        // A repository (or starting folder) at `/` still keeps `/` out.
        assert_eq!(levels_below(Path::new("/srv/app/agent"), Path::new("/")), 2);
        assert_eq!(levels_below(Path::new("/srv/app/agent"), Path::new("/srv")), 2);
        assert_eq!(levels_below(Path::new("/"), Path::new("/")), 0);
    }

    #[cfg(unix)]
    #[test]
    fn a_found_file_whose_path_is_not_utf8_is_named_so() {
        use std::os::unix::ffi::OsStrExt;
        let project = tempfile::tempdir().expect("tempdir");
        for folder in [&b"ok"[..], b"d\xffx"] {
            let dir = project.path().join("skills").join(std::ffi::OsStr::from_bytes(folder));
            std::fs::create_dir_all(&dir).expect("mkdir");
            std::fs::write(dir.join("SKILL.md"), "s").expect("write");
        }
        let root = ProjectRoot::new(project.path()).expect("root");
        let found = root.find_files("skills", "SKILL.md").expect("walk");
        assert_eq!(found, [Err(ReadError::NameNotUtf8("skills/d\u{FFFD}x/SKILL.md".into())), Ok("skills/ok/SKILL.md".into())]);
        assert!(found[0].clone().unwrap_err().message().contains("not valid UTF-8"), "not `does not exist`");
    }

    #[cfg(unix)]
    #[test]
    fn a_path_argument_never_leads_out_of_its_repository() {
        use std::os::unix::fs::symlink;
        let scratch = tempfile::tempdir().expect("tempdir");
        // Resolved, as the temporary folder may itself be reached through a link (macOS).
        let scratch_path = fs::canonicalize(scratch.path()).expect("canonical");
        let at = |p: &str| scratch_path.join(p);
        for dir in ["repo/.git", "repo/real", "elsewhere", "other/.git", "plain/real"] {
            std::fs::create_dir_all(at(dir)).expect("mkdir");
        }
        symlink(at("elsewhere"), at("repo/out")).expect("symlink");
        symlink(at("other"), at("repo/checkout")).expect("symlink");
        symlink("real", at("repo/inner")).expect("symlink");
        symlink(at("repo"), at("plain/to-repo")).expect("symlink");
        symlink(at("elsewhere"), at("plain/out")).expect("symlink");
        let check = |p: &str| check_path_argument(&at(p)).map_err(|d| d.message);
        assert_eq!(check("repo/real"), Ok(()));
        assert_eq!(check("repo/inner"), Ok(()), "a link inside the repository");
        assert_eq!(check("plain/to-repo/real"), Ok(()), "a link above the repository is the machine's, not the repository's");
        assert_eq!(check("repo/nope"), Ok(()), "reading it says it does not exist");
        let refused = check("repo/out").expect_err("a link out");
        assert!(refused.contains("points outside the repository") && refused.contains("elsewhere"), "{refused}");
        assert!(check("repo/out/..").is_err(), "`..` is taken from the name, the place is where the link leads");
        assert!(check("repo/checkout").is_err(), "a link committed to a repository reaches no other repository");
        // Neither in a repository nor below the folder the tests run in: no link at all.
        assert_eq!(check("plain/real"), Ok(()));
        assert!(check("plain/out").expect_err("through a link").contains("through a symbolic link"));
        assert_eq!(lexical_path(Path::new("/a/b"), Path::new("../c/./d/..")), Path::new("/a/c"));
        assert_eq!(lexical_path(Path::new("/a"), Path::new("/x/../y")), Path::new("/y"));
    }

    #[cfg(unix)]
    #[test]
    fn paths_from_the_command_line_get_the_same_guard() {
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("tools.json"), "[]").expect("write");
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("ok.json"), "[]").expect("write");
        std::os::unix::fs::symlink(dir.path().join("ok.json"), dir.path().join("beside.json")).expect("symlink");
        std::os::unix::fs::symlink(outside.path().join("tools.json"), dir.path().join("out.json")).expect("symlink");
        std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.json")).expect("symlink");
        let made = std::process::Command::new("mkfifo").arg(dir.path().join("fifo.json")).status().expect("mkfifo runs");
        assert!(made.success());
        std::fs::File::create(dir.path().join("big.json")).and_then(|f| f.set_len(MAX_FILE_BYTES + 1)).expect("sparse file");
        let read = |name: &str| ProjectRoot::read_path(&dir.path().join(name)).map(|f| f.text.to_string());
        assert_eq!(read("ok.json"), Ok("[]".to_string()));
        assert_eq!(read("beside.json"), Ok("[]".to_string()));
        assert_eq!(read("out.json"), Err(ReadError::Escapes("out.json".into())));
        assert_eq!(read("zero.json"), Err(ReadError::Escapes("zero.json".into())));
        assert_eq!(read("fifo.json"), Err(ReadError::NotAFile("fifo.json".into())), "refused without blocking");
        assert_eq!(read("big.json"), Err(ReadError::TooLarge { path: "big.json".into(), bytes: MAX_FILE_BYTES + 1 }));
        assert_eq!(read("nope.json"), Err(ReadError::Missing("nope.json".into())));
    }

    /// Counted in texts and reads, not in memory: past its cap a memory keeps the texts used
    /// most recently, and a text it dropped is read from the disk again when next needed.
    #[test]
    fn kept_texts_past_the_cap_go_least_recently_used_first() {
        let project = tempfile::tempdir().expect("tempdir");
        for name in ["a", "b", "c"] {
            std::fs::write(project.path().join(format!("{name}.md")), name.repeat(100)).expect("write");
        }
        // Older than the window in which a stamp cannot tell a later change.
        std::thread::sleep(std::time::Duration::from_millis(150));
        let disk = Arc::new(DiskMemory::with_text_cap(250));
        let run = RunState { disk: Some(disk.clone()), ..RunState::default() };
        let root = ProjectRoot::in_run(project.path(), run).expect("root");
        let read = |name: &str| root.read(&format!("{name}.md")).map(|f| f.text.len()).expect("read");
        let reads = || disk.work().0;
        for name in ["a", "b", "c"] {
            read(name);
        }
        assert_eq!((reads(), disk.texts_kept()), (3, (3, 300)), "within a look, all kept");
        disk.look_again();
        assert_eq!(disk.texts_kept(), (2, 200), "one over the cap: the first by path of the least recent goes");
        read("b");
        assert_eq!(reads(), 3, "b kept");
        read("a");
        assert_eq!(reads(), 4, "a read again");
        disk.look_again();
        assert_eq!(disk.texts_kept(), (2, 200), "c, the least recently used, went");
        read("a");
        read("b");
        assert_eq!(reads(), 4, "a and b kept");
        read("c");
        assert_eq!(reads(), 5, "c read again");
    }
}
