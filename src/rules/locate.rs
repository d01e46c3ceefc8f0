//! Pointing findings at the text they are about: a value in the manifest, a step, a tool in its
//! file, or any text in the files a run read.

use std::ops::Range;

use crate::diagnostic::{Diagnostic, Sources};
use super::context::Context;
use crate::manifest::model::CategoryTool;

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
    for pattern in [format!("id = \"{id}\""), format!("id = '{id}'"), format!("id: \"{id}\""), format!("id: {id}\n"), format!("id: {id},")] {
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
    let text = cx.sources.get(&file).unwrap_or("");
    let name = &tool.tool.name;
    let quoted = format!("\"{name}\"");
    // The first `"name": "NAME"` (JSON) or `name = "NAME"` (inline in the manifest).
    let mut from = 0;
    while let Some(i) = text[from..].find(&quoted).map(|i| from + i) {
        let before = text[..i].trim_end();
        if before.ends_with(':') || before.ends_with('=') {
            let key = before[..before.len() - 1].trim_end();
            if key.ends_with("\"name\"") || key.ends_with("name") {
                return (file, Some(i..i + quoted.len()));
            }
        }
        from = i + quoted.len();
    }
    let span = quoted_or_bare(text, name);
    (file, span)
}

/// The first occurrence of `needle` in a tool's file at or after the tool's name.
pub fn in_tool(cx: &Context, t: &CategoryTool, needle: &str) -> Place {
    let (file, at) = tool(cx, t);
    let text = cx.sources.get(&file).unwrap_or("");
    let from = at.as_ref().map_or(0, |r| r.start);
    match text.get(from..).and_then(|rest| rest.find(needle)) {
        Some(i) => (file, Some(from + i..from + i + needle.len())),
        None => (file, at),
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
