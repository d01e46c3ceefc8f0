//! Pointing findings at what they are about: a value in the manifest, a step, a tool in its file
//! (places the files' parsers report), or a rendered text in the files a run read.

use std::ops::Range;
use std::sync::Arc;

use jsonc_parser::ast;
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions, ParseResult};

use super::context::Context;
use crate::diagnostic::{Diagnostic, Sources};
use crate::manifest::model::CategoryTool;
use crate::memo::{content_hash, Cache, Kind};
use crate::yaml::{self, Written};

/// A file (display path) and a byte range in it.
pub type Place = (String, Option<Range<usize>>);

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

/// A value written in the manifest: the first string written so, else the first value.
pub fn in_manifest(cx: &Context, value: &str) -> Place {
    let (file, text) = manifest(cx);
    let span = values_in(cx.root.cache(), text).written(value);
    (file, span)
}

/// Where `value` is written in a manifest's `text` (for a YAML manifest, whose values serde_yaml
/// reads without places): the first string written so, else the first value.
pub fn value_in(text: &str, value: &str) -> Option<Range<usize>> {
    Values::of(text).written(value)
}

/// The value of the first `key` (at any depth) in the manifest.
pub fn manifest_key(cx: &Context, key: &str) -> Place {
    let (file, text) = manifest(cx);
    let span = values_in(cx.root.cache(), text).first(|w| w.key.as_deref() == Some(key));
    (file, span)
}

/// Where a pipeline step is declared: its id in the manifest (without quotes), else (a preset's
/// step) the preset name.
pub fn step(cx: &Context, id: &str) -> Place {
    let (file, text) = manifest(cx);
    let written = values_in(cx.root.cache(), text).first(|w| w.key.as_deref() == Some("id") && w.value == id);
    match written {
        Some(span) => (file, Some(unquoted(text, span))),
        None => manifest_key(cx, "preset"),
    }
}

/// A quoted value's range without its quotes.
fn unquoted(text: &str, span: Range<usize>) -> Range<usize> {
    let quoted = text.get(span.clone()).is_some_and(|v| v.len() >= 2 && v.starts_with(['"', '\'']) && v.ends_with(['"', '\'']));
    match quoted {
        true => span.start + 1..span.end - 1,
        false => span,
    }
}

/// Where a tool is defined: its name in its source file.
pub fn tool(cx: &Context, tool: &CategoryTool) -> Place {
    let file = cx.display(&tool.source);
    let span = cx.sources.get_shared(&file).and_then(|text| values_in(cx.root.cache(), text).tool_name(&tool.tool.name));
    (file, span)
}

/// The first string `value` written in a tool's own part of its file (from its name to the next
/// tool's name), else the tool's name.
pub fn in_tool(cx: &Context, t: &CategoryTool, value: &str) -> Place {
    let file = cx.display(&t.source);
    let Some(text) = cx.sources.get_shared(&file) else { return (file, None) };
    let index = values_in(cx.root.cache(), text);
    let at = index.tool_name(&t.tool.name);
    let from = at.as_ref().map_or(0, |r| r.start);
    let to = index.next_name_after(from).unwrap_or(text.len());
    let own = index.values.iter().find(|w| w.quoted && w.value == value && (from..to).contains(&w.span.start));
    (file, own.map(|w| w.span.clone()).or(at))
}

/// Every value of a file with its place, read by the parser of its format (JSON, JSON Lines,
/// TOML or YAML), in document order: locating each of many values costs a scan of this list,
/// never a search of the text.
#[derive(Default)]
struct Values {
    values: Vec<Written>,
    /// The starts of every `name` value, sorted: where each tool's part of the file begins.
    names: Vec<usize>,
}

impl Values {
    fn of(text: &str) -> Values {
        let mut values = written_json(text).or_else(|| written_toml(text)).unwrap_or_else(|| yaml::written_values(text));
        values.sort_by_key(|w| w.span.start);
        let names = values.iter().filter(|w| w.key.as_deref() == Some("name")).map(|w| w.span.start).collect();
        Values { values, names }
    }

    fn first(&self, wanted: impl Fn(&Written) -> bool) -> Option<Range<usize>> {
        self.values.iter().find(|w| wanted(w)).map(|w| w.span.clone())
    }

    fn written(&self, value: &str) -> Option<Range<usize>> {
        self.first(|w| w.quoted && w.value == value).or_else(|| self.first(|w| w.value == value))
    }

    /// A tool's name: the first `name` written with it, else the first string written so.
    fn tool_name(&self, name: &str) -> Option<Range<usize>> {
        self.first(|w| w.key.as_deref() == Some("name") && w.value == name).or_else(|| self.first(|w| w.quoted && w.value == name))
    }

    fn next_name_after(&self, offset: usize) -> Option<usize> {
        let i = self.names.partition_point(|&s| s <= offset);
        self.names.get(i).copied()
    }
}

fn values_in(cache: &Cache, text: &str) -> Arc<Values> {
    cache.get_or_insert(Kind::NameIndex, content_hash(text), || Arc::new(Values::of(text)))
}

