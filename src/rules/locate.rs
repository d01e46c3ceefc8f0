//! Pointing findings at the text they are about: a value in the manifest, a step, a tool in its
//! file, or any text in the files a run read.

use std::ops::Range;
use std::sync::Arc;

use super::context::Context;
use crate::diagnostic::{Diagnostic, Sources};
use crate::manifest::model::CategoryTool;
use crate::memo::{Cache, KeyMap, Kind, SharedText};

/// A file (display path) and a byte range in it.
pub type Place = (String, Option<Range<usize>>);

/// The range of `needle` in `text`, preferring a quoted occurrence (`"needle"` or `'needle'`,
/// the quotes included) over a bare one.
pub fn quoted_or_bare(text: &str, needle: &str) -> Option<Range<usize>> {
    if needle.is_empty() {
        return None;
    }
    for quote in ['"', '\''] {
        if let Some(i) = text.find(&format!("{quote}{needle}{quote}")) {
            return Some(i..i + needle.len() + 2);
        }
    }
    text.find(needle).map(|i| i..i + needle.len())
}

/// The first of `preferred` files (display paths), then of all sources, that contains `needle`.
pub fn in_sources(sources: &Sources, preferred: &[String], needle: &str) -> Option<(String, Range<usize>)> {
    let preferred = preferred.iter().filter_map(|f| sources.get(f).map(|t| (f.as_str(), t)));
    preferred.chain(sources.iter()).find_map(|(file, text)| text.find(needle).map(|i| (file.to_string(), i..i + needle.len())))
}

/// The manifest's display path and text.
pub fn manifest<'a>(cx: &Context<'a>) -> (String, &'a str) {
    let file = cx.agent().map(|a| a.manifest_display.clone()).unwrap_or_default();
    let text = cx.sources.get(&file).unwrap_or("");
    (file, text)
}

/// A value written in the manifest (first quoted occurrence, else bare).
pub fn in_manifest(cx: &Context, needle: &str) -> Place {
    let (file, text) = manifest(cx);
    let span = quoted_or_bare(text, needle);
    (file, span)
}

/// A `key = value` / `key: value` line in the manifest: the range of the value.
pub fn manifest_key(cx: &Context, key: &str) -> Place {
    let (file, text) = manifest(cx);
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix(key) {
            let rest_trimmed = rest.trim_start();
            if let Some(value) = rest_trimmed.strip_prefix(['=', ':']) {
                let start = offset + (line.len() - value.len()) + (value.len() - value.trim_start().len());
                let end = offset + line.trim_end().len();
                return (file, Some(start..end.max(start)));
            }
        }
        offset += line.len();
    }
    (file, None)
}

/// Where a pipeline step is declared: its id in the manifest, else (a preset's step) the preset
/// name.
pub fn step(cx: &Context, id: &str) -> Place {
    let (file, text) = manifest(cx);
    for pattern in [format!("id = \"{id}\""), format!("id = '{id}'"), format!("id: \"{id}\""), format!("id: {id}\n"), format!("id: {id},")]
    {
        if let Some(i) = text.find(&pattern) {
            let value_start = i + pattern.find(id).unwrap_or(0);
            return (file, Some(value_start..value_start + id.len()));
        }
    }
    // A step from the preset: point at `preset = "..."`.
    let _ = text;
    manifest_key(cx, "preset")
}

/// Where a tool is defined: its name in its source file.
pub fn tool(cx: &Context, tool: &CategoryTool) -> Place {
    let file = cx.display(&tool.source);
    let span = cx.sources.get_shared(&file).and_then(|text| names_in(cx.root.cache(), text).place(&tool.tool.name));
    (file, span)
}

/// The first occurrence of `needle` in a tool's file within the tool's own text (from its name to
/// the next tool's name), else the tool's name.
pub fn in_tool(cx: &Context, t: &CategoryTool, needle: &str) -> Place {
    let file = cx.display(&t.source);
    let Some(text) = cx.sources.get_shared(&file) else { return (file, None) };
    let index = names_in(cx.root.cache(), text);
    let at = index.place(&t.tool.name);
    let from = at.as_ref().map_or(0, |r| r.start);
    let to = index.next_name_after(from).unwrap_or(text.len());
    match text.get(from..to).and_then(|own| own.find(needle)) {
        Some(i) => (file, Some(from + i..from + i + needle.len())),
        None => (file, at),
    }
}

