//! Glob lists and glob syntax, as the Cursor, Copilot, Cline and Kiro families read them.

use std::ops::Range;

use serde_json::Value;

use crate::agent_files::Doc;

/// One entry of a frontmatter field that holds a glob or a list of globs (Cline's `paths`,
/// Kiro's `fileMatchPattern`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GlobEntry<'a> {
    /// The field is an empty list.
    EmptyList,
    /// An empty or blank string.
    Blank,
    /// A value that is not a string.
    Other(&'a Value),
    /// A glob, to check.
    Glob(&'a str),
}

/// The entries of the frontmatter field `key` of `doc`, when it is written, each with its item's
/// index (`None`: the field's value itself) and where it is written.
pub fn glob_entries<'a>(doc: &'a Doc, key: &str) -> Vec<(Option<usize>, GlobEntry<'a>, Option<Range<usize>>)> {
    let Some(value) = doc.field(key) else { return Vec::new() };
    let whole = doc.value_span(key);
    let items: Vec<(Option<usize>, &Value)> = match value {
        Value::Array(items) if items.is_empty() => return vec![(None, GlobEntry::EmptyList, whole)],
        Value::Array(items) => items.iter().enumerate().map(|(i, v)| (Some(i), v)).collect(),
        other => vec![(None, other)],
    };
    let entry = |item: &'a Value| match item.as_str() {
        Some(glob) if glob.trim().is_empty() => GlobEntry::Blank,
        Some(glob) => GlobEntry::Glob(glob),
        None => GlobEntry::Other(item),
    };
    items
        .into_iter()
        .map(|(index, item)| (index, entry(item), index.and_then(|i| doc.item_span(key, i)).or_else(|| whole.clone())))
        .collect()
}

/// The globs of a comma-separated list (commas inside `{…}` belong to the glob), trimmed, with
/// their byte ranges (`start` is where `list` begins in the file). Empty entries are kept.
pub fn split_globs(list: &str, start: usize) -> Vec<(&str, Range<usize>)> {
    let mut bounds = Vec::new();
    let (mut depth, mut from) = (0i32, 0);
    for (i, c) in list.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth <= 0 => {
                bounds.push(from..i);
                from = i + 1;
            }
            _ => {}
        }
    }
    bounds.push(from..list.len());
    bounds
        .into_iter()
        .map(|r| {
            let part = &list[r.clone()];
            let lead = part.len() - part.trim_start().len();
            let glob = part.trim();
            (glob, start + r.start + lead..start + r.start + lead + glob.len())
        })
        .collect()
}

/// What is wrong with a glob's syntax, if anything: unbalanced `[…]` or `{…}`, or an empty
/// `{}` / `[]`.
pub fn glob_problem(glob: &str) -> Option<&'static str> {
    let (mut braces, mut bracket) = (0i32, false);
    let mut chars = glob.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' if !bracket => {
                if chars.peek() == Some(&']') {
                    return Some("an empty `[]` matches nothing");
                }
                bracket = true;
            }
            ']' if bracket => bracket = false,
            '{' if !bracket => {
                if chars.peek() == Some(&'}') {
                    return Some("an empty `{}` matches nothing");
                }
                braces += 1;
            }
            '}' if !bracket => {
                braces -= 1;
                if braces < 0 {
                    return Some("a `}` closes no `{`");
                }
            }
            _ => {}
        }
    }
    match (bracket, braces) {
        (true, _) => Some("a `[` is never closed"),
        (_, n) if n > 0 => Some("a `{` is never closed"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::agent_files::FileKind;
    use crate::memo::SharedText;

    #[test]
    fn glob_syntax() {
        assert_eq!(glob_problem("src/**/*.{ts,tsx}"), None);
        assert_eq!(glob_problem("[abc].md"), None);
        assert!(glob_problem("src/**/*.{ts,tsx").is_some());
        assert!(glob_problem("src/[ab.md").is_some());
        assert!(glob_problem("a}.md").is_some());
        assert!(glob_problem("*.{}").is_some());
    }

    #[test]
    fn a_glob_field_is_read_as_one_glob_or_a_list_with_the_place_of_each() {
        let entries = |front: &str| {
            let text = format!("---\n{front}\n---\nBody.\n");
            let doc = Doc::new(FileKind::ClineRule, "r.md".into(), "r.md".into(), SharedText::new(&text), &Arc::default());
            let shown: Vec<String> = glob_entries(&doc, "paths")
                .into_iter()
                .map(|(index, entry, at)| format!("{index:?} {entry:?} {:?}", at.map(|r| text[r].to_string())))
                .collect();
            shown
        };
        assert_eq!(entries("paths: \"src/*.ts\""), ["None Glob(\"src/*.ts\") Some(\"\\\"src/*.ts\\\"\")"]);
        assert_eq!(entries("paths: []"), ["None EmptyList Some(\"[]\")"]);
        assert_eq!(
            entries("paths:\n  - \"a/*\"\n  - \" \"\n  - 3"),
            ["Some(0) Glob(\"a/*\") Some(\"\\\"a/*\\\"\")", "Some(1) Blank Some(\"\\\" \\\"\")", "Some(2) Other(Number(3)) Some(\"3\")"]
        );
        assert!(entries("name: x").is_empty());
    }
}
