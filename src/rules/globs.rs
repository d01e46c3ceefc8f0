//! Glob lists and glob syntax, as the Cursor and Copilot families read them.

use std::ops::Range;

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
    use super::*;

    #[test]
    fn glob_syntax() {
        assert_eq!(glob_problem("src/**/*.{ts,tsx}"), None);
        assert_eq!(glob_problem("[abc].md"), None);
        assert!(glob_problem("src/**/*.{ts,tsx").is_some());
        assert!(glob_problem("src/[ab.md").is_some());
        assert!(glob_problem("a}.md").is_some());
        assert!(glob_problem("*.{}").is_some());
    }
}
