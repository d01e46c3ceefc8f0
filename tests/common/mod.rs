//! Helpers shared by the integration tests (each test crate uses some of them).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every file below `dir`, sorted.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// Copies the folder `from` to `to`, recursively.
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk");
        let target = to.join(entry.path().strip_prefix(from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The shared corpus beside the repository (`../shared/corpus`). CI always has it there, so its
/// absence fails the test with the reason instead of passing silently.
pub fn corpus() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    assert!(
        dir.join("INDEX.tsv").is_file(),
        "{} is absent: the tests read the shared corpus in place (clone it beside the repository)",
        dir.display()
    );
    dir
}

/// A command-line tool the test needs, found on PATH; fails with how to get it when missing.
/// Tests that need one are `#[ignore]`d with the reason and run by `scripts/test`, which
/// installs them first.
pub fn require_tool(name: &str) -> PathBuf {
    std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|p| p.join(name)).find(|p| p.is_file()))
        .unwrap_or_else(|| panic!("`{name}` is not installed: run `scripts/test`, which installs what the tests need"))
}

/// The Python interpreter of the test environment `scripts/test` builds (`target/venv`, with
/// the packages of `scripts/test-requirements.txt`); fails with how to get it when missing.
pub fn python() -> PathBuf {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/venv/bin/python");
    assert!(python.is_file(), "{} is missing: run `scripts/test`, which creates it", python.display());
    python
}

/// A small project written to a temporary directory.
pub fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir
}
