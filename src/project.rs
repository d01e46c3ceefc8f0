//! Confined file access. Every file an agent references is read through [`ProjectRoot`], which
//! keeps references inside the project root (no `..` escapes, no symlinks out), enforces a size
//! limit and insists on UTF-8, reading bytes verbatim (no line-ending or Unicode normalisation).

use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::diagnostic::{line_col, Diagnostic};

/// Largest file ctxc reads (4 MiB): prompts, tool lists and skills are far smaller, and a bigger
/// file is almost always a mistake (a data dump or a binary).
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

#[derive(Debug, Clone)]
pub struct ProjectRoot {
    /// The root as the user named it, used in every path ctxc prints (never made absolute).
    display: PathBuf,
    /// The canonical root, used only to check that resolved files stay inside.
    canonical: PathBuf,
}

/// A file read from the project: its path relative to the root (with `/` separators), the path
/// to show to users, and its text.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub rel: String,
    pub display: String,
    pub text: String,
}

/// Why a reference could not be read. The caller attaches the span of the reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    Escapes(String),
    Missing(String),
    NotAFile(String),
    TooLarge { path: String, bytes: u64 },
    Unreadable { path: String, reason: String },
    NotUtf8 { path: String, line: usize, column: usize },
}

impl ReadError {
    pub fn message(&self) -> String {
        match self {
            ReadError::Escapes(p) => format!("`{p}` points outside the project root"),
            ReadError::Missing(p) => format!("file `{p}` does not exist"),
            ReadError::NotAFile(p) => format!("`{p}` is not a regular file"),
            ReadError::TooLarge { path, bytes } => format!(
                "`{path}` is {bytes} bytes, over the {MAX_FILE_BYTES}-byte limit for files ctxc reads"
            ),
            ReadError::Unreadable { path, reason } => format!("cannot read `{path}`: {reason}"),
            ReadError::NotUtf8 { path, line, column } => {
                format!("`{path}` is not valid UTF-8 (first bad byte at line {line}, column {column})")
            }
        }
    }

    pub fn help(&self) -> Option<&'static str> {
        match self {
            ReadError::Escapes(_) => Some(
                "references are relative to the directory holding the manifest and must stay inside it",
            ),
            _ => None,
        }
    }

    /// The rule code: MAN003 for a reference that leaves the project, MAN002 otherwise.
    pub fn code(&self) -> &'static str {
        match self {
            ReadError::Escapes(_) => "MAN003",
            _ => "MAN002",
        }
    }

    pub fn into_diagnostic(self) -> Diagnostic {
        let mut d = Diagnostic::error(self.message()).code(self.code());
        if let Some(help) = self.help() {
            d = d.help(help);
        }
        d
    }
}

impl ProjectRoot {
    pub fn new(display: impl Into<PathBuf>) -> Result<Self, ReadError> {
        let display = display.into();
        let canonical = fs::canonicalize(&display).map_err(|e| ReadError::Unreadable {
            path: display.display().to_string(),
            reason: e.to_string(),
        })?;
        Ok(ProjectRoot { display, canonical })
    }

    pub fn display_path(&self, rel: &str) -> String {
        if self.display.as_os_str().is_empty() || self.display == Path::new(".") {
            rel.to_string()
        } else {
            format!("{}/{}", self.display.display().to_string().trim_end_matches('/'), rel)
        }
    }

    pub fn display(&self) -> &Path {
        &self.display
    }

    /// The canonical root (only for comparing paths; never shown).
    pub fn canonical(&self) -> &Path {
        &self.canonical
    }

    /// Normalises a reference to a root-relative path with `/` separators, refusing absolute
    /// paths and `..` that climbs above the root.
    pub fn normalize(&self, reference: &str) -> Result<String, ReadError> {
        let mut parts: Vec<String> = Vec::new();
        for component in Path::new(reference).components() {
            match component {
                Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
                Component::CurDir => {}
                Component::ParentDir => {
                    if parts.pop().is_none() {
                        return Err(ReadError::Escapes(reference.to_string()));
                    }
                }
                Component::RootDir | Component::Prefix(_) => {
                    return Err(ReadError::Escapes(reference.to_string()))
                }
            }
        }
        Ok(parts.join("/"))
    }

