//! Pointing findings at what they are about: a value in the manifest, a step, a tool in its file
//! (places the files' parsers report), or a rendered text in the files a run read.

use std::ops::Range;
use std::sync::Arc;

use super::context::Context;
use crate::diagnostic::{Diagnostic, Sources};
use crate::manifest::model::CategoryTool;
use crate::memo::{content_hash, Cache, Kind};
use crate::places::Values;

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

fn values_in(cache: &Cache, text: &str) -> Arc<Values> {
    cache.get_or_insert(Kind::NameIndex, content_hash(text), || Arc::new(Values::of(text)))
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
    fn a_quoted_step_id_is_placed_without_its_quotes() {
        let text = "[[pipeline]]\nid = \"intro\"\n";
        let span = Values::of(text).first(|w| w.key.as_deref() == Some("id")).expect("id");
        assert_eq!(&text[unquoted(text, span)], "intro");
    }
}