/// Where the tool names of one file are written, found in one pass over it so that locating each
/// of many tools costs a lookup, not a search of the file.
#[derive(Default)]
struct NameIndex {
    /// The first `"name": "X"` (JSON), `name = "X"` (TOML) or `name: X` (YAML) of each name `X`,
    /// the quotes included when there are some.
    named: KeyMap<String, Range<usize>>,
    /// The first occurrence of each quoted string (`"X"`, quotes included), for names written
    /// under another key.
    quoted: KeyMap<String, Range<usize>>,
    /// The starts of every `named` occurrence, sorted.
    starts: Vec<usize>,
}

impl NameIndex {
    fn place(&self, name: &str) -> Option<Range<usize>> {
        let quoted = format!("\"{name}\"");
        self.named.get(&quoted).or_else(|| self.quoted.get(&quoted)).or_else(|| self.named.get(name)).cloned()
    }

    fn add_named(&mut self, text: &str, key_end: usize) {
        if let Some(value) = key_value(text, key_end) {
            self.starts.push(value.start);
            self.named.entry(text[value.clone()].to_string()).or_insert(value);
        }
    }

    fn next_name_after(&self, offset: usize) -> Option<usize> {
        let i = self.starts.partition_point(|&s| s <= offset);
        self.starts.get(i).copied()
    }
}

fn names_in(cache: &Cache, text: &SharedText) -> Arc<NameIndex> {
    cache.get_or_insert(Kind::NameIndex, text.hash(), || Arc::new(index_names(text)))
}

fn index_names(text: &str) -> NameIndex {
    let mut index = NameIndex::default();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let end = closing_quote(bytes, i + 1);
                if &text[i..end] == "\"name\"" {
                    index.add_named(text, end);
                }
                index.quoted.entry(text[i..end].to_string()).or_insert(i..end);
                i = end;
            }
            b'n' if text[i..].starts_with("name") && (i == 0 || !is_word(bytes[i - 1])) => {
                index.add_named(text, i + 4);
                i += 4;
            }
            _ => i += 1,
        }
    }
    index.starts.sort_unstable();
    index
}

/// The end (exclusive, after the quote) of a double-quoted string whose text starts at `from`.
fn closing_quote(bytes: &[u8], mut from: usize) -> usize {
    while from < bytes.len() {
        match bytes[from] {
            b'\\' => from += 2,
            b'"' => return from + 1,
            b'\n' => return from,
            _ => from += 1,
        }
    }
    bytes.len()
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// After a `name` key (ending at `after`): the range of its value when a `:` or `=` follows on
/// the same line; a quoted value with its quotes, a bare one to the end of the line or a `,` / `}`.
fn key_value(text: &str, after: usize) -> Option<Range<usize>> {
    let value = text[after..].trim_start_matches([' ', '\t']).strip_prefix([':', '='])?.trim_start_matches([' ', '\t']);
    let start = text.len() - value.len();
    if value.starts_with('"') {
        return Some(start..closing_quote(text.as_bytes(), start + 1));
    }
    let len = value.find(['\n', '\r', ',', '}', '#']).unwrap_or(value.len());
    let bare = value[..len].trim_end();
    (!bare.is_empty()).then(|| start..start + bare.len())
}

/// The diagnostic placed at a file and range.
pub fn at(d: Diagnostic, place: Place) -> Diagnostic {
    let (file, span) = place;
    if file.is_empty() {
        d
    } else {
        d.in_file(file).at(span)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexes_tool_names_in_json_toml_and_yaml() {
        let json = r#"[{"name": "search", "description": "Find \"name\": x"}, {"name":"fetch","x":"search"}]"#;
        let index = index_names(json);
        assert_eq!(index.place("search").map(|r| &json[r]), Some("\"search\""));
        assert_eq!(index.place("fetch").map(|r| r.start), json.find("\"fetch\""));
        assert_eq!(index.next_name_after(json.find("search").unwrap_or(0)), json.find("\"fetch\""));
        let toml = "[[tools.web.tool]]\nname = \"web_search\"\nrename = \"x\"\n";
        assert_eq!(index_names(toml).place("web_search").map(|r| r.start), toml.find("\"web_search\""));
        assert_eq!(index_names(toml).place("x").map(|r| r.start), toml.find("\"x\""), "found as a quoted string only");
        let yaml = "tools:\n  - name: lookup  # a comment\n    description: y\n";
        assert_eq!(index_names(yaml).place("lookup").map(|r| &yaml[r]), Some("lookup"));
        assert_eq!(index_names(yaml).place("absent"), None);
    }
}
