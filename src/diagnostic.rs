//! Diagnostics as data. Every pipeline stage collects these instead of stopping at the first
//! problem; reporters turn them into miette output, JSON or other formats at the edge.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde::Serialize;

pub use crate::codes::Code;
use crate::memo::{KeyMap, SharedText};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// Where a value was written (a manifest line, a file), for diagnostics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Origin {
    pub file: String,
    pub span: Option<Range<usize>>,
}

/// One finding, pointing at a file (by its display path) and a byte range in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// The rule's stable code (see the rule registry); `None` for input that cannot be loaded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<Code>,
    pub severity: Severity,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Range<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// The span holds a secret: reporters must not print its text (see [`redact`]).
    #[serde(skip)]
    pub redact: bool,
    /// Other places that led here (the includes through which a template was reached).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
    /// An edit that makes the finding go away (`ctxc check --fix`, editor code actions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Box<Fix>>,
    /// The same finding in other files may be reported once, with every place (an unknown key
    /// repeated in many files: see `lint::group`).
    #[serde(skip)]
    pub groupable: bool,
}

/// Whether a fix can be applied without review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Keeps the file's meaning: applied by `--fix`.
    Safe,
    /// May change what the file means (a rename, a removed line): applied only with `--unsafe-fixes`.
    Unsafe,
}

/// A fix: what it does, in a few words ("rename `Name` to `name`"), and its edits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    // Fields in alphabetical order, as every key of the JSON output.
    pub applicability: Applicability,
    pub edits: Vec<Edit>,
    pub title: String,
}

/// Replaces a byte range of a file (by display path) with new text; an empty range inserts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Edit {
    pub file: String,
    pub replacement: String,
    pub span: Range<usize>,
}

impl Fix {
    pub fn safe(title: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix { title: title.into(), applicability: Applicability::Safe, edits }
    }

    pub fn unsafe_(title: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix { title: title.into(), applicability: Applicability::Unsafe, edits }
    }
}

impl Edit {
    pub fn replace(file: impl Into<String>, span: Range<usize>, replacement: impl Into<String>) -> Edit {
        Edit { file: file.into(), span, replacement: replacement.into() }
    }
}

/// A place related to a finding, with what it is (e.g. "included here").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Related {
    pub file: String,
    pub span: Option<Range<usize>>,
    pub message: String,
}

impl Diagnostic {
    pub fn error(message: impl Into<String>) -> Self {
        Diagnostic {
            code: None,
            severity: Severity::Error,
            message: message.into(),
            file: None,
            span: None,
            label: None,
            help: None,
            redact: false,
            related: Vec::new(),
            fix: None,
            groupable: false,
        }
    }

    pub fn warning(message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(message) }
    }

    /// A lint rule's finding. Its code and severity are its rule's (the rule's `Definition`
    /// decides, and the lint stage sets them), so a check never chooses a severity; until then it
    /// reads as a warning.
    pub fn finding(message: impl Into<String>) -> Self {
        Diagnostic::warning(message)
    }

    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    pub fn at(mut self, span: Option<Range<usize>>) -> Self {
        self.span = span;
        self
    }

    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    pub fn code(mut self, code: Code) -> Self {
        self.code = Some(code);
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn related(mut self, related: Vec<Related>) -> Self {
        self.related = related;
        self
    }

    pub fn fix(mut self, fix: Fix) -> Self {
        self.fix = Some(Box::new(fix));
        self
    }

    /// Lets the report group this finding with the same one in other files.
    pub fn groupable(mut self) -> Self {
        self.groupable = true;
        self
    }

    /// Marks the span as secret: reporters mask it instead of printing it.
    pub fn redacted(mut self) -> Self {
        self.redact = true;
        self
    }
}

/// A secret shown safely: its first four characters and an ellipsis.
pub fn redact(secret: &str) -> String {
    let shown: String = secret.chars().take(4).collect();
    format!("{shown}…")
}

/// The text of every file a run has read, by display path, so reporters can show snippets and
/// compute line and column numbers without reading anything again. Texts are shared by content:
/// the many agents of a project that read the same files hold one copy.
///
/// Reporters reach a text through [`Sources::line_col`], [`Sources::line_range`] and
/// [`Sources::excerpt`], which do work bounded by what they return, not by the file: each
/// adds what it read to [`Sources::work`], so a test can tell a report that is linear in its
/// findings from one that reads a whole file per finding ([`Sources::get`] counts the whole
/// text).
#[derive(Debug, Default, Clone)]
pub struct Sources {
    files: BTreeMap<String, SharedText>,
    /// Line indexes of the texts, made on first use (see [`Sources::line_col`]); shared by clones.
    line_indexes: Arc<Mutex<KeyMap<u128, Arc<LineIndex>>>>,
    /// Secrets a finding redacted (a credential in an MCP server's `env`), by value: every
    /// output masks them wherever they appear, as it masks what the SEC patterns find.
    secrets: BTreeSet<String>,
    /// Bytes read through this value and its clones (see the type's documentation).
    work: Arc<AtomicUsize>,
}

