//! `ctxc import SYSTEM PATH`: a ctxc manifest written from a runtime's own project format, so
//! that its render and window equal what the runtime does. One file per system.

pub mod zeph;

use std::path::PathBuf;

use crate::diagnostic::Diagnostic;

/// A manifest made from a runtime's project: where it goes, its text, and what could not be
/// carried over (warnings and notes, with where they come from).
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub manifest: PathBuf,
    pub text: String,
    pub notes: Vec<Diagnostic>,
}

/// Writes the manifest; an existing file is replaced only with `force`.
pub fn write(imported: &Imported, force: bool) -> Result<(), Diagnostic> {
    let path = &imported.manifest;
    if !force && std::fs::symlink_metadata(path).is_ok() {
        return Err(Diagnostic::error(format!("`{}` exists: not overwritten", path.display())).help("pass --force to replace it"));
    }
    std::fs::write(path, &imported.text).map_err(|e| Diagnostic::error(format!("cannot write `{}`: {e}", path.display())))
}
