//! Reading a project as it was at a git revision, without touching the work tree or the index:
//! only git's read-only plumbing runs (`rev-parse`, `ls-tree`, `cat-file --batch`), with
//! `GIT_OPTIONAL_LOCKS=0`, and the files are written into a temporary folder that keeps their
//! paths relative to the repository's top, so a manifest's `[project] root` above PATH still
//! finds its files.

use std::io::{BufRead, BufReader, Read, Seek, Write};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

/// PATH located in its git repository.
#[derive(Debug, Clone)]
pub struct Repo {
    /// The repository's top folder (canonical).
    pub top: PathBuf,
    /// PATH relative to the top, `/`-separated (empty for the top itself).
    pub rel: String,
    /// Whether PATH is a file (a manifest) rather than a folder.
    pub is_file: bool,
}

impl Repo {
    /// The folder PATH names, or the folder of the file it names, relative to the top.
    fn dir_rel(&self) -> &str {
        if self.is_file {
            self.rel.rsplit_once('/').map_or("", |(dir, _)| dir)
        } else {
            &self.rel
        }
    }
}

/// A project as it was at a revision, in a temporary folder removed on drop.
#[derive(Debug)]
pub struct Checkout {
    dir: tempfile::TempDir,
    /// PATH inside the checkout.
    pub path: PathBuf,
    /// Whether PATH existed at that revision.
    pub exists: bool,
}

impl Checkout {
    /// The temporary folder holding the repository's files.
    pub fn root(&self) -> &Path {
        self.dir.path()
    }
}

fn git(top: Option<&Path>) -> Command {
    let mut command = Command::new("git");
    if let Some(top) = top {
        command.arg("-C").arg(top);
    }
    // Read-only: no optional locks (e.g. no index refresh), pathspecs taken literally. A folder a
    // pull request commits can look like a bare repository (`HEAD`, `objects/`, a `config` that
    // names a command as `core.fsmonitor`); git would use it before the real one and run that
    // command. Bare repositories found by searching are refused, and no fsmonitor ever runs.
    command.env("GIT_OPTIONAL_LOCKS", "0").arg("--literal-pathspecs");
    command.args(["-c", "safe.bareRepository=explicit", "-c", "core.fsmonitor=false"]);
    command
}

fn run(command: &mut Command) -> Result<Vec<u8>, String> {
    let out = command.stdin(Stdio::null()).output().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => "git is not installed (or not on PATH): `ctxc diff` needs it".to_string(),
        _ => format!("cannot run git: {e}"),
    })?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

/// Finds the repository PATH is in.
pub fn locate(path: &Path) -> Result<Repo, String> {
    let canonical = std::fs::canonicalize(path).map_err(|e| format!("`{}`: {e}", path.display()))?;
    let is_file = canonical.is_file();
    let dir = if is_file { canonical.parent().unwrap_or(&canonical).to_path_buf() } else { canonical.clone() };
    let top = run(git(Some(&dir)).args(["rev-parse", "--show-toplevel"]))
        .map_err(|e| format!("`{}` is not in a git repository ({e})", path.display()))?;
    let top = String::from_utf8_lossy(&top).trim_end_matches(['\n', '\r']).to_string();
    let top = std::fs::canonicalize(&top).map_err(|e| format!("`{top}`: {e}"))?;
    let rel = canonical.strip_prefix(&top).map_err(|_| format!("`{}` is outside its repository's work tree", path.display()))?;
    let rel = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/");
    Ok(Repo { top, rel, is_file })
}

/// The commit a revision names.
pub fn resolve(repo: &Repo, rev: &str) -> Result<String, String> {
    if rev.starts_with('-') || rev.trim().is_empty() {
        return Err(format!("`{rev}` is not a revision"));
    }
    let out = run(git(Some(&repo.top)).args(["rev-parse", "--verify", "--quiet", "--end-of-options", &format!("{rev}^{{commit}}")]))
        .map_err(|_| format!("`{rev}` is not a commit in this repository"))?;
    Ok(String::from_utf8_lossy(&out).trim().to_string())
}

