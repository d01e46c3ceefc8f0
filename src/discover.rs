//! Finding agents: a manifest file, a directory holding one, or a directory of agent folders.

use std::path::{Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::manifest::MANIFEST_NAMES;

/// How deep a directory of agents is searched for manifests.
const MAX_DEPTH: usize = 4;

/// The manifest in `dir`, if any.
pub fn manifest_in(dir: &Path) -> Option<PathBuf> {
    MANIFEST_NAMES.iter().map(|name| dir.join(name)).find(|p| p.is_file())
}

/// Manifests under `path`, sorted. A file is taken as the manifest itself; a directory with a
/// manifest is one agent; otherwise its subdirectories are searched (symlinks not followed).
pub fn find_manifests(path: &Path) -> Result<Vec<PathBuf>, Diagnostic> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    if !path.is_dir() {
        return Err(Diagnostic::error(format!("`{}` does not exist", path.display())));
    }
    if let Some(manifest) = manifest_in(path) {
        return Ok(vec![manifest]);
    }
    let skip = |e: &walkdir::DirEntry| {
        let name = e.file_name().to_string_lossy();
        e.depth() > 0 && (name.starts_with('.') || name == "target" || name == "node_modules")
    };
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(path)
        .max_depth(MAX_DEPTH)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !skip(e))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_dir())
        .filter_map(|e| manifest_in(e.path()))
        .collect();
    found.sort();
    if found.is_empty() {
        return Err(Diagnostic::error(format!("no ctxc.toml or ctxc.yaml found in `{}`", path.display()))
            .help("pass an agent directory (one holding ctxc.toml or ctxc.yaml) or the manifest file"));
    }
    Ok(found)
}
