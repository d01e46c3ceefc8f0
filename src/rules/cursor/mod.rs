//! The Cursor family: project rules (`.cursor/rules/*.mdc`) and the legacy `.cursorrules`.
//! Cursor reads a rule's frontmatter line by line (`globs: **/*.ts` is the documented style and
//! is not YAML), so [`raw_front`] is the one lenient frontmatter reader ctxc keeps.

use std::ops::Range;

use crate::agent_files::{Doc, FileKind};
use crate::rules::context::Context;
use crate::rules::globs::split_globs;

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod cursor001_frontmatter_missing;
pub mod cursor002_frontmatter_unterminated;
pub mod cursor003_unknown_field;
pub mod cursor004_always_apply_not_boolean;
pub mod cursor005_always_apply_with_globs;
pub mod cursor006_globs_space_separated;
pub mod cursor007_glob_quoted;
pub mod cursor008_glob_invalid;
pub mod cursor009_glob_anchored;
pub mod cursor010_glob_empty_entry;
pub mod cursor012_empty_body;
pub mod cursor013_rule_too_long;
pub mod cursor014_legacy_cursorrules;
pub mod cursor015_cursorrules_beside_rules;
pub mod cursor016_cursorrules_empty;
pub mod cursor017_duplicate_field;
pub mod cursor018_cursorrules_inside_cursor_folder;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Cursor project rules (`.cursor/rules/*.mdc`) and the legacy `.cursorrules`.";

/// One top-level `key: value` line of frontmatter, with the `- item` lines below it.
#[derive(Debug, Clone, PartialEq)]
pub struct RawField {
    pub key: String,
    pub key_span: Range<usize>,
    /// The value as written on the key's line, trimmed (quotes kept).
    pub value: String,
    /// Where the value is (the key's span when the value is empty).
    pub value_span: Range<usize>,
    /// `- item` lines of a block list under the key, trimmed, with their spans.
    pub items: Vec<(String, Range<usize>)>,
    /// The whole field, from the key to the end of its last line (line break included).
    pub line_span: Range<usize>,
}

/// Frontmatter read as lines.
#[derive(Debug, Clone, PartialEq)]
pub struct RawFront {
    pub fields: Vec<RawField>,
    /// Byte offset where the body (after the closing `---`) starts.
    pub body_start: usize,
}

impl RawFront {
    pub fn get(&self, key: &str) -> Option<&RawField> {
        self.fields.iter().find(|f| f.key == key)
    }
}

/// Why frontmatter could not be read.
#[derive(Debug, Clone, PartialEq)]
pub enum RawError {
    /// The file does not start with `---`.
    Missing,
    /// An opening `---` with no closing one (the byte range of the opening line).
    Unterminated(Range<usize>),
}

/// Reads frontmatter as `key: raw value` lines; nothing in a value is interpreted.
pub fn raw_front(text: &str) -> Result<RawFront, RawError> {
    let first_end = text.find('\n').map_or(text.len(), |i| i + 1);
    if text[..first_end].trim_end() != "---" {
        return Err(RawError::Missing);
    }
    let mut fields: Vec<RawField> = Vec::new();
    let mut offset = first_end;
    for line in text[first_end..].split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        if content.trim_end() == "---" {
            return Ok(RawFront { fields, body_start: offset });
        }
        let indented = content.starts_with([' ', '\t']);
        let trimmed = content.trim();
        if indented || trimmed.starts_with('-') {
            if let (Some(field), Some(item)) = (fields.last_mut(), trimmed.strip_prefix('-')) {
                let item = item.trim();
                let item_start = start + content.find(item).unwrap_or(0);
                field.items.push((item.to_string(), item_start..item_start + item.len()));
            }
            if let Some(field) = fields.last_mut() {
                field.line_span.end = offset;
            }
            continue;
        }
        let Some(colon) = content.find(':') else { continue };
        let key = &content[..colon];
        if key.is_empty() || trimmed.starts_with('#') || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            continue;
        }
        let after = &content[colon + 1..];
        let value = after.trim();
        let key_span = start..start + key.len();
        let value_span = match value.is_empty() {
            true => key_span.clone(),
            false => {
                let v = start + colon + 1 + (after.len() - after.trim_start().len());
                v..v + value.len()
            }
        };
        fields.push(RawField {
            key: key.to_string(),
            key_span,
            value: value.to_string(),
            value_span,
            items: Vec::new(),
            line_span: start..offset,
        });
    }
    Err(RawError::Unterminated(0..first_end.saturating_sub(1)))
}

