//! Where each key and value of a JSON, JSON Lines, TOML or YAML text is written, as the format's
//! parser reports it (jsonc-parser, toml_edit, saphyr-parser): findings point at a value by
//! asking this list, never by searching the text. serde reads these files into values without
//! places (serde_yaml has none; a manifest's unspanned values neither).

use std::ops::Range;

use jsonc_parser::ast;
use jsonc_parser::common::Ranged;
use jsonc_parser::{CollectOptions, ParseOptions, ParseResult};

pub use crate::yaml::Written;

/// Every key and value of a file with its place, read by the parser of its format (JSON, JSON
/// Lines, TOML or YAML), in document order.
#[derive(Default)]
pub struct Values {
    pub values: Vec<Written>,
    /// The starts of every `name` value, sorted: where each tool's part of the file begins.
    names: Vec<usize>,
}

impl Values {
    pub fn of(text: &str) -> Values {
        let mut values = written_json(text).or_else(|| written_toml(text)).unwrap_or_else(|| crate::yaml::written_values(text));
        values.sort_by_key(|w| w.span.start);
        let names = values.iter().filter(|w| !w.is_key && w.key.as_deref() == Some("name")).map(|w| w.span.start).collect();
        Values { values, names }
    }

    /// The first value (not key) `wanted` accepts.
    pub fn first(&self, wanted: impl Fn(&Written) -> bool) -> Option<Range<usize>> {
        self.values.iter().find(|w| !w.is_key && wanted(w)).map(|w| w.span.clone())
    }

    /// Where `text` is written: the first string written so, else the first value, else the first
    /// key.
    pub fn written(&self, text: &str) -> Option<Range<usize>> {
        let key = || self.values.iter().find(|w| w.is_key && w.value == text).map(|w| w.span.clone());
        self.first(|w| w.quoted && w.value == text).or_else(|| self.first(|w| w.value == text)).or_else(key)
    }

    /// The value at a path of mapping keys (`["agent", "name"]`), else its key when the value is
    /// empty or a block collection.
    pub fn at_path(&self, path: &[&str]) -> Option<Range<usize>> {
        let at = self.key_index(path)?;
        let key = &self.values[at];
        let value = self.values.get(at + 1).filter(|w| !w.is_key && w.depth == key.depth && !w.span.is_empty() && w.span != key.span);
        Some(value.unwrap_or(key).span.clone())
    }

    /// The last key of a path of mapping keys (`["modes", "ask", "tools", "web"]`: `web`).
    pub fn key_at_path(&self, path: &[&str]) -> Option<Range<usize>> {
        Some(self.values[self.key_index(path)?].span.clone())
    }

    /// Where in `values` the last key of `path` is, each step inside its parent found so far
    /// (before the parent's next sibling key). A TOML table whose header comes after other
    /// tables (`[a]`, `[b]`, then `[a.c]`) is not found so: its key is after `b`.
    fn key_index(&self, path: &[&str]) -> Option<usize> {
        let mut from = 0;
        for (i, step) in path.iter().enumerate() {
            let depth = i + 1;
            let rest = &self.values[from..];
            let inside = rest.iter().position(|w| w.is_key && w.depth < depth).unwrap_or(rest.len());
            from += rest[..inside].iter().position(|w| w.is_key && w.depth == depth && w.value == *step)? + 1;
        }
        from.checked_sub(1)
    }

    /// A tool's name: the first `name` written with it, else the first string written so.
    pub fn tool_name(&self, name: &str) -> Option<Range<usize>> {
        self.first(|w| w.key.as_deref() == Some("name") && w.value == name).or_else(|| self.first(|w| w.quoted && w.value == name))
    }

    /// Where the first `name` value after `offset` starts: the end of a tool's part of its file.
    pub fn next_name_after(&self, offset: usize) -> Option<usize> {
        let i = self.names.partition_point(|&s| s <= offset);
        self.names.get(i).copied()
    }
}

/// The values of a JSON text, or of JSON Lines (one JSON value a line); `None` when it is neither.
fn written_json(text: &str) -> Option<Vec<Written>> {
    if !text.trim_start().starts_with(['{', '[']) {
        return None;
    }
    let mut values = Vec::new();
    if let Some(ParseResult { value: Some(root), .. }) = parse_jsonc(text) {
        json_values(None, &root, 0, 0, &mut values);
        return Some(values);
    }
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if !line.trim().is_empty() {
            let ParseResult { value: Some(root), .. } = parse_jsonc(line)? else { return None };
            json_values(None, &root, offset, 0, &mut values);
        }
        offset += line.len();
    }
    Some(values)
}

fn parse_jsonc(text: &str) -> Option<ParseResult<'_>> {
    jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &ParseOptions::default()).ok()
}

