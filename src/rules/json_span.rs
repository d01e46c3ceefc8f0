//! Where a value of a JSON file is written: the byte ranges of a member's key and value, found by
//! a path of object keys and array indices. serde_json keeps no positions, and findings in
//! settings, `.mcp.json` and tool files point at the key or value they are about.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use crate::agent_files::{Doc, FileKind};
use crate::diagnostic::Diagnostic;
use crate::memo::{content_hash, Cache, Kind};
use crate::rules::context::Context;

/// One step of a path into a JSON document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// Where a value is: its key (`None` for an array item or the root) and the value itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub key: Option<Range<usize>>,
    pub value: Range<usize>,
}

impl Place {
    /// The key when there is one, else the value.
    pub fn key_or_value(&self) -> Range<usize> {
        self.key.clone().unwrap_or_else(|| self.value.clone())
    }

    /// From the key (or the value) to the end of the value: a whole member.
    pub fn member(&self) -> Range<usize> {
        self.key.as_ref().map_or(self.value.start, |k| k.start)..self.value.end
    }
}

/// The place of the value at `path` in `text` (the first member when a key is repeated). The text
/// is indexed once (memoized by content), so locating each of many members costs a lookup per
/// step, not a scan of the document.
pub fn locate(cache: &Cache, text: &str, path: &[Step]) -> Option<Place> {
    let index = cache.get_or_insert(Kind::JsonIndex, content_hash(text), || Arc::new(Index::of(text)));
    let mut node = index.nodes.first()?;
    for step in path {
        let child = match (step, &node.children) {
            (Step::Key(wanted), Children::Object(members)) => members.get(*wanted)?,
            (Step::Index(wanted), Children::Array(items)) => items.get(*wanted)?,
            _ => return None,
        };
        node = &index.nodes[*child];
    }
    Some(node.place.clone())
}

/// Every value of a JSON text with its place; objects map their keys, arrays list their items
/// (indices into `nodes`; the root is the first). Text that is not JSON is indexed as far as it
/// reads as JSON.
#[derive(Default)]
struct Index {
    nodes: Vec<Node>,
}

struct Node {
    place: Place,
    children: Children,
}

enum Children {
    Scalar,
    Object(HashMap<String, usize>),
    Array(Vec<usize>),
}

/// How deep the index follows nested values (serde_json refuses documents nested past 128).
const MAX_DEPTH: usize = 256;

impl Index {
    fn of(text: &str) -> Index {
        let mut index = Index::default();
        let b = text.as_bytes();
        let start = skip_ws(b, 0);
        if start < b.len() {
            index.add(text, None, start, 0);
        }
        index
    }

    /// Adds the value starting at `at` (with its key), and what it holds; returns its node.
    fn add(&mut self, text: &str, key: Option<Range<usize>>, at: usize, depth: usize) -> usize {
        let b = text.as_bytes();
        let id = self.nodes.len();
        self.nodes.push(Node { place: Place { key, value: at..value_end(b, at) }, children: Children::Scalar });
        let children = match b.get(at) {
            Some(b'{') if depth < MAX_DEPTH => Children::Object(self.members(text, at, depth)),
            Some(b'[') if depth < MAX_DEPTH => Children::Array(self.items(text, at, depth)),
            _ => Children::Scalar,
        };
        self.nodes[id].children = children;
        id
    }

    fn members(&mut self, text: &str, at: usize, depth: usize) -> HashMap<String, usize> {
        let b = text.as_bytes();
        let mut members = HashMap::new();
        let mut i = skip_ws(b, at + 1);
        while b.get(i) == Some(&b'"') {
            let key_end = string_end(b, i);
            let raw = &text[i..key_end];
            let name = match raw.contains('\\') {
                true => serde_json::from_str::<String>(raw).ok(),
                false => raw.get(1..raw.len().saturating_sub(1).max(1)).map(str::to_string),
            };
            let value_start = skip_ws(b, skip_ws(b, key_end) + 1);
            let node = self.add(text, Some(i..key_end), value_start, depth + 1);
            if let Some(name) = name {
                members.entry(name).or_insert(node);
            }
            i = skip_ws(b, self.nodes[node].place.value.end);
            if b.get(i) != Some(&b',') {
                break;
            }
            i = skip_ws(b, i + 1);
        }
        members
    }

