//! The files linted one by one: SKILL.md files and memory files (AGENTS.md, CLAUDE.md and the
//! files a manifest lists). In a manifest they come from what loading read; without one
//! (zero-config), from a walk of the directory.

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Sources};
use crate::memo::{Cache, Kind, SharedText};
use crate::project::{ProjectRoot, ReadError};
use crate::yaml::{self, Frontmatter, FrontmatterError};

/// File names zero-config linting picks up.
pub const SKILL_FILE: &str = "SKILL.md";
pub const MEMORY_FILES: [&str; 2] = ["AGENTS.md", "CLAUDE.md"];

/// A SKILL.md file and its parsed frontmatter.
#[derive(Debug, Clone)]
pub struct SkillDoc {
    /// Display path.
    pub file: String,
    /// Path relative to the project root.
    pub rel: String,
    /// Name of the folder holding the file.
    pub folder: String,
    pub text: SharedText,
    /// Shared by every SKILL.md with the same text.
    pub front: Arc<Result<Frontmatter, FrontmatterError>>,
}

impl SkillDoc {
    pub fn new(file: String, rel: String, text: SharedText) -> SkillDoc {
        let folder = rel.rsplit('/').nth(1).unwrap_or_default().to_string();
        let front = Cache::get_or_insert(Kind::Frontmatter, text.hash(), || Arc::new(yaml::frontmatter(&text)));
        SkillDoc { file, rel, folder, text, front }
    }

    /// The frontmatter fields, when it parsed.
    pub fn fields(&self) -> &[(String, Value)] {
        self.front.as_ref().as_ref().map_or(&[], |f| f.fields.as_slice())
    }

    pub fn field(&self, key: &str) -> Option<&Value> {
        self.fields().iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// A field's value when it is a string.
    pub fn string(&self, key: &str) -> Option<&str> {
        self.field(key).and_then(Value::as_str)
    }

    /// The Markdown after the frontmatter (the whole file when there is none).
    pub fn body(&self) -> &str {
        match &*self.front {
            Ok(front) => &self.text[front.body_offset.min(self.text.len())..],
            Err(_) => &self.text,
        }
    }

    /// Byte offset where the body starts.
    pub fn body_start(&self) -> usize {
        self.text.len() - self.body().len()
    }

    /// The frontmatter's byte range (between the fences).
    fn yaml_range(&self) -> Range<usize> {
        match &*self.front {
            Ok(front) => front.yaml_offset..front.body_offset,
            Err(_) => 0..0,
        }
    }

    /// Byte range of a top-level frontmatter key.
    pub fn key_span(&self, key: &str) -> Option<Range<usize>> {
        let range = self.yaml_range();
        let mut offset = range.start;
        for line in self.text[range.clone()].split_inclusive('\n') {
            if line.strip_prefix(key).is_some_and(|rest| rest.trim_start_matches([' ', '\t']).starts_with(':')) {
                return Some(offset..offset + key.len());
            }
            offset += line.len();
        }
        None
    }

    /// Byte range of a key's value on its line (the key itself when the value starts below it).
    pub fn value_span(&self, key: &str) -> Option<Range<usize>> {
        let key_span = self.key_span(key)?;
        let line_end = self.text[key_span.end..].find(['\n', '\r']).map_or(self.text.len(), |i| key_span.end + i);
        let after_colon = self.text[key_span.end..line_end].find(':').map_or(line_end, |i| key_span.end + i + 1);
        let value = &self.text[after_colon..line_end];
        let start = after_colon + (value.len() - value.trim_start().len());
        let end = after_colon + value.trim_end().len();
        match self.text[start..end].trim() {
            "" | ">" | ">-" | "|" | "|-" | ">+" | "|+" => Some(key_span),
            _ => Some(start..end),
        }
    }
}

/// A static memory file.
#[derive(Debug, Clone)]
pub struct MemoryDoc {
    /// Display path.
    pub file: String,
    /// Path relative to the project root.
    pub rel: String,
    pub text: SharedText,
}

/// What a zero-config walk found.
#[derive(Debug, Default)]
pub struct Found {
    pub skills: Vec<SkillDoc>,
    pub memory: Vec<MemoryDoc>,
    pub sources: Sources,
    /// Files that could not be read (exit 2).
    pub problems: Vec<Diagnostic>,
    /// Links not followed because they lead out of the directory.
    pub warnings: Vec<Diagnostic>,
}

impl Found {
    pub fn is_empty(&self) -> bool {
        self.skills.is_empty() && self.memory.is_empty() && self.problems.is_empty() && self.warnings.is_empty()
    }
}

/// The path of a display path relative to the root (`None` when it is not under the root).
pub fn rel_of<'a>(root: &ProjectRoot, display: &'a str) -> Option<&'a str> {
    let base = root.display().to_string_lossy().replace('\\', "/");
    let base = base.trim_end_matches('/');
    if base.is_empty() || base == "." {
        return Some(display);
    }
    display.strip_prefix(base).and_then(|rest| rest.strip_prefix('/'))
}

