//! Finding agents: a manifest file, a directory holding one, or a directory of agent folders.

use std::path::{Component, Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::manifest::MANIFEST_NAMES;

/// How deep a directory of agents is searched for manifests.
const MAX_DEPTH: usize = 4;

/// The manifest in `dir`, if any: whatever bears a manifest's name (a folder or a FIFO too, so
/// that loading refuses it rather than the agent going unnoticed).
pub fn manifest_in(dir: &Path) -> Option<PathBuf> {
    MANIFEST_NAMES.iter().map(|name| dir.join(name)).find(|p| p.symlink_metadata().is_ok())
}

/// Manifests under `path`, sorted. A file is taken as the manifest itself; a directory with a
/// manifest is one agent; otherwise its subdirectories are searched (symlinks not followed).
/// The folders inside an agent belong to it (prompts, skills, tools) and are not searched.
pub fn find_manifests(path: &Path) -> Result<Vec<PathBuf>, Diagnostic> {
    if !path.is_dir() {
        // Anything else that exists is taken as a manifest, for loading to accept or refuse.
        return match path.symlink_metadata() {
            Ok(_) => Ok(vec![path.to_path_buf()]),
            Err(_) => Err(Diagnostic::error(format!("`{}` does not exist", path.display()))),
        };
    }
    if let Some(manifest) = manifest_in(path) {
        return Ok(vec![manifest]);
    }
    let mut found = Vec::new();
    search(path, 0, &mut found);
    found.sort();
    if found.is_empty() {
        return Err(Diagnostic::error(format!("no ctxc.toml or ctxc.yaml found in `{}`", path.display()))
            .help("pass an agent directory (one holding ctxc.toml or ctxc.yaml) or the manifest file"));
    }
    Ok(found)
}

/// The folder a command works on when given PATH: PATH itself, unless PATH is a folder inside an
/// agent with no manifest in or below it (`prompts/` of an agent), where it is the nearest agent
/// folder above, as cargo finds the package of a subfolder. The walk stops at the top of the
/// repository (outside git, at the folder ctxc was started in). Paths keep the user's form:
/// `examples/agents/zeus/prompts` gives `examples/agents/zeus`, `.` gives `..`.
pub fn agent_folder(path: &Path) -> PathBuf {
    if !path.is_dir() || manifest_in(path).is_some() || find_manifests(path).is_ok() {
        return path.to_path_buf();
    }
    let mut folder = path.to_path_buf();
    for _ in 0..crate::project::levels_up_within_project(path) {
        folder = parent_folder(&folder);
        if manifest_in(&folder).is_some() {
            return folder;
        }
    }
    path.to_path_buf()
}

/// The folder above `path`, written as the user would: the last name dropped, or `..` added.
fn parent_folder(path: &Path) -> PathBuf {
    match path.components().next_back() {
        Some(Component::Normal(_)) => match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        },
        Some(Component::CurDir) | None => PathBuf::from(".."),
        Some(_) => path.join(".."),
    }
}

/// Collects the manifests of `dir`'s subdirectories, down to [`MAX_DEPTH`], skipping hidden and
/// build folders and not descending into agents.
fn search(dir: &Path, depth: usize, found: &mut Vec<PathBuf>) {
    if depth >= MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if !is_dir || name.starts_with('.') || name == "target" || name == "node_modules" {
            continue;
        }
        match manifest_in(&entry.path()) {
            Some(manifest) => found.push(manifest),
            None => search(&entry.path(), depth + 1, found),
        }
    }
}

/// The agent `--agent` (a render's agent) names: by its folder's name, or else by its `[agent] name` (which needs
/// loading each manifest, so it is tried second).
pub fn pick_agent(
    manifests: &[PathBuf],
    wanted: Option<&str>,
    agent_name: impl Fn(&Path) -> Option<String>,
) -> Result<PathBuf, Diagnostic> {
    let dir_name = |m: &PathBuf| m.parent().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned());
    match (manifests, wanted) {
        ([only], None) => Ok(only.clone()),
        (_, Some(name)) => {
            let by_folder = manifests.iter().find(|m| dir_name(m).as_deref() == Some(name));
            by_folder.or_else(|| manifests.iter().find(|m| agent_name(m).as_deref() == Some(name))).cloned().ok_or_else(|| {
                let names: Vec<String> = manifests.iter().filter_map(dir_name).collect();
                Diagnostic::error(format!("no agent `{name}` here (by folder or by `[agent] name`)"))
                    .help(format!("agent folders: {}", names.join(", ")))
            })
        }
        _ => {
            let names: Vec<String> = manifests.iter().filter_map(dir_name).collect();
            Err(Diagnostic::error("this directory holds several agents: pass --agent NAME").help(format!("agents: {}", names.join(", "))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_that_is_no_file_is_still_found() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(manifest_in(dir.path()), None);
        std::fs::create_dir(dir.path().join("ctxc.toml")).expect("mkdir");
        assert_eq!(manifest_in(dir.path()), Some(dir.path().join("ctxc.toml")), "loading refuses it, not discovery");
        assert!(find_manifests(&dir.path().join("nope")).is_err());
    }

    #[test]
    fn parent_folders_keep_the_users_form() {
        for (path, parent) in [("a/b", "a"), ("a", "."), (".", ".."), ("..", "../.."), ("./a", "."), ("../a", "..")] {
            assert_eq!(parent_folder(Path::new(path)), Path::new(parent), "{path}");
        }
    }
}
