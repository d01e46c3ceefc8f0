//! The parts of the Language Server Protocol `ctxc lsp` reads, as serde types, and the `file:`
//! URIs it names files by. Answers are written as JSON where they are built (`lsp.rs`): the
//! `lsp-types` crate, with `url` and its IDNA tables, was a tenth of ctxc's dependency build for
//! the dozen messages used here.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// A zero-based line and UTF-16 column, as the protocol counts them.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub struct Position {
    pub line: u32,
    pub character: u32,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub struct Range {
    pub start: Position,
    pub end: Position,
}

#[derive(Debug, Deserialize)]
pub struct Document {
    pub uri: String,
}

/// `textDocument/didOpen`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DidOpen {
    pub text_document: OpenedDocument,
}

#[derive(Debug, Deserialize)]
pub struct OpenedDocument {
    pub uri: String,
    pub text: String,
}

/// `textDocument/didChange`, with full synchronisation: each change holds the whole text.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DidChange {
    pub text_document: Document,
    pub content_changes: Vec<WholeText>,
}

#[derive(Debug, Deserialize)]
pub struct WholeText {
    pub text: String,
}

/// `textDocument/didClose`, and the requests on a whole document (inlay hints, code actions)
/// with the range they ask about (`Range::default()` where they name none).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OnDocument {
    pub text_document: Document,
    #[serde(default)]
    pub range: Range,
}

/// `workspace/didChangeWatchedFiles`.
#[derive(Debug, Deserialize)]
pub struct WatchedChanges {
    pub changes: Vec<Document>,
}

/// Hover, definition and completion: a position in a document.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AtPosition {
    pub text_document: Document,
    pub position: Position,
}

/// What `initialize` tells of the client: its workspace and whether it watches files when asked.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Initialize {
    pub workspace_folders: Option<Vec<Document>>,
    pub root_uri: Option<String>,
    pub capabilities: ClientCapabilities,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ClientCapabilities {
    pub workspace: Option<WorkspaceCapabilities>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WorkspaceCapabilities {
    pub did_change_watched_files: Option<DynamicRegistration>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DynamicRegistration {
    pub dynamic_registration: Option<bool>,
}

/// The path a `file:` URI names; `None` for another scheme, a remote host, or a path that is
/// not absolute. Percent escapes are decoded to bytes (on Unix a path is bytes; elsewhere they
/// must be UTF-8).
pub fn path_of(uri: &str) -> Option<PathBuf> {
    let rest = uri.get(..7).filter(|scheme| scheme.eq_ignore_ascii_case("file://")).map(|_| &uri[7..])?;
    let rest = rest.split(['?', '#']).next().unwrap_or_default();
    let (host, path) = rest.split_at(rest.find('/')?);
    if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
        return None;
    }
    let bytes = percent_decoded(path)?;
    to_path(bytes)
}

#[cfg(unix)]
fn to_path(bytes: Vec<u8>) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

/// `/C:/dir/file` is `C:\dir\file`.
#[cfg(not(unix))]
fn to_path(bytes: Vec<u8>) -> Option<PathBuf> {
    let text = String::from_utf8(bytes).ok()?;
    let drive = text.strip_prefix('/').filter(|t| t.as_bytes().get(1) == Some(&b':'))?;
    Some(PathBuf::from(drive.replace('/', "\\")))
}

fn percent_decoded(text: &str) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&b, after)) = rest.split_first() {
        if b == b'%' {
            let hex = after.get(..2)?;
            bytes.push(u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?);
            rest = &after[2..];
        } else {
            bytes.push(b);
            rest = after;
        }
    }
    Some(bytes)
}

/// The `file:` URI of an absolute path (`None` for a relative one), escaped as the URL
/// standard's path set says (and `%`): controls, space, `"#<>?`{}` and every byte beyond ASCII.
pub fn uri_of(path: &Path) -> Option<String> {
    if !path.is_absolute() {
        return None;
    }
    let mut uri = String::from("file://");
    for &b in &path_bytes(path)? {
        let kept = b.is_ascii_graphic() && !b"\"#<>?`{}%".contains(&b);
        if kept {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    Some(uri)
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> Option<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    Some(path.as_os_str().as_bytes().to_vec())
}

/// `C:\dir\file` is `/C:/dir/file`.
#[cfg(not(unix))]
fn path_bytes(path: &Path) -> Option<Vec<u8>> {
    Some(format!("/{}", path.to_str()?.replace('\\', "/")).into_bytes())
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_and_paths_convert_both_ways() {
        for (path, uri) in [
            ("/p/a b/ç.md", "file:///p/a%20b/%C3%A7.md"),
            ("/p/#x?%.md", "file:///p/%23x%3F%25.md"),
            ("/p/[1]{2}`\"<>|^.md", "file:///p/[1]%7B2%7D%60%22%3C%3E|^.md"),
            ("/p/it's (1)+~@.md", "file:///p/it's%20(1)+~@.md"),
        ] {
            assert_eq!(uri_of(Path::new(path)).as_deref(), Some(uri), "{path}");
            assert_eq!(path_of(uri), Some(PathBuf::from(path)), "{uri}");
        }
        // Clients escape more or fewer characters than ctxc does, and may name the local host.
        assert_eq!(path_of("file:///p/a b/%c3%a7.md"), Some(PathBuf::from("/p/a b/ç.md")));
        assert_eq!(path_of("FILE://localhost/p/x.md"), Some(PathBuf::from("/p/x.md")));
        assert_eq!(path_of("file:///p/x.md#L3"), Some(PathBuf::from("/p/x.md")));
    }

    #[test]
    fn what_is_not_a_local_file_has_no_path() {
        for uri in ["untitled:Untitled-1", "http://h/p", "file://server/share/x.md", "file://", "file:///p/%2", "file:///p/%zz"] {
            assert_eq!(path_of(uri), None, "{uri}");
        }
        assert_eq!(uri_of(Path::new("relative/x.md")), None);
    }
}