fn json_values(key: Option<&str>, value: &ast::Value, shift: usize, depth: usize, out: &mut Vec<Written>) {
    let span = value.range().start + shift..value.range().end.max(value.range().start) + shift;
    let (text, quoted) = match value {
        ast::Value::StringLit(s) => (s.value.to_string(), true),
        ast::Value::NumberLit(n) => (n.value.to_string(), false),
        ast::Value::BooleanLit(b) => (b.value.to_string(), false),
        _ => (String::new(), false),
    };
    out.push(Written { key: key.map(str::to_string), value: text, span, quoted, is_key: false, depth });
    match value {
        ast::Value::Object(object) => {
            for property in &object.properties {
                let name = property.name.range();
                let span = name.start + shift..name.end.max(name.start) + shift;
                out.push(Written {
                    key: None,
                    value: property.name.as_str().to_string(),
                    span,
                    quoted: true,
                    is_key: true,
                    depth: depth + 1,
                });
                json_values(Some(property.name.as_str()), &property.value, shift, depth + 1, out);
            }
        }
        ast::Value::Array(array) => array.elements.iter().for_each(|item| json_values(None, item, shift, depth + 1, out)),
        _ => {}
    }
}

/// The values of a TOML text with values in it; `None` when it is not TOML (or holds no value).
fn written_toml(text: &str) -> Option<Vec<Written>> {
    let document = toml_edit::ImDocument::parse(text).ok()?;
    let mut values = Vec::new();
    toml_table(document.as_table(), 1, &mut values);
    (!values.is_empty()).then_some(values)
}

fn toml_table(table: &toml_edit::Table, depth: usize, out: &mut Vec<Written>) {
    for (key, item) in table.iter() {
        if let Some(span) = table.key(key).and_then(toml_edit::Key::span) {
            out.push(Written { key: None, value: key.to_string(), span, quoted: false, is_key: true, depth });
        }
        match item {
            toml_edit::Item::Value(value) => toml_value(Some(key), value, depth, out),
            toml_edit::Item::Table(inner) => toml_table(inner, depth + 1, out),
            toml_edit::Item::ArrayOfTables(tables) => tables.iter().for_each(|inner| toml_table(inner, depth + 2, out)),
            toml_edit::Item::None => {}
        }
    }
}

fn toml_value(key: Option<&str>, value: &toml_edit::Value, depth: usize, out: &mut Vec<Written>) {
    let Some(span) = value.span() else { return };
    let (text, quoted) = match value {
        toml_edit::Value::String(s) => (s.value().clone(), true),
        toml_edit::Value::Array(_) | toml_edit::Value::InlineTable(_) => (String::new(), false),
        other => (other.to_string().trim().to_string(), false),
    };
    out.push(Written { key: key.map(str::to_string), value: text, span, quoted, is_key: false, depth });
    match value {
        toml_edit::Value::Array(items) => items.iter().for_each(|item| toml_value(None, item, depth + 1, out)),
        toml_edit::Value::InlineTable(table) => {
            for (k, v) in table.iter() {
                if let Some(span) = table.key(k).and_then(toml_edit::Key::span) {
                    out.push(Written { key: None, value: k.to_string(), span, quoted: false, is_key: true, depth: depth + 1 });
                }
                toml_value(Some(k), v, depth + 1, out);
            }
        }
        _ => {}
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
        assert_eq!(index.first(|w| w.key.as_deref() == Some("id")).map(|r| &yaml[r]), Some("'x'"));
        assert_eq!(index.written("description").map(|r| &yaml[r]), Some("description"));
        assert_eq!(index.tool_name("absent"), None);
        assert_eq!(Values::of("{\"a\": [1,").tool_name("a"), None);
        let yaml = "name: top\nagent:\n  tools: [name]\n  name: \"\"\nother:\n  name: x\n";
        assert_eq!(Values::of(yaml).at_path(&["agent", "name"]).map(|r| &yaml[r]), Some("\"\""));
        let yaml = "agent:\n  name:\nother:\n  name: x\n";
        assert_eq!(Values::of(yaml).at_path(&["agent", "name"]).map(|r| &yaml[r]), Some("name"), "an empty value: its key");
        assert_eq!(Values::of("agent:\n  model: m\nname: x\n").at_path(&["agent", "name"]), None, "not outside its parent");
        let agent = "[agent]\nname = \"\"\n";
        assert_eq!(Values::of(agent).at_path(&["agent", "name"]).map(|r| &agent[r]), Some("\"\""));
        assert_eq!(Values::of(toml).written("tools").map(|r| &toml[r]), Some("tools"), "a key when no value is written so");
        assert_eq!(Values::of(json).written("description").map(|r| &json[r]), Some("\"description\""));
    }
}
