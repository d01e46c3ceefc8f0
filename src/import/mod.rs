//! `ctxc import SYSTEM PATH`: a ctxc manifest written from a runtime's own project format, so
//! that its render and window equal what the runtime does: what every importer shares. Each
//! importer is in its runtime's folder (`src/runtimes/<name>/import.rs`).

use std::path::PathBuf;

use crate::diagnostic::{Diagnostic, Sources};
use crate::review::atomic;

/// A manifest made from a runtime's project: where it goes, its text, what could not be
/// carried over (warnings and notes, with where they come from), and the files they point into.
#[derive(Debug, Clone)]
pub struct Imported {
    pub manifest: PathBuf,
    pub text: String,
    pub notes: Vec<Diagnostic>,
    pub sources: Sources,
    /// The runtime whose texts the manifest reads from `upstream/` (`ctxc upstream` writes
    /// them), when it reads any.
    pub upstream: Option<&'static str>,
    /// Texts the import writes beside the manifest (a prompt written in code), under the same
    /// rule as the manifest: an existing file is replaced only with `force`.
    pub files: Vec<(PathBuf, String)>,
}

/// Writes the manifest through a temporary file in its folder: an existing file is replaced
/// only with `force`, and a symlink at its place is then replaced, never followed.
pub fn write(imported: &Imported, force: bool) -> Result<(), Diagnostic> {
    // What the project held is quoted into the manifest; a manifest ctxc cannot read back is a
    // bug in the import, never a file left for the user to find.
    if let Err(e) = crate::manifest::parse(&imported.text, crate::manifest::Format::Toml) {
        return Err(Diagnostic::error(format!(
            "ctxc import made a manifest it cannot read back ({}): nothing was written; please report this as a bug",
            e.message
        )));
    }
    // Nothing is written when one of the files would leave the folder through a link, or exists
    // and may not be replaced.
    for (path, _) in &imported.files {
        refuse_links_below(&imported.manifest, path)?;
    }
    if let Some(path) = imported.files.iter().map(|(p, _)| p).chain([&imported.manifest]).find(|p| !force && p.symlink_metadata().is_ok()) {
        return Err(exists(path));
    }
    for (path, text) in &imported.files {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Diagnostic::error(format!("cannot create `{}`: {e}", dir.display())))?;
        }
        write_one(path, text, force)?;
    }
    write_one(&imported.manifest, &imported.text, force)
}

/// A file written beside the manifest stays in the manifest's folder: a folder on its way that is a
/// link (a repository's `prompts -> ~/.ssh`) would have the file written wherever the link points.
fn refuse_links_below(manifest: &std::path::Path, path: &std::path::Path) -> Result<(), Diagnostic> {
    let base = manifest.parent().unwrap_or(std::path::Path::new("."));
    let relative = path
        .strip_prefix(base)
        .map_err(|_| Diagnostic::error(format!("`{}` is outside `{}`: not written", path.display(), base.display())))?;
    let mut at = base.to_path_buf();
    for part in relative.parent().into_iter().flat_map(|p| p.components()) {
        at.push(part);
        if at.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(Diagnostic::error(format!("`{}` is a link: `{}` not written through it", at.display(), path.display())));
        }
    }
    Ok(())
}

fn write_one(path: &std::path::Path, text: &str, force: bool) -> Result<(), Diagnostic> {
    let written = match force {
        true => atomic::write(path, text.as_bytes(), None),
        false => atomic::create(path, text.as_bytes()),
    };
    written.map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => exists(path),
        _ => Diagnostic::error(format!("cannot write `{}`: {e}", path.display())),
    })
}

fn exists(path: &std::path::Path) -> Diagnostic {
    Diagnostic::error(format!("`{}` exists: not overwritten", path.display())).help("pass --force to replace it")
}

/// A string as TOML writes it (quoted and escaped, on one line).
pub(crate) fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A folder holding `files` (path, text), for the importers' tests.
#[cfg(test)]
pub(crate) fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (rel, text) in files {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `prompts` a link to a folder outside: nothing is written there, nor the manifest.
    #[cfg(unix)]
    #[test]
    fn a_file_beside_the_manifest_is_not_written_through_a_link() {
        let project = project(&[]);
        let outside = tempfile::tempdir().expect("tempdir");
        std::os::unix::fs::symlink(outside.path(), project.path().join("prompts")).expect("link");
        let imported = Imported {
            manifest: project.path().join("ctxc.toml"),
            text: "[agent]\nname = \"a\"\n".to_string(),
            notes: Vec::new(),
            sources: Sources::default(),
            upstream: None,
            files: vec![(project.path().join("prompts/system.md"), "You help.".to_string())],
        };
        let error = write(&imported, true).expect_err("refused");
        assert!(error.message.contains("is a link"), "{}", error.message);
        assert!(!outside.path().join("system.md").exists());
        assert!(!project.path().join("ctxc.toml").exists());
    }
}
