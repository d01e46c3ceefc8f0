//! Atomic file writes: the bytes go to a temporary file in the target's own folder, which is
//! flushed to disk and then renamed over the target, so a reader (or a run killed half-way)
//! sees the old file or the new one, never a truncated one. Temporary files (made by `tempfile`)
//! are named `.NAME.ctxc-tmp-XXXXXX`; a run that was killed leaves one behind, and the next run removes it
//! ([`remove_stale_temps`]) before it writes.

use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

/// What every temporary file name carries (after a leading dot and the target's name).
pub const TEMP_MARKER: &str = ".ctxc-tmp-";

/// Whether a file name is one of ctxc's temporary files.
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with('.') && name.contains(TEMP_MARKER)
}

/// Writes `bytes` to `path` atomically. `pause` is a testing aid (`_CTXC_TEST_PAUSE_MS` for
/// `ctxc snapshot`): the write stops that long half-way through the temporary file and again
/// after the rename, so that a test can kill the process at any point.
pub fn write(path: &Path, bytes: &[u8], pause: Option<Duration>) -> io::Result<()> {
    put(path, bytes, pause, true, None)
}

/// Writes `bytes` to a new file at `path` the same way, failing with `AlreadyExists` when any
/// entry (a symlink too) is there already: the check and the write are one step.
pub fn create(path: &Path, bytes: &[u8]) -> io::Result<()> {
    put(path, bytes, None, false, None)
}

/// Replaces an existing file below `root` atomically (`ctxc check --fix`). A link is followed only
/// to a file inside `root`, which is then the file replaced (the link stays a link); a path that
/// leads out of `root`, through a link or `..`, is refused and nothing is written.
pub fn replace_inside(root: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    let root = fs::canonicalize(root)?;
    let target = fs::canonicalize(path)?;
    if !target.starts_with(&root) {
        let message = format!("`{}` leads out of `{}` (to `{}`): not written", path.display(), root.display(), target.display());
        return Err(io::Error::new(io::ErrorKind::PermissionDenied, message));
    }
    let meta = fs::metadata(&target)?;
    if !meta.is_file() {
        return Err(io::Error::other(format!("`{}` is not a file: not written", path.display())));
    }
    // The file keeps its permissions (the temporary file is made readable by its owner only).
    put(&target, bytes, None, true, Some(meta.permissions()))
}

/// The temporary file is renamed over `path` (`replace`: a symlink there is replaced, never
/// followed) or linked to it only when nothing is there.
fn put(path: &Path, bytes: &[u8], pause: Option<Duration>, replace: bool, permissions: Option<fs::Permissions>) -> io::Result<()> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // Dropped on an error before the rename, which removes the temporary file.
    let mut temp = tempfile::Builder::new().prefix(&format!(".{name}{TEMP_MARKER}")).tempfile_in(dir)?;
    let (head, tail) = bytes.split_at(bytes.len() / 2);
    temp.write_all(head)?;
    if let Some(pause) = pause {
        temp.flush()?;
        std::thread::sleep(pause);
    }
    temp.write_all(tail)?;
    if let Some(permissions) = permissions {
        temp.as_file().set_permissions(permissions)?;
    }
    temp.as_file().sync_all()?;
    match replace {
        true => temp.persist(path).map_err(|e| e.error)?,
        false => temp.persist_noclobber(path).map_err(|e| e.error)?,
    };
    sync_dir(dir);
    if let Some(pause) = pause {
        std::thread::sleep(pause);
    }
    Ok(())
}

/// Flushes a folder's entries (the rename) to disk where the platform allows it.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// Removes ctxc's temporary files left in `dir` by a run that was killed; nothing else.
/// Returns how many were removed.
pub fn remove_stale_temps(dir: &Path) -> io::Result<usize> {
    let mut removed = 0;
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if is_file && is_temp_name(&entry.file_name().to_string_lossy()) {
            fs::remove_file(entry.path())?;
            removed += 1;
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("a.md");
        fs::write(&target, "old").expect("write");
        write(&target, b"new text", None).expect("atomic write");
        assert_eq!(fs::read_to_string(&target).expect("read"), "new text");
        let names: Vec<String> =
            fs::read_dir(dir.path()).expect("list").map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["a.md"]);
    }

    #[cfg(unix)]
    #[test]
    fn replacing_inside_a_folder_follows_links_only_within_it() {
        let outside = tempfile::tempdir().expect("tempdir");
        let project = tempfile::tempdir().expect("tempdir");
        let secret = outside.path().join("SKILL.md");
        fs::write(&secret, "outside").expect("write");
        fs::write(project.path().join("real.md"), "old").expect("write");
        std::os::unix::fs::symlink(&secret, project.path().join("out.md")).expect("link");
        std::os::unix::fs::symlink(outside.path(), project.path().join("dir")).expect("link");
        std::os::unix::fs::symlink(project.path().join("real.md"), project.path().join("in.md")).expect("link");

        let up = Path::new("..").join(outside.path().file_name().expect("name")).join("SKILL.md");
        for refused in [Path::new("out.md"), Path::new("dir/SKILL.md"), &up] {
            let err = replace_inside(project.path(), &project.path().join(refused), b"new").expect_err("refused");
            assert!(err.to_string().contains("leads out of"), "{}: {err}", refused.display());
        }
        assert_eq!(fs::read_to_string(&secret).expect("read"), "outside");

        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(project.path().join("real.md"), fs::Permissions::from_mode(0o640)).expect("chmod");
        replace_inside(project.path(), &project.path().join("in.md"), b"new").expect("a link inside");
        assert_eq!(fs::read_to_string(project.path().join("real.md")).expect("read"), "new");
        let mode = fs::metadata(project.path().join("real.md")).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o640, "the file keeps its permissions");
        assert!(fs::symlink_metadata(project.path().join("in.md")).expect("meta").file_type().is_symlink());
    }

    #[test]
    fn stale_temporary_files_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().expect("tempdir");
        for name in [".a.md.ctxc-tmp-1-0", "a.md", ".hidden", "notes.ctxc-tmp-1"] {
            fs::write(dir.path().join(name), "x").expect("write");
        }
        assert_eq!(remove_stale_temps(dir.path()).expect("clean"), 1);
        let mut names: Vec<String> =
            fs::read_dir(dir.path()).expect("list").map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        assert_eq!(names, [".hidden", "a.md", "notes.ctxc-tmp-1"]);
        assert_eq!(remove_stale_temps(&dir.path().join("missing")).expect("no folder"), 0);
    }
}
