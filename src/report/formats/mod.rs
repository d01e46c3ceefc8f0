//! Machine-readable outputs of `ctxc check`: JSON, SARIF 2.1.0 and GitHub Actions annotations.

pub mod concise;
pub mod github;
pub mod json;
pub mod sarif;

use std::path::{Component, Path, PathBuf};

use crate::diagnostic::{Diagnostic, Sources};

/// Turns the display paths in diagnostics into paths relative to the repository root (the
/// nearest directory above the working directory holding `.git`), or to the working directory
/// outside a repository. CI systems resolve these against their checkout.
#[derive(Debug, Clone, Default)]
pub struct Paths {
    /// The repository root, when there is one.
    root: Option<PathBuf>,
    /// The working directory relative to the root, `/`-separated ("" at the root).
    prefix: String,
}

impl Paths {
    pub fn detect() -> Paths {
        let Ok(cwd) = std::env::current_dir() else { return Paths::default() };
        let root = cwd.ancestors().find(|dir| dir.join(".git").exists()).map(Path::to_path_buf);
        let prefix = root
            .as_ref()
            .and_then(|r| cwd.strip_prefix(r).ok())
            .map(|rel| rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"))
            .unwrap_or_default();
        Paths { root, prefix }
    }

    /// The repository-relative path of a display path, `/`-separated, with `.` and `..` resolved.
    pub fn relative(&self, display: &str) -> String {
        let path = Path::new(display);
        let joined = if path.is_absolute() {
            match self.root.as_ref().and_then(|r| path.strip_prefix(r).ok()) {
                Some(rel) => rel.to_path_buf(),
                None => return display.replace('\\', "/"),
            }
        } else {
            Path::new(&self.prefix).join(path)
        };
        let mut parts: Vec<String> = Vec::new();
        for component in joined.components() {
            match component {
                Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
                Component::ParentDir if parts.last().is_some_and(|p| p != "..") => {
                    parts.pop();
                }
                Component::ParentDir => parts.push("..".into()),
                _ => {}
            }
        }
        parts.join("/")
    }
}

/// A finding's region: 1-based start and end line and column (columns in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    pub start_line: usize,
    pub start_column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

pub fn region(d: &Diagnostic, sources: &Sources) -> Option<Region> {
    region_at(d.file.as_deref()?, d.span.as_ref()?, sources)
}

/// The region of `span` in `file` (a finding's, or one of its related places).
pub fn region_at(file: &str, span: &std::ops::Range<usize>, sources: &Sources) -> Option<Region> {
    let (start_line, start_column) = sources.line_col(file, span.start)?;
    let (end_line, end_column) = sources.line_col(file, span.end.max(span.start))?;
    Some(Region { start_line, start_column, end_line, end_column })
}

/// FNV-1a, 64 bits: a small hash that is the same on every platform and Rust version.
pub fn fnv1a(parts: &[&str]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain(std::iter::once(0)) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_relative_to_the_repository() {
        let paths = Paths { root: Some(PathBuf::from("/repo")), prefix: "examples/agents".into() };
        assert_eq!(paths.relative("zeus/ctxc.toml"), "examples/agents/zeus/ctxc.toml");
        assert_eq!(paths.relative("./zeus/../zeus/ctxc.toml"), "examples/agents/zeus/ctxc.toml");
        assert_eq!(paths.relative("/repo/a/b.md"), "a/b.md");
        assert_eq!(paths.relative("../../../x.md"), "../x.md");
        assert_eq!(fnv1a(&["a"]), fnv1a(&["a"]));
        assert_ne!(fnv1a(&["a", "b"]), fnv1a(&["ab"]));
    }
}