/// Where each line of a text starts, and how many characters precede every block of
/// [`BLOCK`] bytes: a column is then counted over at most one block.
#[derive(Debug)]
struct LineIndex {
    starts: Vec<usize>,
    chars_before_block: Vec<usize>,
}

/// Bytes between two character-count checkpoints of a [`LineIndex`].
const BLOCK: usize = 4096;

/// Characters in a byte range of UTF-8 text (which need not start or end on a character
/// boundary): the bytes that start a character.
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
}

impl Sources {
    pub fn insert(&mut self, path: impl Into<String>, text: &str) {
        self.insert_shared(path, SharedText::new(text));
    }

    pub fn insert_shared(&mut self, path: impl Into<String>, text: SharedText) {
        self.files.insert(path.into(), text);
    }

    /// A file's whole text (counted as work: see the type's documentation).
    pub fn get(&self, path: &str) -> Option<&str> {
        let text = self.files.get(path).map(|text| &**text)?;
        self.charge(text.len());
        Some(text)
    }

    /// A byte range of a file's text, clamped to it and widened to character boundaries.
    pub fn excerpt(&self, path: &str, range: Range<usize>) -> Option<&str> {
        let text = &**self.files.get(path)?;
        let mut start = range.start.min(text.len());
        let mut end = range.end.min(text.len()).max(start);
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        while !text.is_char_boundary(end) {
            end += 1;
        }
        self.charge(end - start);
        Some(&text[start..end])
    }

    /// Whether a file is known, without reading it.
    pub fn contains(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }

    /// A file's length in bytes.
    pub fn len_of(&self, path: &str) -> Option<usize> {
        self.files.get(path).map(|text| text.len())
    }

    /// Bytes read through this value and its clones so far.
    pub fn work(&self) -> usize {
        self.work.load(Ordering::Relaxed)
    }

    fn charge(&self, bytes: usize) {
        self.work.fetch_add(bytes, Ordering::Relaxed);
    }

    /// Registers a secret a finding redacted (by value), so that every output masks it.
    pub fn register_secret(&mut self, value: &str) {
        self.secrets.insert(value.to_string());
    }

    /// The secrets findings redacted, by value.
    pub fn secrets(&self) -> &BTreeSet<String> {
        &self.secrets
    }

    /// A file's text with its content hash (to key what is computed once per text).
    pub fn get_shared(&self, path: &str) -> Option<&SharedText> {
        self.files.get(path)
    }

    /// Every file, by display path, sorted, as shared texts.
    pub fn iter_shared(&self) -> impl Iterator<Item = (&str, &SharedText)> {
        self.files.iter().map(|(path, text)| (path.as_str(), text))
    }

    /// Every file, by display path, sorted, with its content hash.
    pub fn iter_hashed(&self) -> impl Iterator<Item = (&str, &str, u128)> {
        self.iter_shared().map(|(path, text)| (path, &**text, text.hash()))
    }

    /// Replaces the text of every file of `files` for which `change` returns a new one.
    pub fn rewrite(&mut self, files: &std::collections::HashSet<String>, change: impl Fn(&str, u128) -> Option<String>) {
        let chosen = self.iter_hashed().filter(|(path, ..)| files.contains(*path));
        let changed: Vec<(String, String)> =
            chosen.filter_map(|(path, text, hash)| change(text, hash).map(|new| (path.to_string(), new))).collect();
        for (path, text) in changed {
            self.insert(path, &text);
        }
    }

    pub fn extend(&mut self, other: Sources) {
        self.files.extend(other.files);
        self.secrets.extend(other.secrets);
    }

    /// Every file, by display path, sorted.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.files.iter().map(|(path, text)| (path.as_str(), &**text))
    }

    /// 1-based line and column (in characters) of a byte offset in a known file. A lookup in an
    /// index of the file's lines (made once per text), so that placing each of many findings in a
    /// large file does not read the file again; the column is counted from the nearest
    /// checkpoint, over at most `BLOCK` bytes.
    pub fn line_col(&self, path: &str, offset: usize) -> Option<(usize, usize)> {
        let (text, index, line) = self.line_of(path, offset)?;
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let start = index.starts[line - 1].min(offset);
        let chars_before = |at: usize| {
            let block = at / BLOCK;
            self.charge(at - block * BLOCK);
            index.chars_before_block[block] + chars_in(&text.as_bytes()[block * BLOCK..at])
        };
        Some((line, chars_before(offset) - chars_before(start) + 1))
    }

    /// The byte range of the line holding `offset` in a known file, without its line break.
    pub fn line_range(&self, path: &str, offset: usize) -> Option<Range<usize>> {
        let (text, index, line) = self.line_of(path, offset)?;
        let start = index.starts[line - 1];
        let end = match index.starts.get(line) {
            Some(&next) if next > start && text.as_bytes()[next - 1] == b'\n' => next - 1,
            _ => text.len(),
        };
        Some(start..end.max(start))
    }

    /// A known file's text, its line index, and the 1-based number of the line holding `offset`.
    fn line_of(&self, path: &str, offset: usize) -> Option<(&str, Arc<LineIndex>, usize)> {
        let text = self.files.get(path)?;
        let index = {
            let mut indexes = self.line_indexes.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            Arc::clone(indexes.entry(text.hash()).or_insert_with(|| {
                self.charge(text.len());
                Arc::new(line_index(text))
            }))
        };
        let line = index.starts.partition_point(|&start| start <= offset.min(text.len()));
        Some((text, index, line))
    }
}

