//! The Cursor family: project rules (`.cursor/rules/*.mdc`), the legacy `.cursorrules` and the
//! hooks file (`.cursor/hooks.json`).
//! Cursor reads a rule's frontmatter line by line (`globs: **/*.ts` is the documented style and
//! is not YAML), so its rules read it through [`raw_front`], the one lenient frontmatter reader.

use std::ops::Range;

use serde_json::{Map, Value};

use crate::agent_files::{Doc, FileKind};
use crate::hosts;
use crate::rules::context::Context;
use crate::rules::frontmatter::{raw_front, unquote, RawField, RawFront};
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
pub mod cursor019_hooks_invalid_json;
pub mod cursor020_hooks_shape_invalid;
pub mod cursor021_hook_event_unknown;
pub mod cursor022_hook_definition_invalid;
pub mod cursor023_hook_script_wrong_base;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "Cursor project rules (`.cursor/rules/*.mdc`), the legacy `.cursorrules` and hooks (`.cursor/hooks.json`).";

/// One list of hook definitions of a `.cursor/hooks.json`: the event it is under and the list.
pub struct HookList<'v> {
    pub event: &'v str,
    pub items: &'v [Value],
}

/// The `hooks` object of each `.cursor/hooks.json` that parsed and holds one (CURSOR019 and
/// CURSOR020 report the others), with the file.
pub fn hooks_objects<'a>(cx: &Context<'a>, mut each: impl FnMut(&'a Doc, &Map<String, Value>)) {
    for doc in cx.files_of(FileKind::CursorHooks) {
        let json = doc.json();
        if let Ok(Value::Object(root)) = &*json {
            if let Some(Value::Object(hooks)) = root.get("hooks") {
                each(doc, hooks);
            }
        }
    }
}

/// The lists of hook definitions of the events Cursor knows, with the file: an unknown event is
/// CURSOR021's finding alone, so its list is not checked (one defect, one finding).
pub fn hook_lists<'a>(cx: &Context<'a>, mut each: impl FnMut(&'a Doc, HookList)) {
    let known = cursor_values("hook-events");
    hooks_objects(cx, |doc, hooks| {
        for (event, list) in hooks.iter().filter(|(event, _)| known.contains(&event.as_str())) {
            if let Value::Array(items) = list {
                each(doc, HookList { event, items });
            }
        }
    });
}

/// The hook definitions of a list that are JSON objects, with their index (CURSOR020 reports the
/// others).
pub fn definitions<'v>(list: &HookList<'v>) -> impl Iterator<Item = (usize, &'v Map<String, Value>)> {
    list.items.iter().enumerate().filter_map(|(i, item)| item.as_object().map(|o| (i, o)))
}

/// The values of the set `name` in Cursor's host model (data/hosts/cursor.toml): `hook-events`,
/// `hook-types`.
pub fn cursor_values(name: &str) -> Vec<&'static str> {
    hosts::embedded("cursor").values(name)
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
    use crate::rules::frontmatter::RawError;

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