/// The files changed in the work tree since a revision (committed, staged or not, and new files
/// git does not ignore), as canonical paths; deleted files are left out. Git only lists names
/// (`ls-tree` of the revision, `ls-files` of the index and the untracked files): it never reads
/// the work tree's contents, so no filter, text conversion or diff driver that the work tree's
/// attributes or the repository's config select can run. ctxc compares the contents itself, by
/// object id; a file a clean filter or line-ending conversion would have made equal is listed as
/// changed, which only checks it again.
pub fn changed_since(repo: &Repo, rev: &str) -> Result<std::collections::BTreeSet<PathBuf>, String> {
    let commit = resolve(repo, rev)?;
    let format = run(git(Some(&repo.top)).args(["rev-parse", "--show-object-format"]))?;
    let format = ObjectFormat::parse(String::from_utf8_lossy(&format).trim())?;
    // The whole repository: an agent under PATH may load a file from anywhere in it.
    let at_commit: std::collections::HashMap<String, Entry> =
        ls_tree(repo, &commit, "", MAX_LISTED)?.into_iter().map(|entry| (entry.path.clone(), entry)).collect();
    let listed = run(git(Some(&repo.top)).args(["ls-files", "-z", "--cached", "--others", "--exclude-standard"]))?;
    let names: std::collections::BTreeSet<String> =
        listed.split(|b| *b == 0).filter(|name| !name.is_empty()).map(|name| String::from_utf8_lossy(name).into_owned()).collect();
    Ok(names
        .into_iter()
        .filter(|name| at_commit.get(name).is_none_or(|entry| !format.same_content(&repo.top.join(name), entry)))
        .filter_map(|name| std::fs::canonicalize(repo.top.join(name)).ok())
        .collect())
}

/// The most files of a revision `--changed-since` compares (a monorepo's, not one agent's).
const MAX_LISTED: usize = 2_000_000;

/// The hash a repository names its objects with.
#[derive(Clone, Copy)]
enum ObjectFormat {
    Sha1,
    Sha256,
}

impl ObjectFormat {
    fn parse(name: &str) -> Result<Self, String> {
        match name {
            "sha1" => Ok(Self::Sha1),
            "sha256" => Ok(Self::Sha256),
            other => Err(format!("git: unknown object format `{other}`")),
        }
    }

    /// Whether the work tree's `path` holds exactly the blob `entry` (a link's target for a
    /// link), read without following a link and only when the sizes agree. Anything else (a
    /// folder, a FIFO, an unreadable file, one over the size ctxc reads) counts as changed.
    fn same_content(self, path: &Path, entry: &Entry) -> bool {
        let Ok(meta) = std::fs::symlink_metadata(path) else { return false };
        let content = if entry.mode == "120000" && meta.file_type().is_symlink() {
            match std::fs::read_link(path) {
                Ok(target) => target.into_os_string().into_encoded_bytes(),
                Err(_) => return false,
            }
        } else if entry.mode != "120000"
            && meta.file_type().is_file()
            && meta.len() == entry.size
            && entry.size <= crate::project::MAX_FILE_BYTES
        {
            // The project's own open (no final link followed, no FIFO waited on), and no more
            // than the blob's size read: a file swapped since the look above cannot hang or grow this.
            let mut bytes = Vec::new();
            match crate::project::open_no_follow(path).and_then(|file| file.take(entry.size + 1).read_to_end(&mut bytes)) {
                Ok(_) => bytes,
                Err(_) => return false,
            }
        } else {
            return false;
        };
        self.blob_id(&content) == entry.oid
    }

