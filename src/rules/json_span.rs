//! Where a value of a JSON file is written: the byte ranges of a member's key and value, found by
//! a path of object keys and array indices. serde_json keeps no positions, so the places come from
//! jsonc-parser's syntax tree; findings in settings, `.mcp.json` and tool files point at the key or
//! value they are about.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use jsonc_parser::ast;
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions, ParseResult};

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
    locate_hashed(cache, text, content_hash(text), path)
}

/// [`locate`] for a text whose content hash is known: hashing the whole text once per place
/// looked up made a file with a finding per entry quadratic.
fn locate_hashed(cache: &Cache, text: &str, hash: u128, path: &[Step]) -> Option<Place> {
    let index = cache.get_or_insert(Kind::JsonIndex, hash, || Arc::new(Index::of(text)));
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
/// (indices into `nodes`; the root is the first). Read by jsonc-parser, which keeps the range of
/// every key and value; a text it cannot read has no places.
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

fn range(ranged: &impl Ranged) -> Range<usize> {
    let range = ranged.range();
    range.start..range.end.max(range.start)
}

impl Index {
    fn of(text: &str) -> Index {
        let mut index = Index::default();
        // Comments and the JSON5 forms are read too: places are asked of files that parsed as
        // their product reads them, which is never less than strict JSON. The parser refuses
        // nesting past 512 levels, so the recursion below is bounded.
        if let Ok(ParseResult { value: Some(root), .. }) =
            jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &ParseOptions::default())
        {
            index.add(None, &root);
        }
        index
    }

    /// Adds `value` (with its key's range) and what it holds; returns its node.
    fn add(&mut self, key: Option<Range<usize>>, value: &ast::Value) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node { place: Place { key, value: range(value) }, children: Children::Scalar });
        let children = match value {
            ast::Value::Object(object) => {
                let mut members = HashMap::new();
                for property in &object.properties {
                    let node = self.add(Some(range(&property.name)), &property.value);
                    members.entry(property.name.as_str().to_string()).or_insert(node);
                }
                Children::Object(members)
            }
            ast::Value::Array(array) => Children::Array(array.elements.iter().map(|item| self.add(None, item)).collect()),
            _ => Children::Scalar,
        };
        self.nodes[id].children = children;
        id
    }
}

/// The JSON files of one kind that parse, with their values.
pub fn json_docs<'a>(cx: &Context<'a>, kinds: &'a [FileKind]) -> Vec<(&'a Doc, crate::agent_files::ParsedJson)> {
    cx.files.iter().filter(|d| kinds.contains(&d.kind)).map(|d| (d, d.json())).filter(|(_, v)| v.is_ok()).collect()
}

/// Where the value at `path` (a JSON path written as keys) is written in `doc`.
pub fn place(doc: &Doc, path: &[Step]) -> Option<Place> {
    locate_hashed(&doc.cache, &doc.text, doc.text.hash(), path)
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

/// JSON with `//` and `/* */` comments and nothing else beyond it (no trailing comma, no JSON5),
/// as Gemini CLI reads its settings; hosts that allow more set it on top.
pub fn json_with_comments() -> ParseOptions {
    ParseOptions { allow_comments: true, ..crate::providers::chat_template::strict_json() }
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
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(locate(&Cache::default(), &deep, &[Step::Index(0)]), None, "nesting past the parser's limit gives no place");
        let commented = "{\n  // a comment\n  \"a\": [1, 2,],\n}";
        assert_eq!(locate(&Cache::default(), commented, &[Step::Key("a"), Step::Index(1)]).map(|p| &commented[p.value]), Some("2"));
    }
}
