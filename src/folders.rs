//! Folders walked depth first, each folder's entries read once per run.
//!
//! A check reads the same folders several times: an agent's walk for its skills, each skill's
//! listing of its bundled files, the walk for the agent files no agent loads, the type of each
//! path looked up on the way. A one-shot run keeps every folder it read in a [`Listings`] (its
//! entries, sorted by name, with the type the folder gave each); a later walk or lookup of the
//! folder reads it from there, not from the disk. A run that lasts (the editor) keeps none: it
//! keeps whole walks with the stamps that tell when they no longer hold (`project::DiskMemory`).

use std::collections::hash_map::Entry;
use std::ffi::{OsStr, OsString};
use std::fs::{self, FileType};
use std::io;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::memo::KeyMap;

/// One entry of a folder: its name and its type as the folder listed it (a link is a link).
#[derive(Debug)]
struct Listed {
    name: OsString,
    file_type: FileType,
}

/// A folder's entries in name order, or why it could not be read.
type Listing = Result<Arc<[Listed]>, Arc<io::Error>>;

/// The folders one run has read, by canonical path: at most `cap` entries in all (a tree larger
/// than that is walked as it was, each folder past the cap read from the disk each time), so the
/// memory they hold stays bounded however large the tree a run walks.
#[derive(Debug)]
pub struct Listings {
    folders: Mutex<(KeyMap<PathBuf, Listing>, usize)>,
    cap: usize,
}

/// The entries [`Listings`] keep by default: about 50 MiB at most (a name and a type each).
const CAP: usize = 1 << 20;

impl Default for Listings {
    fn default() -> Self {
        Listings::with_cap(CAP)
    }
}

impl Listings {
    /// Listings that keep at most `cap` entries.
    pub fn with_cap(cap: usize) -> Listings {
        Listings { folders: Mutex::default(), cap }
    }

    /// The type of the entry at `path` (a canonical path) as its folder listed it (not found
    /// when it holds no such entry), when that folder was read in this run; `None` when it was
    /// not (or could not be: the caller looks at the disk, which says why).
    pub fn file_type(&self, path: &Path) -> Option<io::Result<FileType>> {
        let (folder, name) = (path.parent()?, path.file_name()?);
        let folders = self.folders.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let entries = folders.0.get(folder)?.as_ref().ok()?;
        Some(match entries.binary_search_by(|e| e.name.as_os_str().cmp(name)) {
            Ok(found) => Ok(entries[found].file_type),
            Err(_) => Err(io::ErrorKind::NotFound.into()),
        })
    }

    /// The entries of the folder at `shown` (canonical path `key`), read once per run.
    fn read(&self, shown: &Path, key: &Path) -> Listing {
        if let Some(listing) = self.folders.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).0.get(key) {
            return listing.clone();
        }
        // Read unlocked: another thread reading the same folder meanwhile reads what this one does.
        let listing = read_folder(shown);
        let mut folders = self.folders.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let (kept, held) = &mut *folders;
        match kept.entry(key.to_path_buf()) {
            Entry::Occupied(read_meanwhile) => read_meanwhile.get().clone(),
            Entry::Vacant(slot) => {
                let size = listing.as_ref().map_or(1, |entries| entries.len().max(1));
                if *held + size > self.cap {
                    return listing;
                }
                *held += size;
                slot.insert(listing).clone()
            }
        }
    }
}

fn read_folder(path: &Path) -> Listing {
    let mut entries = Vec::new();
    for entry in fs::read_dir(path).map_err(Arc::new)? {
        let entry = entry.map_err(Arc::new)?;
        entries.push(Listed { file_type: entry.file_type().map_err(Arc::new)?, name: entry.file_name() });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries.into())
}

/// What a walk meets, in order.
pub enum Step<'a> {
    /// A file, folder or link, `depth` levels below the start (the start itself is depth 0).
    /// `path` is the start as the caller named it joined with the entry's names.
    Entry { path: &'a Path, name: &'a OsStr, depth: usize, file_type: FileType },
    /// A folder the walk entered but could not read.
    Unreadable { path: &'a Path, error: &'a io::Error },
}

/// What the walk does after an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Go on, into the entry when it is a folder.
    Enter,
    /// Go on, but not into this folder.
    Skip,
    /// End the walk.
    Stop,
}