    /// The id git gives a blob holding `content`: the hash of `blob LEN\0` and the content.
    fn blob_id(self, content: &[u8]) -> String {
        use sha2::Digest as _;
        let header = format!("blob {}\0", content.len());
        let digest: Vec<u8> = match self {
            Self::Sha1 => sha1::Sha1::new().chain_update(header).chain_update(content).finalize().to_vec(),
            Self::Sha256 => sha2::Sha256::new().chain_update(header).chain_update(content).finalize().to_vec(),
        };
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// At most this many files are extracted from a revision, and at most this many bytes written:
/// a hostile tree cannot fill the disk or run for long. Blobs over the per-file limit are not
/// read at all (see [`Extraction::placeholder`]).
const MAX_ENTRIES: usize = 100_000;
const MAX_BYTES: u64 = 512 * 1024 * 1024;
/// The longest `ls-tree` record read (mode, type, id, size and a path).
const MAX_RECORD: u64 = 64 * 1024;

/// Files of a revision written into a fresh temporary folder without ever following a link: every
/// folder on the way is one this extraction created, and every file and link is created new
/// (`O_EXCL`). A second name for a place already taken (git accepts a link `zz` and a file
/// `zz/evil.md` in one tree) is an error, so nothing is ever written outside the folder.
struct Extraction<'a> {
    repo: &'a Repo,
    commit: &'a str,
    into: &'a Path,
    /// Folders created so far, as paths relative to `into`.
    dirs: std::collections::HashSet<String>,
    /// The folder extracted so far (relative to the top; empty for everything), if any.
    done: Option<String>,
    bytes: u64,
}

/// One blob listed by `ls-tree`.
struct Entry {
    mode: String,
    oid: String,
    size: u64,
    path: String,
}

impl Extraction<'_> {
    /// Writes the files under `rel` that are not under the folder extracted before.
    fn extract(&mut self, rel: &str) -> Result<(), String> {
        let listed = ls_tree(self.repo, self.commit, rel, MAX_ENTRIES)?;
        let already = |path: &str| match &self.done {
            Some(done) => done.is_empty() || path.strip_prefix(done.as_str()).is_some_and(|rest| rest.starts_with('/')),
            None => false,
        };
        let entries: Vec<Entry> = listed.into_iter().filter(|e| !already(&e.path)).collect();
        self.done = Some(rel.to_string());
        let mut wanted = Vec::new();
        for entry in entries {
            self.create_parents(&entry.path)?;
            if entry.size > crate::project::MAX_FILE_BYTES {
                self.placeholder(&entry)?;
            } else {
                self.bytes += entry.size;
                if self.bytes > MAX_BYTES {
                    return Err(format!("more than {MAX_BYTES} bytes to read: pass the agent's own folder as PATH"));
                }
                wanted.push(entry);
            }
        }
        if wanted.is_empty() {
            return Ok(());
        }
        // The request comes from an unnamed temporary file rather than a pipe: no side waits on
        // a full pipe, and stopping early (an error) writes nothing to a closed one.
        let request: String = wanted.iter().map(|e| format!("{}\n", e.oid)).collect();
        let mut requests = tempfile::tempfile().map_err(|e| format!("cannot create a temporary file: {e}"))?;
        requests
            .write_all(request.as_bytes())
            .and_then(|()| requests.rewind())
            .map_err(|e| format!("cannot write a temporary file: {e}"))?;
        let mut child = git(Some(&self.repo.top))
            .args(["cat-file", "--batch"])
            .stdin(requests)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run git: {e}"))?;
        let mut out = BufReader::new(child.stdout.take().ok_or("git cat-file has no stdout")?);
        let result = wanted.iter().try_for_each(|entry| self.write_blob(&mut out, entry));
        let _ = child.kill();
        let _ = child.wait();
        result
    }

    /// Creates the folders above `path` that do not exist yet. A folder must be one this
    /// extraction created: anything else already there (a file, a link) means two entries
    /// claim the same place.
    fn create_parents(&mut self, path: &str) -> Result<(), String> {
        let mut dir = String::new();
        for part in path.split('/').collect::<Vec<_>>().split_last().map_or(&[][..], |(_, parents)| parents) {
            dir = if dir.is_empty() { part.to_string() } else { format!("{dir}/{part}") };
            if self.dirs.contains(&dir) {
                continue;
            }
            std::fs::create_dir(self.into.join(&dir)).map_err(|e| collision(&dir, e))?;
            self.dirs.insert(dir.clone());
        }
        Ok(())
    }

    /// A blob over the per-file limit is not read: an empty file of its size (sparse, so no
    /// space is written) stands for it, which reading refuses as too large, as in the work tree.
    fn placeholder(&self, entry: &Entry) -> Result<(), String> {
        let file = create_new(&self.into.join(&entry.path), false).map_err(|e| collision(&entry.path, e))?;
        file.set_len(entry.size).map_err(|e| format!("`{}`: {e}", entry.path))
    }