/// The SKILL.md files loading read, in path order.
pub fn skills_in(root: &ProjectRoot, sources: &Sources) -> Vec<SkillDoc> {
    sources
        .iter_shared()
        .filter(|(display, _)| display.rsplit('/').next() == Some(SKILL_FILE))
        .filter_map(|(display, text)| {
            let rel = rel_of(root, display)?;
            Some(SkillDoc::new(display.to_string(), rel.to_string(), text.clone()))
        })
        .collect()
}

fn skip_dir(entry: &walkdir::DirEntry) -> bool {
    let name = entry.file_name().to_string_lossy();
    entry.depth() > 0 && entry.file_type().is_dir() && matches!(name.as_ref(), ".git" | "node_modules" | "target")
}

/// Walks `root` for SKILL.md, AGENTS.md and CLAUDE.md (or reads only `only`, a path relative to
/// the root). Symbolic links are followed only when they lead to a file inside the root; a file
/// reached twice (e.g. CLAUDE.md linking to AGENTS.md) is linted once, under its own name.
pub fn discover(root: &ProjectRoot, only: Option<&str>) -> Found {
    let mut found = Found::default();
    let mut candidates: Vec<(String, bool)> = Vec::new();
    match only {
        Some(rel) => candidates.push((rel.to_string(), false)),
        None => {
            let base = root.display();
            let walk = walkdir::WalkDir::new(base).follow_links(false).sort_by_file_name().into_iter().filter_entry(|e| !skip_dir(e));
            for entry in walk.filter_map(Result::ok) {
                let name = entry.file_name().to_string_lossy();
                if entry.file_type().is_dir() || !(name == SKILL_FILE || MEMORY_FILES.contains(&name.as_ref())) {
                    continue;
                }
                let Ok(rel) = entry.path().strip_prefix(base) else { continue };
                let utf8 = rel.to_str().is_some();
                let rel = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
                match utf8 {
                    true => candidates.push((rel, entry.path_is_symlink())),
                    false => found.problems.push(ReadError::NameNotUtf8(root.display_path(&rel)).into_diagnostic()),
                }
            }
        }
    }
    // Regular files first, so a link to a file already read is the one skipped.
    candidates.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    let mut seen = BTreeSet::new();
    for (rel, is_link) in candidates {
        let display = root.display_path(&rel);
        let file = match root.read(&rel) {
            Ok(file) => file,
            Err(e @ ReadError::Escapes(_)) if is_link => {
                let message = format!("{} (a link leading out of the directory is not followed)", e.message());
                found.warnings.push(Diagnostic::warning(message).code(Code::MAN003).in_file(display));
                continue;
            }
            Err(e) => {
                found.problems.push(e.into_diagnostic().in_file(display));
                continue;
            }
        };
        if let Ok(canonical) = root.resolve(&file.rel) {
            if !seen.insert(canonical) {
                continue;
            }
        }
        found.sources.insert_shared(&display, file.text.clone());
        let name = Path::new(&rel).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name == SKILL_FILE {
            let mut skill = SkillDoc::new(display, rel, file.text);
            if skill.folder.is_empty() {
                // SKILL.md at the root: its folder is the root directory itself.
                skill.folder = root.canonical().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            }
            found.skills.push(skill);
        } else {
            found.memory.push(MemoryDoc { file: display, rel, text: file.text });
        }
    }
    found.skills.sort_by(|a, b| a.rel.cmp(&b.rel));
    found.memory.sort_by(|a, b| a.rel.cmp(&b.rel));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_of_keys_and_values() {
        let text = "---\nname: pdf-tools\ndescription: >-\n  Folded.\nname2: x\n---\nname: in the body\n";
        let doc = SkillDoc::new("s/pdf/SKILL.md".into(), "s/pdf/SKILL.md".into(), SharedText::new(text));
        assert_eq!(doc.folder, "pdf");
        assert_eq!(doc.key_span("name").map(|r| &text[r]), Some("name"));
        assert_eq!(doc.value_span("name").map(|r| &text[r]), Some("pdf-tools"));
        assert_eq!(doc.value_span("description").map(|r| &text[r]), Some("description"));
        assert_eq!(doc.key_span("missing"), None);
        assert_eq!(doc.body(), "name: in the body\n");
    }

    #[cfg(unix)]
    #[test]
    fn a_walk_names_a_path_that_is_not_utf8() {
        use std::os::unix::ffi::OsStrExt;
        let project = tempfile::tempdir().expect("tempdir");
        let dir = project.path().join(std::ffi::OsStr::from_bytes(b"d\xffx"));
        std::fs::create_dir(&dir).expect("mkdir");
        std::fs::write(dir.join("AGENTS.md"), "Notes.").expect("write");
        let found = discover(&ProjectRoot::new(project.path()).expect("root"), None);
        assert!(found.memory.is_empty());
        let messages: Vec<&str> = found.problems.iter().map(|d| d.message.as_str()).collect();
        assert!(matches!(messages[..], [m] if m.contains("d\u{FFFD}x/AGENTS.md` is not valid UTF-8")), "{messages:?}");
    }
}
