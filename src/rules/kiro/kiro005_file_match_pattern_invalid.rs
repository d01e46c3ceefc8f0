//! KIRO005: a `fileMatchPattern` that is not a glob or a list of globs.

use std::ops::Range;

use crate::agent_files::Doc;
use crate::rules::globs::{glob_entries, glob_problem, GlobEntry};
use crate::rules::kiro::steering;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A steering file's `fileMatchPattern` is empty, not a string or list of strings, a glob with broken syntax, or several globs joined by commas in one string.",
    why: "Kiro includes a `fileMatch` steering file when a path in the context matches its `fileMatchPattern`, a \
          glob or a list of globs. An empty pattern, a number, or a glob with an unclosed `[` or `{` matches no path, \
          so the file is never included. Nor does `\"*.tsx,*.jsx\"`: Kiro does not split a string on commas, it \
          compares the whole string as one glob; several globs are written as a list. Sources: kiro.dev/docs/steering \
          (multiple patterns as an array), github.com/kirodotdev/Kiro/issues/11095 (a comma list matches nothing).",
    fails: Example {
        file: ".kiro/steering/web.md",
        text: "---\ninclusion: fileMatch\nfileMatchPattern: \"src/**/*.{ts,tsx\"\n---\nPrefer named exports.\n",
    },
    passes: Example {
        file: ".kiro/steering/web.md",
        text: "---\ninclusion: fileMatch\nfileMatchPattern: \"src/**/*.{ts,tsx}\"\n---\nPrefer named exports.\n",
    },
    notes: "For a string of globs joined by commas, the attached fix (unsafe: the file starts being included) \
            writes them as a list, `'*.tsx,*.jsx'` as `[\"*.tsx\", \"*.jsx\"]`.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in steering(cx) {
        for (index, entry, at) in glob_entries(doc, "fileMatchPattern") {
            let item = |i: usize| format!("item {}", i + 1);
            let problem = match (entry, index) {
                (GlobEntry::EmptyList, _) => "is an empty list".to_string(),
                (GlobEntry::Blank, None) => "is empty".to_string(),
                (GlobEntry::Blank, Some(i)) => format!("{} is empty", item(i)),
                (GlobEntry::Other(other), None) => format!("is {other}, not a glob"),
                (GlobEntry::Other(_), Some(i)) => format!("{} is not a string", item(i)),
                (GlobEntry::Glob(glob), _) => match pattern_problem(glob) {
                    Some(problem) => format!("`{glob}` {problem}"),
                    None => continue,
                },
            };
            let d = finding(doc, problem, at.clone());
            // One string of globs joined by commas: written as a list, it is what was meant.
            let joined = match (entry, index) {
                (GlobEntry::Glob(glob), None) => joined_globs(glob),
                _ => None,
            };
            findings.push(match (joined, at) {
                (Some(parts), Some(span)) => {
                    d.fix(Fix::unsafe_("write the globs as a list", vec![Edit::replace(&doc.file, span, flow_list(&parts))]))
                }
                _ => d,
            });
        }
    }
    findings
}

fn finding(doc: &Doc, problem: String, at: Option<Range<usize>>) -> Diagnostic {
    Diagnostic::finding(format!("`fileMatchPattern` {problem}"))
        .in_file(&doc.file)
        .at(at)
        .label("matches nothing")
        .help("write a glob such as `\"src/**/*.ts\"`, or a list of them")
}

/// Why one glob of `fileMatchPattern` matches no path: broken syntax, or a comma outside `{}` and
/// `[]`, which joins what the author meant as several globs (Kiro reads them as one).
fn pattern_problem(glob: &str) -> Option<String> {
    if let Some(problem) = glob_problem(glob) {
        return Some(format!("is not a valid glob: {problem}"));
    }
    joined_globs(glob).map(|_| "is one glob with commas in it: Kiro does not split it, so it matches no path".to_string())
}

/// The globs a string joins with commas outside `{}` and `[]` (trimmed, empty ones left out), or
/// `None` when it has no such comma.
fn joined_globs(glob: &str) -> Option<Vec<&str>> {
    let (mut depth, mut bracket, mut escaped) = (0u32, false, false);
    let (mut parts, mut start) = (Vec::new(), 0);
    for (i, c) in glob.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' => bracket = true,
            ']' => bracket = false,
            '{' if !bracket => depth += 1,
            '}' if !bracket => depth = depth.saturating_sub(1),
            ',' if !bracket && depth == 0 => {
                parts.push(&glob[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if parts.is_empty() {
        return None;
    }
    parts.push(&glob[start..]);
    Some(parts.into_iter().map(str::trim).filter(|p| !p.is_empty()).collect())
}

/// A YAML flow list of double-quoted strings.
fn flow_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("\"{}\"", i.replace('\\', "\\\\").replace('"', "\\\""))).collect();
    format!("[{}]", quoted.join(", "))
}

#[cfg(test)]
mod tests {
    use super::{flow_list, joined_globs, pattern_problem};

    #[test]
    fn a_comma_outside_braces_joins_globs() {
        assert!(pattern_problem("*.tsx,*.jsx").unwrap().contains("commas"));
        assert_eq!(joined_globs("src/**/*.ts, tests/**/*.ts,"), Some(vec!["src/**/*.ts", "tests/**/*.ts"]));
        // The shape found in a public Kiro repository (docs/lint-precision.md, sample 4).
        assert_eq!(joined_globs("*.tsx,*.jsx,*react*"), Some(vec!["*.tsx", "*.jsx", "*react*"]));
        assert_eq!(pattern_problem("src/**/*.{ts,tsx}"), None);
        assert_eq!(pattern_problem("[,]*.md"), None);
        assert_eq!(pattern_problem("a\\,b.md"), None);
        assert!(pattern_problem("src/[a-z*.ts").unwrap().starts_with("is not a valid glob"));
        assert_eq!(flow_list(&["*.tsx", "a\"b"]), r#"["*.tsx", "a\"b"]"#);
    }
}