    /// Reads the next blob `cat-file --batch` answers with and writes it as `entry`.
    fn write_blob(&self, out: &mut impl BufRead, entry: &Entry) -> Result<(), String> {
        let mut header = String::new();
        out.take(MAX_RECORD).read_line(&mut header).map_err(|e| e.to_string())?;
        let size = header.split(' ').nth(2).and_then(|s| s.trim().parse::<u64>().ok());
        if size != Some(entry.size) {
            return Err(format!("git cat-file: unexpected answer for {}: {}", entry.oid, header.trim()));
        }
        let target = self.into.join(&entry.path);
        let mut content = out.take(entry.size);
        if entry.mode == "120000" {
            let mut link = Vec::new();
            content.read_to_end(&mut link).map_err(|e| e.to_string())?;
            make_link(&link, &target).map_err(|e| collision(&entry.path, e))?;
        } else {
            let mut file = create_new(&target, entry.mode == "100755").map_err(|e| collision(&entry.path, e))?;
            let written = std::io::copy(&mut content, &mut file).map_err(|e| format!("`{}`: {e}", entry.path))?;
            if written != entry.size {
                return Err(format!("git cat-file: `{}` ended early", entry.path));
            }
        }
        // The line break after each blob.
        out.read_exact(&mut [0]).map_err(|e| e.to_string())
    }
}

/// The blobs under `rel` (relative to the top; empty for everything) at the commit, sizes
/// included, read as a stream that stops at the limits.
fn ls_tree(repo: &Repo, commit: &str, rel: &str, limit: usize) -> Result<Vec<Entry>, String> {
    let mut ls = git(Some(&repo.top));
    ls.args(["ls-tree", "-r", "-l", "-z", commit]);
    if !rel.is_empty() {
        ls.args(["--", rel]);
    }
    let mut child =
        ls.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().map_err(|e| format!("cannot run git: {e}"))?;
    let mut out = BufReader::new(child.stdout.take().ok_or("git ls-tree has no stdout")?);
    let result = (|| {
        let mut entries = Vec::new();
        let mut record = Vec::new();
        loop {
            record.clear();
            (&mut out).take(MAX_RECORD).read_until(0, &mut record).map_err(|e| e.to_string())?;
            match record.pop() {
                None => return Ok(entries),
                Some(0) => {}
                Some(_) => return Err("git ls-tree: a record is too long or not terminated".to_string()),
            }
            let record = String::from_utf8_lossy(&record);
            let Some((meta, path)) = record.split_once('\t') else { continue };
            let mut meta = meta.split_whitespace();
            let (Some(mode), Some(kind), Some(oid), Some(size)) = (meta.next(), meta.next(), meta.next(), meta.next()) else {
                continue;
            };
            // Submodules (commits) are not part of this repository's files.
            if kind != "blob" {
                continue;
            }
            check_path(path)?;
            let size = size.parse().map_err(|_| format!("git ls-tree: unexpected size `{size}` of `{path}`"))?;
            if entries.len() >= limit {
                return Err(format!("more than {limit} files to read: pass the agent's own folder as PATH"));
            }
            entries.push(Entry { mode: mode.to_string(), oid: oid.to_string(), size, path: path.to_string() });
        }
    })();
    if result.is_err() {
        let _ = child.kill();
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    let entries = result?;
    if !status.success() {
        let mut message = String::new();
        if let Some(stderr) = child.stderr.take() {
            let _ = stderr.take(4096).read_to_string(&mut message);
        }
        return Err(message.trim().to_string());
    }
    Ok(entries)
}

/// The regular file at `rel` (relative to the top, `/`-separated) at `commit`, or `None` when
/// there is none; over `limit` bytes it is refused unread.
pub fn read_file(repo: &Repo, commit: &str, rel: &str, limit: u64) -> Result<Option<Vec<u8>>, String> {
    let Some(entry) = ls_tree(repo, commit, rel, MAX_ENTRIES)?.into_iter().find(|e| e.path == rel) else { return Ok(None) };
    if entry.mode == "120000" {
        return Err(format!("`{rel}` is a symbolic link at that revision"));
    }
    if entry.size > limit {
        return Err(format!("`{rel}` is {} bytes at that revision, more than {limit}", entry.size));
    }
    run(git(Some(&repo.top)).args(["cat-file", "blob", &entry.oid])).map(Some)
}

/// Git never stores `..`, absolute paths or `.git` (its own folder); refuse them all the same:
/// the checkout's `.git` marks its top (see [`checkout`]).
fn check_path(path: &str) -> Result<(), String> {
    let normal = |part: &str| !matches!(part, "" | "." | "..") && !part.eq_ignore_ascii_case(".git") && !part.contains('\\');
    match path.split('/').all(normal) {
        true => Ok(()),
        false => Err(format!("refusing the path `{path}` from the repository")),
    }
}

/// Why an entry could not be created; "already exists" means two entries claim one place.
fn collision(path: &str, e: std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::AlreadyExists => {
            format!("refusing the tree: `{path}` is listed twice (as a file or link and again, or as a folder too)")
        }
        _ => format!("`{path}`: {e}"),
    }
}