/// A value without one pair of matching surrounding quotes.
pub fn unquote(value: &str) -> &str {
    for q in ['"', '\''] {
        if value.len() >= 2 && value.starts_with(q) && value.ends_with(q) {
            return &value[1..value.len() - 1];
        }
    }
    value
}

/// The Cursor rules (`.mdc`) whose frontmatter could be read, with it (CURSOR001 and CURSOR002
/// report the others).
pub fn cursor_rules<'a>(cx: &Context<'a>) -> impl Iterator<Item = (&'a Doc, RawFront)> {
    cx.files_of(FileKind::CursorRule).filter_map(|doc| raw_front(&doc.text).ok().map(|front| (doc, front)))
}

/// The globs of a `globs` field written as a comma-separated string, each without its quotes,
/// with its span; empty for a field written as a list (`[…]` or `- item` lines).
pub fn string_globs(field: &RawField) -> Vec<(&str, Range<usize>)> {
    if field.value.starts_with('[') || field.value.is_empty() {
        return Vec::new();
    }
    let whole = unquote(&field.value);
    let start = field.value_span.start + usize::from(whole.len() != field.value.len());
    split_globs(whole, start).into_iter().map(|(g, r)| unquoted(g, r)).collect()
}

/// Every glob of a `globs` field, in any of the forms Cursor accepts: a comma-separated string,
/// a flow list (`["a", "b"]`) or `- item` lines; each without quotes, with its span.
pub fn all_globs(field: &RawField) -> Vec<(&str, Range<usize>)> {
    if let Some(inner) = field.value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        let globs = split_globs(inner, field.value_span.start + 1).into_iter().map(|(g, r)| unquoted(g, r));
        return globs.filter(|(g, _)| !g.is_empty()).collect();
    }
    if field.value.is_empty() {
        return field.items.iter().map(|(g, r)| unquoted(g, r.clone())).collect();
    }
    string_globs(field)
}

/// A glob without one pair of surrounding quotes, and its span moved to match.
fn unquoted(glob: &str, span: Range<usize>) -> (&str, Range<usize>) {
    let inner = unquote(glob);
    let shift = usize::from(inner.len() != glob.len());
    (inner, span.start + shift..span.start + shift + inner.len())
}

/// A Cursor project rule in the folder that holds a `.cursorrules` (its `.cursor/rules/`), if any.
pub fn cursor_rule_beside<'a>(cx: &Context<'a>, legacy: &Doc) -> Option<&'a Doc> {
    let dir = legacy.rel.strip_suffix(".cursorrules").unwrap_or("");
    cx.files_of(FileKind::CursorRule).find(|r| r.rel.strip_prefix(dir).is_some_and(|rest| rest.starts_with(".cursor/rules/")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mdc_frontmatter_that_is_not_yaml() {
        let text = "---\ndescription: TS rules\nglobs: **/*.ts, **/*.{tsx,jsx}\nalwaysApply: false\ntags:\n  - a\n  - \"b\"\n---\nBody\n";
        let front = raw_front(text).expect("frontmatter");
        let globs = front.get("globs").expect("globs");
        assert_eq!(&text[globs.value_span.clone()], "**/*.ts, **/*.{tsx,jsx}");
        let parts: Vec<&str> = split_globs(&globs.value, globs.value_span.start)
            .into_iter()
            .map(|(g, r)| {
                assert_eq!(&text[r], g);
                g
            })
            .collect();
        assert_eq!(parts, ["**/*.ts", "**/*.{tsx,jsx}"]);
        let items: Vec<&str> = front.get("tags").expect("tags").items.iter().map(|(i, _)| i.as_str()).collect();
        assert_eq!(items, ["a", "\"b\""]);
        assert_eq!(&text[front.body_start..], "Body\n");
        assert_eq!(raw_front("---\nglobs: x\n"), Err(RawError::Unterminated(0..3)));
        assert_eq!(raw_front("# title"), Err(RawError::Missing));
    }
}