    /// Resolves a root-relative path on disk, following symlinks, and checks it stays inside.
    pub fn resolve(&self, rel: &str) -> Result<PathBuf, ReadError> {
        let joined = self.canonical.join(rel);
        let resolved = match fs::canonicalize(&joined) {
            Ok(path) => path,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(ReadError::Missing(rel.to_string()))
            }
            Err(e) => return Err(ReadError::Unreadable { path: rel.to_string(), reason: e.to_string() }),
        };
        if !resolved.starts_with(&self.canonical) {
            return Err(ReadError::Escapes(rel.to_string()));
        }
        Ok(resolved)
    }

    /// Reads a file referenced from the manifest (or found by a walk) verbatim.
    pub fn read(&self, reference: &str) -> Result<SourceFile, ReadError> {
        let rel = self.normalize(reference)?;
        let path = self.resolve(&rel)?;
        let meta = fs::metadata(&path)
            .map_err(|e| ReadError::Unreadable { path: rel.clone(), reason: e.to_string() })?;
        if !meta.is_file() {
            return Err(ReadError::NotAFile(rel));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(ReadError::TooLarge { path: rel, bytes: meta.len() });
        }
        let bytes =
            fs::read(&path).map_err(|e| ReadError::Unreadable { path: rel.clone(), reason: e.to_string() })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let valid = e.utf8_error().valid_up_to();
            let prefix = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
            let (line, column) = line_col(&prefix, prefix.len());
            ReadError::NotUtf8 { path: rel.clone(), line, column }
        })?;
        Ok(SourceFile { display: self.display_path(&rel), rel, text })
    }

    /// Lists the regular files named `file_name` under a root-relative directory, sorted, never
    /// following a symlink out of the root.
    pub fn find_files(&self, dir: &str, file_name: &str) -> Result<Vec<String>, ReadError> {
        let rel_dir = self.normalize(dir)?;
        let abs_dir = self.resolve(&rel_dir)?;
        let mut found = Vec::new();
        for entry in walkdir::WalkDir::new(&abs_dir).follow_links(false).sort_by_file_name() {
            let Ok(entry) = entry else { continue };
            if entry.file_name() != file_name {
                continue;
            }
            let Ok(rel) = entry.path().strip_prefix(&self.canonical) else { continue };
            let rel = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            found.push(rel);
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_escapes_and_absolute_paths() {
        let root = ProjectRoot::new(".").expect("cwd exists");
        assert_eq!(root.normalize("a/./b/../c.md"), Ok("a/c.md".to_string()));
        assert!(matches!(root.normalize("../../etc/passwd"), Err(ReadError::Escapes(_))));
        assert!(matches!(root.normalize("a/../../x"), Err(ReadError::Escapes(_))));
        assert!(matches!(root.normalize("/etc/passwd"), Err(ReadError::Escapes(_))));
    }

    #[test]
    fn refuses_symlinks_out_and_bad_utf8() {
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("secret.txt"), "s").expect("write");
        let project = tempfile::tempdir().expect("tempdir");
        #[cfg(unix)]
        std::os::unix::fs::symlink(outside.path().join("secret.txt"), project.path().join("link.md"))
            .expect("symlink");
        std::fs::write(project.path().join("bad.md"), b"ok\nab\xffcd").expect("write");
        let root = ProjectRoot::new(project.path()).expect("root");
        #[cfg(unix)]
        assert!(matches!(root.read("link.md"), Err(ReadError::Escapes(_))));
        assert_eq!(
            root.read("bad.md").map(|f| f.text),
            Err(ReadError::NotUtf8 { path: "bad.md".into(), line: 2, column: 3 })
        );
        assert!(matches!(root.read("nope.md"), Err(ReadError::Missing(_))));
    }
}