/// Creates a new file, never following a link and never replacing anything.
fn create_new(path: &Path, executable: bool) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW).mode(if executable { 0o755 } else { 0o644 });
    }
    #[cfg(not(unix))]
    let _ = executable;
    options.open(path)
}

/// A symbolic link as git stores it (its target is the blob); elsewhere a file holding the target.
fn make_link(target_text: &[u8], path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        std::os::unix::fs::symlink(std::ffi::OsStr::from_bytes(target_text), path)
    }
    #[cfg(not(unix))]
    {
        use std::io::Write;
        create_new(path, false)?.write_all(target_text)
    }
}

/// How many levels above its own folder a manifest's `[project] root` reaches, with the
/// overrides laid over it (0 when it cannot be read or parsed: loading reports that).
fn root_levels(manifest: &Path, overrides: &[String]) -> usize {
    let Ok(file) = crate::project::ProjectRoot::read_path(manifest) else { return 0 };
    let Some(raw) = crate::manifest::parse_with(&file.text, crate::manifest::Format::of(manifest), overrides) else { return 0 };
    let root = raw.project.and_then(|p| p.root).map(|r| r.value).unwrap_or_default();
    Path::new(&root).components().filter(|c| matches!(c, Component::ParentDir)).count()
}

/// The project under PATH as it was at `commit`: PATH's folder, widened to the project root of
/// any manifest whose `[project] root` lies above it. The folder gets a `.git` folder of its own,
/// so that it is the top of its work tree: no `[project] root` climbs out of it.
pub fn checkout(repo: &Repo, commit: &str, overrides: &[String]) -> Result<Checkout, String> {
    let dir = tempfile::Builder::new().prefix("ctxc-diff-").tempdir().map_err(|e| format!("cannot create a temporary folder: {e}"))?;
    std::fs::create_dir(dir.path().join(".git")).map_err(|e| format!("cannot create a temporary folder: {e}"))?;
    let mut extraction = Extraction { repo, commit, into: dir.path(), dirs: Default::default(), done: None, bytes: 0 };
    extraction.extract(repo.dir_rel())?;
    let path = if repo.rel.is_empty() { dir.path().to_path_buf() } else { dir.path().join(&repo.rel) };
    // PATH is what git stored there, never reached through a link: its folder is one the
    // extraction created, and a manifest named as PATH is a file in it.
    let folder = repo.dir_rel();
    let exists = (folder.is_empty() || extraction.dirs.contains(folder))
        && (!repo.is_file || std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()));
    if exists {
        let manifests = crate::discover::find_manifests(&path).unwrap_or_default();
        for manifest in manifests {
            let levels = root_levels(&manifest, overrides);
            let Some(manifest_dir) = manifest.parent().and_then(|d| d.strip_prefix(dir.path()).ok()) else { continue };
            let mut parts: Vec<String> = manifest_dir.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            parts.truncate(parts.len().saturating_sub(levels));
            let needed = parts.join("/");
            let extracted = extraction.done.as_deref().unwrap_or_default();
            let covered = extracted.is_empty() || needed == extracted || needed.starts_with(&format!("{extracted}/"));
            if !covered {
                extraction.extract(&needed)?;
            }
        }
    }
    Ok(Checkout { dir, path, exists })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_git_would_not_store_are_refused() {
        for bad in ["", "../x.md", "/etc/passwd", "a/../../x", ".git/config", "a/.GIT/hooks", "a\\b", "a//b", "a/./b", "./a", "a/"] {
            assert!(check_path(bad).is_err(), "{bad}");
        }
        assert_eq!(check_path("agents/zeus/ctxc.toml"), Ok(()));
        assert_eq!(check_path("a/.github/x.md"), Ok(()));
    }

    #[cfg(unix)]
    #[test]
    fn nothing_is_written_through_a_link_or_over_an_entry() {
        let outside = tempfile::tempdir().expect("tempdir");
        let into = tempfile::tempdir().expect("tempdir");
        let repo = Repo { top: into.path().to_path_buf(), rel: String::new(), is_file: false };
        let mut x = Extraction { repo: &repo, commit: "HEAD", into: into.path(), dirs: Default::default(), done: None, bytes: 0 };
        // The link `zz` a tree listed before `zz/evil.md`.
        make_link(outside.path().as_os_str().as_encoded_bytes(), &into.path().join("zz")).expect("link");
        assert!(x.create_parents("zz/evil.md").is_err_and(|e| e.contains("`zz` is listed twice")));
        // A file, then a folder of the same name; the same file twice.
        let entry = |path: &str, size| Entry { mode: "100644".into(), oid: "0".repeat(40), size, path: path.into() };
        let big = crate::project::MAX_FILE_BYTES + 1;
        x.create_parents("a/b.md").expect("new folders");
        x.placeholder(&entry("a/b.md", big)).expect("sparse placeholder");
        assert!(x.create_parents("a/b.md/c.md").is_err_and(|e| e.contains("listed twice")));
        assert!(x.placeholder(&entry("a/b.md", 1)).is_err_and(|e| e.contains("listed twice")));
        assert!(
            matches!(crate::project::ProjectRoot::new(into.path()).expect("root").read("a/b.md"), Err(crate::project::ReadError::TooLarge { bytes, .. }) if bytes == big)
        );
        assert_eq!(std::fs::read_dir(outside.path()).expect("list").count(), 0, "nothing written outside");
    }

    /// Issue 27, D16: `--changed-since` compares contents itself. Git would run the clean filter
    /// the work tree's `.gitattributes` selects (here one the repository's config defines) on
    /// every file whose stat data changed.
    #[cfg(unix)]
    #[test]
    fn changed_since_runs_no_filter_and_finds_the_changes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let top = std::fs::canonicalize(dir.path()).expect("canonical");
        let sh = |script: &str| {
            let status = Command::new("sh").arg("-c").arg(script).current_dir(&top).stdout(Stdio::null()).status().expect("sh");
            assert!(status.success(), "{script}");
        };
        sh("git init -q . && git config user.email t@t && git config user.name t \
            && printf 'same\\n' > same.md && printf 'before\\n' > edited.md && ln -s same.md link.md \
            && git add . && git commit -qm base");
        let marker = top.join("filter-ran");
        sh(&format!(
            "git config filter.evil.clean \"sh -c 'echo ran >> {}; cat'\" && printf '* filter=evil\\n' > .gitattributes \
             && touch -d '2001-01-01' same.md && printf 'after\\n' > edited.md && printf 'new\\n' > new.md",
            marker.display()
        ));
        let repo = locate(&top).expect("a repository");
        let changed = changed_since(&repo, "HEAD").expect("compared");
        let names: Vec<_> = changed.iter().map(|p| p.strip_prefix(&top).expect("inside").to_string_lossy().into_owned()).collect();
        assert_eq!(names, [".gitattributes", "edited.md", "new.md"]);
        assert!(!marker.exists(), "git ran the work tree's clean filter");
    }
}