/// Walks `start` depth first, in name order within each folder, as `walkdir` does with
/// `follow_links(false)` and `sort_by_file_name()`: the start is followed when it is a link, no
/// link below it is; folders `max_depth` levels down are met but not entered. `key` is the
/// start's canonical path: with `listings`, each folder is read from them when this run read it
/// before (folders below a start that no link leads to are where their names say). A start that
/// does not exist is an unreadable step.
pub fn walk(
    listings: Option<&Listings>,
    start: &Path,
    key: &Path,
    max_depth: usize,
    visit: &mut dyn FnMut(Step) -> Next,
) -> ControlFlow<()> {
    // The start's own type: a start named through a link (`key` is then its target) is a link.
    let cached = listings.filter(|_| start == key).and_then(|l| l.file_type(key));
    let file_type = match cached.unwrap_or_else(|| fs::symlink_metadata(start).map(|m| m.file_type())) {
        Ok(file_type) => file_type,
        Err(error) => {
            visit(Step::Unreadable { path: start, error: &error });
            return ControlFlow::Continue(());
        }
    };
    // A start that is a link is followed; one that leads nowhere is unreadable, not an entry.
    let is_folder = match file_type.is_symlink() {
        true => match fs::metadata(start) {
            Ok(target) => target.is_dir(),
            Err(error) => {
                visit(Step::Unreadable { path: start, error: &error });
                return ControlFlow::Continue(());
            }
        },
        false => file_type.is_dir(),
    };
    let name = start.file_name().unwrap_or(start.as_os_str());
    if visit(Step::Entry { path: start, name, depth: 0, file_type }) == Next::Stop {
        return ControlFlow::Break(());
    }
    if !is_folder || max_depth == 0 {
        return ControlFlow::Continue(());
    }
    let mut walker = Walker { listings, shown: start.to_path_buf(), key: key.to_path_buf(), max_depth, visit };
    walker.folder(1)
}

struct Walker<'a, 'v> {
    listings: Option<&'a Listings>,
    shown: PathBuf,
    key: PathBuf,
    max_depth: usize,
    visit: &'v mut dyn FnMut(Step) -> Next,
}

