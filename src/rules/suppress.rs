//! Suppression comments in Markdown sources. Each names the codes it silences:
//!
//! - `<!-- ctxc-ignore CODE[, CODE…] [-- reason] -->` silences those codes on the next line;
//! - `<!-- ctxc-ignore-file CODE[, CODE…] [-- reason] -->` silences them in the whole file.
//!
//! A comment that names no code, or a code that does not exist, is itself a finding (MAN013).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::Regex;

use crate::codes::Code;
use crate::diagnostic::{line_col, Diagnostic, Sources};

/// Files whose comments are read: Markdown and the text formats prompts are written in.
const EXTENSIONS: [&str; 5] = [".md", ".mdx", ".markdown", ".j2", ".txt"];

/// The word every suppression comment holds: most sources have none and are not scanned. A SIMD
/// finder built once takes a third fewer instructions than `str::contains` on the editor's path,
/// which scans each agent's sources at every check.
static MARKER: LazyLock<memchr::memmem::Finder<'static>> = LazyLock::new(|| memchr::memmem::Finder::new("ctxc-ignore"));

static COMMENT: LazyLock<Regex> = LazyLock::new(|| {
    let pattern = r"<!--[ \t]*ctxc-ignore(-file)?(?:[ \t]+([^\n]*?))?[ \t]*-->";
    Regex::new(pattern).expect("constant pattern") // ok: a literal, tested below
});

#[derive(Debug, Default)]
struct FileSuppressions {
    whole_file: Vec<Code>,
    /// 1-based line → codes silenced on it.
    lines: BTreeMap<usize, Vec<Code>>,
}

/// Every suppression found in a run's sources.
#[derive(Debug, Default)]
pub struct Suppressions {
    by_file: BTreeMap<String, FileSuppressions>,
}

/// Reads the suppression comments of every Markdown source; returns them and the MAN013
/// findings of comments that name no code or unknown codes.
pub fn scan(sources: &Sources) -> (Suppressions, Vec<Diagnostic>) {
    let mut suppressions = Suppressions::default();
    let mut findings = Vec::new();
    for (file, text) in sources.iter().filter(|(f, _)| EXTENSIONS.iter().any(|e| f.ends_with(e))) {
        if MARKER.find(text.as_bytes()).is_none() {
            continue;
        }
        for caps in COMMENT.captures_iter(text) {
            let Some(whole) = caps.get(0) else { continue };
            let span = Some(whole.range());
            let body = caps.get(2).map_or("", |m| m.as_str());
            let codes_part = body.split(" -- ").next().unwrap_or("").trim();
            let words: Vec<&str> = codes_part.split([',', ' ', '\t']).filter(|w| !w.is_empty()).collect();
            let (known, unknown): (Vec<&str>, Vec<&str>) = words.iter().partition(|w| Code::parse(w).is_some());
            if words.is_empty() {
                findings.push(
                    Diagnostic::warning("suppression comment names no rule code")
                        .in_file(file)
                        .at(span.clone())
                        .help("name the codes it silences, e.g. `<!-- ctxc-ignore SKILL013 -->`"),
                );
            }
            for code in &unknown {
                let mut d = Diagnostic::warning(format!("suppression comment names `{code}`, which is not a rule code"))
                    .in_file(file)
                    .at(span.clone());
                d = match crate::rules::suggest(code) {
                    Some(s) => d.help(format!("did you mean `{s}`?")),
                    None => d.help("`ctxc rules` lists every code"),
                };
                findings.push(d);
            }
            let codes: Vec<Code> = known.iter().filter_map(|c| Code::parse(c)).collect();
            let entry = suppressions.by_file.entry(file.to_string()).or_default();
            if caps.get(1).is_some() {
                entry.whole_file.extend(codes);
            } else {
                let (line, _) = line_col(text, whole.end());
                entry.lines.entry(line + 1).or_default().extend(codes);
            }
        }
    }
    (suppressions, findings)
}

impl Suppressions {
    /// Whether a comment silences this finding.
    pub fn covers(&self, d: &Diagnostic, sources: &Sources) -> bool {
        let (Some(code), Some(file)) = (&d.code, &d.file) else { return false };
        let Some(found) = self.by_file.get(file) else { return false };
        if found.whole_file.contains(code) {
            return true;
        }
        let line = d.span.as_ref().and_then(|span| sources.line_col(file, span.start)).map(|(line, _)| line);
        line.and_then(|line| found.lines.get(&line)).is_some_and(|codes| codes.contains(code))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources(text: &str) -> Sources {
        let mut s = Sources::default();
        s.insert("a.md", text);
        s
    }

    #[test]
    fn next_line_and_whole_file() {
        let text = "intro\n<!-- ctxc-ignore SEC001, SEC007 -- test data -->\nkey line\nother\n<!-- ctxc-ignore-file SKILL013 -->\n";
        let src = sources(text);
        let (s, findings) = scan(&src);
        assert!(findings.is_empty(), "{findings:?}");
        let at = |code: Code, offset: usize| Diagnostic::error("x").code(code).in_file("a.md").at(Some(offset..offset + 1));
        let key_line = text.find("key line").expect("present");
        let other = text.find("other").expect("present");
        assert!(s.covers(&at(Code::SEC001, key_line), &src));
        assert!(s.covers(&at(Code::SEC007, key_line), &src));
        assert!(!s.covers(&at(Code::SEC002, key_line), &src));
        assert!(!s.covers(&at(Code::SEC001, other), &src), "only the next line");
        assert!(s.covers(&at(Code::SKILL013, 0), &src), "whole file");
    }

    #[test]
    fn comments_must_name_known_codes() {
        let (_, findings) = scan(&sources("<!-- ctxc-ignore -->\n<!-- ctxc-ignore SKIL013 -->\n"));
        assert_eq!(findings.len(), 2);
        assert!(findings[1].help.as_deref().is_some_and(|h| h.contains("SKILL013")));
    }
}
