//! Reading a project as it was at a git revision, without touching the work tree or the index:
//! only git's read-only plumbing runs (`rev-parse`, `ls-tree`, `cat-file --batch`), with
//! `GIT_OPTIONAL_LOCKS=0`, and the files are written into a temporary folder that keeps their
//! paths relative to the repository's top, so a manifest's `[project] root` above PATH still
//! finds its files.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

use crate::manifest::preset::Overlay;

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
    // Read-only: no optional locks (e.g. no index refresh), pathspecs taken literally.
    command.env("GIT_OPTIONAL_LOCKS", "0").arg("--literal-pathspecs");
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

/// Writes the files under `rel` (relative to the top; empty for everything) as they are at
/// `commit` into `into`, at their paths relative to the top.
fn extract(repo: &Repo, commit: &str, rel: &str, into: &Path) -> Result<(), String> {
    let mut ls = git(Some(&repo.top));
    ls.args(["ls-tree", "-r", "-z", commit]);
    if !rel.is_empty() {
        ls.args(["--", rel]);
    }
    let listing = run(&mut ls)?;
    let mut files: Vec<(String, String, PathBuf)> = Vec::new();
    for record in listing.split(|b| *b == 0).filter(|r| !r.is_empty()) {
        let record = String::from_utf8_lossy(record);
        let Some((meta, path)) = record.split_once('\t') else { continue };
        let mut meta = meta.split(' ');
        let (Some(mode), Some(kind), Some(oid)) = (meta.next(), meta.next(), meta.next()) else { continue };
        // Submodules (commits) are not part of this repository's files.
        if kind != "blob" {
            continue;
        }
        // Git never stores `..` or absolute paths; refuse them all the same.
        if !Path::new(path).components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(format!("refusing the path `{path}` from the repository"));
        }
        files.push((mode.to_string(), oid.to_string(), into.join(path)));
    }
    if files.is_empty() {
        return Ok(());
    }
    let mut child = git(Some(&repo.top))
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("git cat-file has no stdin")?;
    let request: String = files.iter().map(|(_, oid, _)| format!("{oid}\n")).collect();
    // Fed from a thread of its own, so that neither side waits on a full pipe.
    let feeder = std::thread::spawn(move || stdin.write_all(request.as_bytes()));
    let mut out = BufReader::new(child.stdout.take().ok_or("git cat-file has no stdout")?);
    let result = (|| {
        for (mode, oid, target) in &files {
            let mut header = String::new();
            out.read_line(&mut header).map_err(|e| e.to_string())?;
            let size: usize = header
                .split(' ')
                .nth(2)
                .and_then(|s| s.trim().parse().ok())
                .ok_or_else(|| format!("git cat-file: unexpected answer for {oid}: {}", header.trim()))?;
            let mut content = vec![0; size + 1];
            out.read_exact(&mut content).map_err(|e| e.to_string())?;
            content.pop();
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
            }
            write_entry(mode, target, &content).map_err(|e| format!("`{}`: {e}", target.display()))?;
        }
        Ok(())
    })();
    let _ = feeder.join();
    let _ = child.kill();
    let _ = child.wait();
    result
}

fn write_entry(mode: &str, target: &Path, content: &[u8]) -> std::io::Result<()> {
    let _ = std::fs::remove_file(target);
    #[cfg(unix)]
    if mode == "120000" {
        let link = std::ffi::OsStr::from_bytes(content);
        return std::os::unix::fs::symlink(link, target);
    }
    std::fs::write(target, content)?;
    #[cfg(unix)]
    if mode == "100755" {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(target, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

#[cfg(unix)]
use std::os::unix::ffi::OsStrExt;

/// How many levels above its own folder a manifest's `[project] root` reaches, with the
/// overrides laid over it (0 when it cannot be parsed: loading reports that).
fn root_levels(manifest: &Path, overrides: &[String]) -> usize {
    let Ok(text) = std::fs::read_to_string(manifest) else { return 0 };
    let Ok(mut raw) = crate::manifest::parse(&text, crate::manifest::Format::of(manifest)) else { return 0 };
    for fragment in overrides.iter().filter_map(|o| crate::manifest::parse_override(o).ok()) {
        raw.overlay(fragment);
    }
    let root = raw.project.and_then(|p| p.root).map(|r| r.value).unwrap_or_default();
    Path::new(&root).components().filter(|c| matches!(c, Component::ParentDir)).count()
}

/// The project under PATH as it was at `commit`: PATH's folder, widened to the project root of
/// any manifest whose `[project] root` lies above it.
pub fn checkout(repo: &Repo, commit: &str, overrides: &[String]) -> Result<Checkout, String> {
    let dir = tempfile::Builder::new().prefix("ctxc-diff-").tempdir().map_err(|e| format!("cannot create a temporary folder: {e}"))?;
    let mut extracted = repo.dir_rel().to_string();
    extract(repo, commit, &extracted, dir.path())?;
    let path = if repo.rel.is_empty() { dir.path().to_path_buf() } else { dir.path().join(&repo.rel) };
    let exists = path.exists();
    if exists {
        let manifests = crate::discover::find_manifests(&path).unwrap_or_default();
        for manifest in manifests {
            let levels = root_levels(&manifest, overrides);
            let Some(manifest_dir) = manifest.parent().and_then(|d| d.strip_prefix(dir.path()).ok()) else { continue };
            let mut parts: Vec<String> = manifest_dir.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            parts.truncate(parts.len().saturating_sub(levels));
            let needed = parts.join("/");
            let covered = extracted.is_empty() || needed == extracted || needed.starts_with(&format!("{extracted}/"));
            if !covered {
                extract(repo, commit, &needed, dir.path())?;
                extracted = needed;
            }
        }
    }
    Ok(Checkout { dir, path, exists })
}