    fn items(&mut self, text: &str, at: usize, depth: usize) -> Vec<usize> {
        let b = text.as_bytes();
        let mut items = Vec::new();
        let mut i = skip_ws(b, at + 1);
        while i < b.len() && b[i] != b']' {
            let node = self.add(text, None, i, depth + 1);
            items.push(node);
            i = skip_ws(b, self.nodes[node].place.value.end);
            if b.get(i) != Some(&b',') {
                break;
            }
            i = skip_ws(b, i + 1);
        }
        items
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The end (exclusive) of the string starting with the quote at `i`.
fn string_end(b: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// The end (exclusive) of the value starting at `i`.
fn value_end(b: &[u8], i: usize) -> usize {
    match b.get(i) {
        Some(b'"') => string_end(b, i),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = string_end(b, j);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            b.len()
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']') && !b[j].is_ascii_whitespace() {
                j += 1;
            }
            j
        }
    }
}

/// The JSON files of one kind that parse, with their values.
pub fn json_docs<'a>(cx: &Context<'a>, kinds: &'a [FileKind]) -> Vec<(&'a Doc, crate::agent_files::ParsedJson)> {
    cx.files.iter().filter(|d| kinds.contains(&d.kind)).map(|d| (d, d.json())).filter(|(_, v)| v.is_ok()).collect()
}

/// Where the value at `path` (a JSON path written as keys) is written in `doc`.
pub fn place(doc: &Doc, path: &[Step]) -> Option<Place> {
    locate(&doc.cache, &doc.text, path)
}

/// A diagnostic in `doc` at the key (or value) of `path`.
pub fn at_key(d: Diagnostic, doc: &Doc, path: &[Step]) -> Diagnostic {
    d.in_file(&doc.file).at(place(doc, path).map(|p| p.key_or_value()))
}

/// A diagnostic in `doc` at the value of `path`.
pub fn at_value(d: Diagnostic, doc: &Doc, path: &[Step]) -> Diagnostic {
    d.in_file(&doc.file).at(place(doc, path).map(|p| p.value))
}

/// The range to delete to remove the object member at `at`: the member and the comma after it
/// (or, for the last member, the comma before it), so the JSON stays valid.
pub fn remove_member(text: &str, at: &Place) -> Option<Range<usize>> {
    let member = at.member();
    let after = &text[member.end..];
    let gap = after.len() - after.trim_start().len();
    if after[gap..].starts_with(',') {
        let rest = &after[gap + 1..];
        return Some(member.start..member.end + gap + 1 + (rest.len() - rest.trim_start().len()));
    }
    let before = text[..member.start].trim_end();
    before.ends_with(',').then(|| before.len() - 1..member.end)
}

/// A finding for each file of `kinds` that is not valid JSON.
pub fn json_syntax(cx: &Context, kinds: &[FileKind]) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files.iter().filter(|d| kinds.contains(&d.kind)) {
        if let Err((offset, message)) = &*doc.json() {
            findings.push(
                Diagnostic::finding(format!("{} is not valid JSON: {message}", doc.rel))
                    .in_file(&doc.file)
                    .at(Some(*offset..*offset))
                    .help("fix the syntax; JSON allows no comments and no comma after the last item"),
            );
        }
    }
    findings
}

/// Where a part (`part`, byte range in the decoded string `decoded`) of the JSON string at `path`
/// is written: exactly when the string has no escapes, else the whole string.
pub fn string_part(doc: &Doc, path: &[Step], decoded: &str, part: Range<usize>) -> Option<Range<usize>> {
    let value = place(doc, path)?.value;
    let raw = doc.text.get(value.start + 1..value.end.saturating_sub(1))?;
    Some(if raw == decoded { value.start + 1 + part.start..value.start + 1 + part.end } else { value })
}

/// `path` followed by more steps.
pub fn join<'a>(path: &[Step<'a>], more: &[Step<'a>]) -> Vec<Step<'a>> {
    [path, more].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keys_values_and_items() {
        let text = r#"{ "a": {"b\"": 1, "c": [true, {"d": "x,y"}, 3]}, "e": null }"#;
        let place = locate(&Cache::default(), text, &[Step::Key("a"), Step::Key("c"), Step::Index(1), Step::Key("d")]).expect("found");
        assert_eq!((&text[place.key.clone().expect("key")], &text[place.value]), ("\"d\"", "\"x,y\""));
        assert_eq!(locate(&Cache::default(), text, &[Step::Key("a"), Step::Key("b\"")]).map(|p| &text[p.value]), Some("1"));
        assert_eq!(locate(&Cache::default(), text, &[Step::Key("a"), Step::Key("c"), Step::Index(2)]).map(|p| &text[p.value]), Some("3"));
        assert_eq!(locate(&Cache::default(), text, &[Step::Key("e")]).map(|p| &text[p.member()]), Some("\"e\": null"));
        assert_eq!(locate(&Cache::default(), text, &[Step::Key("a"), Step::Key("c"), Step::Index(3)]), None);
        assert_eq!(locate(&Cache::default(), text, &[Step::Key("zz")]), None);
        assert_eq!(locate(&Cache::default(), "[1,", &[Step::Index(1)]), None, "broken JSON gives no place, never a panic");
    }
}