/// The values of a JSON text, or of JSON Lines (one JSON value a line); `None` when it is neither.
fn written_json(text: &str) -> Option<Vec<Written>> {
    if !text.trim_start().starts_with(['{', '[']) {
        return None;
    }
    let mut values = Vec::new();
    if let Some(ParseResult { value: Some(root), .. }) = parse_jsonc(text) {
        json_values(None, &root, 0, &mut values);
        return Some(values);
    }
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if !line.trim().is_empty() {
            let ParseResult { value: Some(root), .. } = parse_jsonc(line)? else { return None };
            json_values(None, &root, offset, &mut values);
        }
        offset += line.len();
    }
    Some(values)
}

fn parse_jsonc(text: &str) -> Option<ParseResult<'_>> {
    jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &ParseOptions::default()).ok()
}

fn json_values(key: Option<&str>, value: &ast::Value, shift: usize, out: &mut Vec<Written>) {
    let span = value.range().start + shift..value.range().end.max(value.range().start) + shift;
    let (text, quoted) = match value {
        ast::Value::StringLit(s) => (s.value.to_string(), true),
        ast::Value::NumberLit(n) => (n.value.to_string(), false),
        ast::Value::BooleanLit(b) => (b.value.to_string(), false),
        _ => (String::new(), false),
    };
    out.push(Written { key: key.map(str::to_string), value: text, span, quoted });
    match value {
        ast::Value::Object(object) => object.properties.iter().for_each(|p| json_values(Some(p.name.as_str()), &p.value, shift, out)),
        ast::Value::Array(array) => array.elements.iter().for_each(|item| json_values(None, item, shift, out)),
        _ => {}
    }
}

/// The values of a TOML text with values in it; `None` when it is not TOML (or holds no value).
fn written_toml(text: &str) -> Option<Vec<Written>> {
    let document = toml_edit::ImDocument::parse(text).ok()?;
    let mut values = Vec::new();
    toml_table(document.as_table(), &mut values);
    (!values.is_empty()).then_some(values)
}

fn toml_table(table: &toml_edit::Table, out: &mut Vec<Written>) {
    for (key, item) in table.iter() {
        match item {
            toml_edit::Item::Value(value) => toml_value(Some(key), value, out),
            toml_edit::Item::Table(inner) => toml_table(inner, out),
            toml_edit::Item::ArrayOfTables(tables) => tables.iter().for_each(|inner| toml_table(inner, out)),
            toml_edit::Item::None => {}
        }
    }
}

fn toml_value(key: Option<&str>, value: &toml_edit::Value, out: &mut Vec<Written>) {
    let Some(span) = value.span() else { return };
    let (text, quoted) = match value {
        toml_edit::Value::String(s) => (s.value().clone(), true),
        toml_edit::Value::Array(_) | toml_edit::Value::InlineTable(_) => (String::new(), false),
        other => (other.to_string().trim().to_string(), false),
    };
    out.push(Written { key: key.map(str::to_string), value: text, span, quoted });
    match value {
        toml_edit::Value::Array(items) => items.iter().for_each(|item| toml_value(None, item, out)),
        toml_edit::Value::InlineTable(table) => table.iter().for_each(|(k, v)| toml_value(Some(k), v, out)),
        _ => {}
    }
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
    fn reads_values_and_tool_names_from_json_json_lines_toml_and_yaml() {
        let json = r#"[{"name": "search", "description": "Find \"name\": x"}, {"name":"fetch","x":"search"}]"#;
        let index = Values::of(json);
        assert_eq!(index.tool_name("search").map(|r| &json[r]), Some("\"search\""));
        assert_eq!(index.tool_name("fetch").map(|r| r.start), json.find("\"fetch\""));
        assert_eq!(index.next_name_after(json.find("search").unwrap_or(0)), json.find("\"fetch\""));
        let lines = "{\"name\": \"a\"}\n\n{\"name\": \"b\", \"n\": 2}\n";
        assert_eq!(Values::of(lines).tool_name("b").map(|r| &lines[r]), Some("\"b\""));
        let toml = "[[tools.web.tool]]\nname = \"web_search\"\nrename = \"x\"  # c\nratio = 0.5 # c\n";
        let index = Values::of(toml);
        assert_eq!(index.tool_name("web_search").map(|r| r.start), toml.find("\"web_search\""));
        assert_eq!(index.tool_name("x").map(|r| &toml[r]), Some("\"x\""), "found as a string under another key");
        assert_eq!(index.first(|w| w.key.as_deref() == Some("ratio")).map(|r| &toml[r]), Some("0.5"), "no comment");
        let yaml = "tools:\n  - name: lookup  # a comment\n    description: y\n    tags: [a, 'b']\nid: 'x'\n";
        let index = Values::of(yaml);
        assert_eq!(index.tool_name("lookup").map(|r| &yaml[r]), Some("lookup"));
        assert_eq!(index.tool_name("b").map(|r| &yaml[r]), Some("'b'"));
        assert_eq!(index.first(|w| w.key.as_deref() == Some("tags")).map(|r| &yaml[r]), Some("[a, 'b']"));
        assert_eq!(index.first(|w| w.key.as_deref() == Some("tools")).map(|r| &yaml[r]), Some("tools"), "a block value: its key");
        assert_eq!(index.first(|w| w.key.as_deref() == Some("id")).map(|r| &yaml[unquoted(yaml, r)]), Some("x"));
        assert_eq!(index.tool_name("absent"), None);
        assert!(Values::of("{\"a\": [1,").values.is_empty() || Values::of("{\"a\": [1,").tool_name("a").is_none());
    }
}