impl Walker<'_, '_> {
    /// The entries of the folder at `self.shown`, which are `depth` levels down.
    fn folder(&mut self, depth: usize) -> ControlFlow<()> {
        let listing = match self.listings {
            Some(listings) => listings.read(&self.shown, &self.key),
            None => read_folder(&self.shown),
        };
        let entries = match listing {
            Ok(entries) => entries,
            Err(error) => {
                return match (self.visit)(Step::Unreadable { path: &self.shown, error: &error }) {
                    Next::Stop => ControlFlow::Break(()),
                    _ => ControlFlow::Continue(()),
                };
            }
        };
        for entry in entries.iter() {
            self.shown.push(&entry.name);
            self.key.push(&entry.name);
            let step = Step::Entry { path: &self.shown, name: &entry.name, depth, file_type: entry.file_type };
            let next = match (self.visit)(step) {
                Next::Stop => ControlFlow::Break(()),
                Next::Enter if entry.file_type.is_dir() && depth < self.max_depth => self.folder(depth + 1),
                _ => ControlFlow::Continue(()),
            };
            self.shown.pop();
            self.key.pop();
            next?;
        }
        ControlFlow::Continue(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every step of a walk as text: `depth path kind`, or `! path` for a folder not read.
    fn steps(listings: Option<&Listings>, start: &Path, max_depth: usize, skip: &str) -> Vec<String> {
        let mut seen = Vec::new();
        let key = fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
        let _ = walk(listings, start, &key, max_depth, &mut |step| match step {
            Step::Entry { path, name, depth, file_type } => {
                if depth > 0 && name == skip {
                    return Next::Skip;
                }
                seen.push(format!("{depth} {} {}", path.strip_prefix(start).unwrap().display(), kind(file_type)));
                Next::Enter
            }
            Step::Unreadable { path, .. } => {
                seen.push(format!("! {}", path.display()));
                Next::Enter
            }
        });
        seen
    }

    /// The same steps from walkdir (the order, the types and the folders it could not read, which
    /// the walks replaced rely on).
    fn walkdir_steps(start: &Path, max_depth: usize, skip: &str) -> Vec<String> {
        let walk = walkdir::WalkDir::new(start).follow_links(false).sort_by_file_name().max_depth(max_depth);
        walk.into_iter()
            .filter_entry(|e| e.depth() == 0 || e.file_name() != skip)
            .map(|e| match e {
                Ok(e) => format!("{} {} {}", e.depth(), e.path().strip_prefix(start).unwrap().display(), kind(e.file_type())),
                Err(e) => format!("! {}", e.path().unwrap().display()),
            })
            .collect()
    }

    fn kind(file_type: FileType) -> &'static str {
        match (file_type.is_dir(), file_type.is_symlink()) {
            (true, _) => "dir",
            (_, true) => "link",
            _ => "file",
        }
    }

    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for folder in ["a/b/c/d", "a/skip/x", "e", "B"] {
            fs::create_dir_all(dir.path().join(folder)).unwrap();
        }
        for file in ["a/b/c/d/deep.md", "a/b/one.md", "a/skip/x/hidden.md", "e/two.md", "z.md", "B/upper.md", "a/skip.md"] {
            fs::write(dir.path().join(file), "x").unwrap();
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(dir.path().join("e"), dir.path().join("a/link-to-e")).unwrap();
        dir
    }

    #[test]
    fn steps_are_walkdirs_with_and_without_listings() {
        let dir = tree();
        for depth in [0, 1, 2, 3, 8] {
            let expected = walkdir_steps(dir.path(), depth, "skip");
            assert_eq!(steps(None, dir.path(), depth, "skip"), expected, "depth {depth}");
            let listings = Listings::default();
            // Read into the listings, then walked from them: the same steps both times.
            assert_eq!(steps(Some(&listings), dir.path(), depth, "skip"), expected, "depth {depth}, first");
            assert_eq!(steps(Some(&listings), dir.path(), depth, "skip"), expected, "depth {depth}, from the listings");
        }
    }

    /// A tree of folders, files and links (to folders, to files, to nothing) drawn from `seed`.
    #[cfg(unix)]
    fn drawn_tree(seed: u64) -> tempfile::TempDir {
        const NAMES: [&str; 10] = ["a", "B", "c.md", ".git", "node_modules", "skip", "Zz", "é", "x y", "SKILL.md"];
        let dir = tempfile::tempdir().unwrap();
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut draw = |n: usize| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        let mut folders = vec![dir.path().to_path_buf()];
        for _ in 0..40 {
            let parent = folders[draw(folders.len())].clone();
            let path = parent.join(NAMES[draw(NAMES.len())]);
            if fs::symlink_metadata(&path).is_ok() {
                continue;
            }
            match draw(5) {
                0 | 1 => {
                    fs::create_dir(&path).unwrap();
                    folders.push(path);
                }
                2 => fs::write(&path, "x").unwrap(),
                3 => std::os::unix::fs::symlink(&folders[draw(folders.len())], &path).unwrap(),
                _ => std::os::unix::fs::symlink(parent.join("nowhere"), &path).unwrap(),
            }
        }
        dir
    }

    #[test]
    #[cfg(unix)]
    fn drawn_trees_are_walked_as_walkdir_walks_them() {
        for seed in 0..64 {
            let dir = drawn_tree(seed);
            let listings = Listings::default();
            for depth in [1, 2, 4, usize::MAX] {
                for skip in ["skip", ".git"] {
                    let expected = walkdir_steps(dir.path(), depth, skip);
                    assert_eq!(steps(None, dir.path(), depth, skip), expected, "seed {seed}, depth {depth}");
                    assert_eq!(steps(Some(&listings), dir.path(), depth, skip), expected, "seed {seed}, depth {depth}, listed");
                }
            }
            // Walks of the folders and links below, from the listings the walks above made.
            for entry in fs::read_dir(dir.path()).unwrap() {
                let path = entry.unwrap().path();
                assert_eq!(steps(Some(&listings), &path, 8, ""), walkdir_steps(&path, 8, ""), "seed {seed}, {}", path.display());
            }
        }
    }

    #[test]
    fn a_folder_is_read_once_per_run() {
        let dir = tree();
        let listings = Listings::default();
        steps(Some(&listings), dir.path(), 8, "");
        // Deleted after the first walk: a walk of the same run still sees what it read.
        fs::remove_dir_all(dir.path().join("a/b")).unwrap();
        assert!(steps(Some(&listings), &dir.path().join("a"), 8, "").contains(&"4 b/c/d/deep.md file".to_string()));
        // Without listings the disk is read again.
        assert!(!steps(None, &dir.path().join("a"), 8, "").iter().any(|s| s.contains("deep.md")));
        let key = fs::canonicalize(dir.path()).unwrap();
        assert!(listings.file_type(&key.join("a/b")).is_some_and(|t| t.is_ok_and(|t| t.is_dir())));
        assert!(listings.file_type(&key.join("a/nothing")).is_some_and(|t| t.is_err_and(|e| e.kind() == io::ErrorKind::NotFound)));
        // A folder not read: the disk must say.
        assert!(listings.file_type(&key.join("elsewhere/x")).is_none());
    }

    #[test]
    fn listings_keep_no_more_than_their_cap() {
        let dir = tree();
        // Room for the root's five entries and `a`'s five, not for more.
        let listings = Listings::with_cap(10);
        steps(Some(&listings), dir.path(), 8, "");
        fs::remove_dir_all(dir.path().join("a/b")).unwrap();
        fs::remove_file(dir.path().join("z.md")).unwrap();
        // The folders past the cap are read from the disk again; those kept are not.
        let again = steps(Some(&listings), dir.path(), 8, "");
        assert!(again.contains(&"1 z.md file".to_string()), "{again:?}");
        assert!(again.contains(&"2 a/b dir".to_string()), "{again:?}");
        assert!(!again.iter().any(|s| s.contains("deep.md")), "{again:?}");
    }

    #[test]
    fn unreadable_start_and_stop() {
        let dir = tree();
        assert_eq!(steps(None, &dir.path().join("missing"), 8, "").len(), 1);
        let mut met = 0;
        let flow = walk(None, dir.path(), dir.path(), 8, &mut |_| {
            met += 1;
            if met == 3 {
                Next::Stop
            } else {
                Next::Enter
            }
        });
        assert_eq!((flow, met), (ControlFlow::Break(()), 3));
    }
}