fn line_index(text: &str) -> LineIndex {
    let after_breaks = text.match_indices('\n').map(|(i, _)| i + 1).filter(|&i| i < text.len());
    let starts = std::iter::once(0).chain(after_breaks).chain((!text.is_empty() && text.ends_with('\n')).then_some(text.len())).collect();
    let mut chars_before_block = vec![0];
    for block in text.as_bytes().chunks(BLOCK) {
        chars_before_block.push(chars_before_block.last().copied().unwrap_or(0) + chars_in(block));
    }
    LineIndex { starts, chars_before_block }
}

/// 1-based line and column (in characters) of a byte offset; offsets past the end clamp to it.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Byte offset of a 1-based line and column (in characters).
pub fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start = if line <= 1 { 0 } else { text.match_indices('\n').nth(line - 2).map_or(text.len(), |(i, _)| i + 1) };
    let rest = &text[line_start..];
    let in_line = rest
        .char_indices()
        .take_while(|(_, c)| *c != '\n')
        .nth(column.saturating_sub(1))
        .map_or_else(|| rest.find('\n').unwrap_or(rest.len()), |(i, _)| i);
    line_start + in_line
}

/// Diagnostics collected by a stage. `has_errors` decides whether the run can go on.
pub type Diagnostics = Vec<Diagnostic>;

/// Why an input could not be loaded or rendered: the diagnostics and the sources they point into.
#[derive(Debug, Clone)]
pub struct Failure {
    pub diagnostics: Vec<Diagnostic>,
    pub sources: Sources,
}

/// Adds `d` unless the same finding (code, message and place) is already there; then only the
/// places that led to it are added to the one reported, so a file reached from many places is
/// reported once.
pub fn push_once(diagnostics: &mut Vec<Diagnostic>, d: Diagnostic) {
    let same = |e: &&mut Diagnostic| e.code == d.code && e.message == d.message && e.file == d.file && e.span == d.span;
    match diagnostics.iter_mut().find(|e| same(e)) {
        Some(existing) => {
            for r in d.related {
                if !existing.related.contains(&r) {
                    existing.related.push(r);
                }
            }
        }
        None => diagnostics.push(d),
    }
}

pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.severity == Severity::Error)
}

/// A number as messages print it, thousands separated like the tables: `7,160`, `-1,204`.
pub fn grouped(n: impl std::fmt::Display) -> String {
    let text = n.to_string();
    let (sign, digits) = match text.strip_prefix('-') {
        Some(digits) => ("-", digits),
        None => ("", text.as_str()),
    };
    let mut out = String::with_capacity(text.len() + digits.len() / 3);
    out.push_str(sign);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// "Did you mean" for a misspelt name, from a list of valid ones.
pub fn did_you_mean<'a>(wrong: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (wrong.chars().count() / 3).max(2);
    candidates
        .into_iter()
        .map(|c| (strsim::levenshtein(&wrong.to_lowercase(), &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {

    #[test]
    fn indexed_line_col_agrees_with_counting() {
        let mut sources = Sources::default();
        for (n, text) in ["", "a", "ab\n", "ab\ncd", "\n\nx\n", "é\nxé\ny\n"].iter().enumerate() {
            let path = format!("f{n}");
            sources.insert(path.clone(), text);
            for offset in 0..=text.len() + 1 {
                assert_eq!(sources.line_col(&path, offset), Some(line_col(text, offset)), "{text:?} at {offset}");
            }
        }
    }

    use super::*;

    #[test]
    fn indexed_lines_and_columns_agree_with_counting() {
        for text in ["", "a", "a\n", "a\nb", "héllo\nwörld\n\nend", "\n\n"] {
            let mut sources = Sources::default();
            sources.insert("f.md", text);
            for offset in 0..=text.len() + 1 {
                assert_eq!(sources.line_col("f.md", offset), Some(line_col(text, offset)), "{text:?} at {offset}");
                let range = sources.line_range("f.md", offset).expect("known file");
                assert!(!text[range.clone()].contains('\n') && range.start <= offset.min(text.len()), "{text:?} at {offset}: {range:?}");
            }
        }
    }

    #[test]
    fn line_col_counts_characters_and_lines() {
        let text = "ab\nçd\r\nef";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 3), (2, 1));
        assert_eq!(line_col(text, 5), (2, 2));
        assert_eq!(line_col(text, 9), (3, 2));
        assert_eq!(offset_of(text, 2, 2), 5);
        assert_eq!(offset_of(text, 3, 1), 8);
    }

    #[test]
    fn suggests_close_names_only() {
        let keys = ["agent", "pipeline", "modes", "modules"];
        assert_eq!(did_you_mean("agnet", keys), Some("agent"));
        assert_eq!(did_you_mean("mode", keys), Some("modes"));
        assert_eq!(did_you_mean("banana", keys), None);
    }
}
