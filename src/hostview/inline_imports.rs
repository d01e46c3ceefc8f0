//! `@path` imports replaced by the imported text, as Gemini CLI expands its memory files
//! (`processImports` of `@google/gemini-cli-core`, "tree" format): a mention is `@` at the start
//! of the text or after a space, tab or line break, then everything up to the next one, starting
//! with `.`, `/` or an ASCII letter; mentions inside backtick spans stay as written; an import is
//! resolved from the importing file's folder and must stay inside the folder imports are confined
//! to; a file already being expanded is not expanded again; files `max_depth` imports deep are
//! kept as written. What cannot be imported becomes a comment saying why, as the host writes it.

use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::hosts::InlineImports;
use crate::project::{ProjectRoot, ReadError};

/// The most bytes of imported files read for one memory file: imports that repeat a file many
/// times at every level multiply; past this the rest stay as written (with a problem reported).
const MAX_IMPORTED_BYTES: usize = 4 << 20;

pub(super) struct Expander<'a> {
    pub root: &'a ProjectRoot,
    /// The root's absolute path as the host sees it.
    pub seen_at: &'a Path,
    pub spec: &'a InlineImports,
    /// The folder (relative to the root) imports must stay in.
    pub confined_to: String,
    /// Bytes of imported files read so far, and whether that passed the limit.
    pub read: usize,
    pub exhausted: bool,
    pub problems: &'a mut Vec<Diagnostic>,
}

impl Expander<'_> {
    /// `text` (of a file in the folder `dir`) with its imports expanded. `chain`: the absolute
    /// paths of the imported files being expanded, outermost first (the memory file itself is not
    /// one, as in the host).
    pub fn expand(&mut self, file: &str, text: &str, dir: &str, chain: &mut Vec<String>) -> String {
        if chain.len() >= self.spec.max_depth {
            return text.to_string();
        }
        let regions = code_spans(text.as_bytes());
        let mut spans = regions.iter().peekable();
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for (at, end) in mentions(text) {
            out.push_str(&text[last..at]);
            last = end;
            let import = &text[at + 1..end];
            while spans.next_if(|&&(_, span_end)| span_end <= at).is_some() {}
            if spans.peek().is_some_and(|&&(start, _)| start <= at) {
                out.push('@');
                out.push_str(import);
                continue;
            }
            let Some(rel) = self.confined(dir, import) else {
                out.push_str(&self.failed(import, "Path traversal attempt"));
                continue;
            };
            let absolute = absolute(self.seen_at, &rel);
            if chain.contains(&absolute) {
                out.push_str(&fill(&self.spec.repeated, &[("{import}", import)]));
                continue;
            }
            if self.read > MAX_IMPORTED_BYTES {
                if !self.exhausted {
                    self.exhausted = true;
                    self.problems.push(Diagnostic::warning(format!(
                        "the imports of {file} read more than {MAX_IMPORTED_BYTES} bytes: `@{import}` and the imports after it are counted as written"
                    )));
                }
                out.push_str(&text[at..]);
                return out;
            }
            match self.root.read(&rel) {
                Ok(imported) => {
                    self.read += imported.text.len();
                    chain.push(absolute);
                    let folder = rel.rsplit_once('/').map_or("", |(folder, _)| folder);
                    let inner = self.expand(file, &imported.text, folder, chain);
                    chain.pop();
                    out.push_str(&fill(&self.spec.wrap, &[("{import}", import), ("{text}", &inner)]));
                }
                Err(ReadError::Missing(_)) => {
                    let reason = format!("ENOENT: no such file or directory, access '{absolute}'");
                    out.push_str(&self.failed(import, &reason));
                }
                Err(ReadError::NotAFile(_)) => {
                    out.push_str(&self.failed(import, "EISDIR: illegal operation on a directory, read"));
                }
                Err(ReadError::Escapes(_)) => out.push_str(&self.failed(import, "Path traversal attempt")),
                Err(e) => {
                    out.push_str(&self.failed(import, &e.message()));
                    self.problems.push(e.into_diagnostic().in_file(self.root.display_path(&rel)));
                }
            }
        }
        out.push_str(&text[last..]);
        out
    }

    fn failed(&self, import: &str, reason: &str) -> String {
        fill(&self.spec.failed, &[("{import}", import), ("{reason}", reason)])
    }

    /// The import written `import` in a file of `dir`, relative to the root, when it stays inside
    /// the folder imports are confined to (resolved as `path.resolve` does, without the disk).
    fn confined(&self, dir: &str, import: &str) -> Option<String> {
        let (mut parts, rest): (Vec<&str>, &str) = match import.strip_prefix('/') {
            Some(_) => {
                let root = self.seen_at.to_str()?;
                (Vec::new(), import.strip_prefix(root)?.strip_prefix('/').or_else(|| (import == root).then_some(""))?)
            }
            None => (dir.split('/').filter(|p| !p.is_empty()).collect(), import),
        };
        for part in rest.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    parts.pop()?;
                }
                part => parts.push(part),
            }
        }
        let rel = parts.join("/");
        let inside = self.confined_to.is_empty() || rel == self.confined_to || rel.starts_with(&format!("{}/", self.confined_to));
        inside.then_some(rel)
    }
}

/// The absolute path of a root-relative path, as the host names files (`root`: the root's).
pub(super) fn absolute(root: &Path, rel: &str) -> String {
    let root = root.display();
    match rel.is_empty() {
        true => root.to_string(),
        false => format!("{root}/{rel}"),
    }
}

/// The mentions of `text`: the byte range from each `@` to the end of the path after it.
fn mentions(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let space = |b: u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(offset) = bytes[i.min(bytes.len())..].iter().position(|&b| b == b'@') {
        let at = i + offset;
        if at > 0 && !space(bytes[at - 1]) {
            i = at + 1;
            continue;
        }
        let end = bytes[at + 1..].iter().position(|&b| space(b)).map_or(bytes.len(), |n| at + 1 + n);
        if bytes.get(at + 1).is_some_and(|&b| b == b'.' || b == b'/' || b.is_ascii_alphabetic()) {
            found.push((at, end));
        }
        i = end + 1;
    }
    found
}

/// The spans the host's pattern `` (`+)([\s\S]*?)\1 `` matches, in order: a run of backticks
/// (the longest that has a closing run of the same length, else shorter), up to the first
/// such closing run. Linear: with the longest run after each point known, the opening length
/// is found without a search that fails.
fn code_spans(bytes: &[u8]) -> Vec<(usize, usize)> {
    let runs: Vec<(usize, usize)> = {
        let mut runs = Vec::new();
        let mut i = 0;
        while let Some(offset) = bytes[i..].iter().position(|&b| b == b'`') {
            let start = i + offset;
            let len = bytes[start..].iter().take_while(|&&b| b == b'`').count();
            runs.push((start, len));
            i = start + len;
        }
        runs
    };
    // The longest run after run `r` (0 after the last).
    let mut longest_after = vec![0; runs.len()];
    for r in (0..runs.len().saturating_sub(1)).rev() {
        longest_after[r] = longest_after[r + 1].max(runs[r + 1].1);
    }
    let mut spans = Vec::new();
    let (mut r, mut at) = (0, runs.first().map_or(0, |&(start, _)| start));
    while r < runs.len() {
        let (start, len) = runs[r];
        at = at.max(start);
        let run = start + len - at;
        if run == 0 {
            r += 1;
            continue;
        }
        // The opening length: the whole run when a later run is as long, else the longest a
        // later run closes, else half the run (closed by its own second half).
        let open = run.min(longest_after[r]).max(run / 2);
        if open == 0 {
            // A lone backtick with no other after it: nothing more matches.
            break;
        }
        if 2 * open <= run {
            spans.push((at, at + 2 * open));
            at += 2 * open;
            continue;
        }
        let close = (r + 1..runs.len()).find(|&c| runs[c].1 >= open).expect("a later run is as long"); // ok: `open` is at most `longest_after[r]` here
        let end = runs[close].0 + open;
        spans.push((at, end));
        (r, at) = (close, end);
    }
    spans
}

/// A template with its placeholders (`{import}`, …) filled in one pass: a value holding a
/// placeholder stays as it is.
pub(super) fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + values.iter().map(|(_, v)| v.len()).sum::<usize>());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        rest = &rest[open..];
        let (value, used) =
            values.iter().find(|(key, _)| rest.starts_with(key)).map_or((&rest[..1], 1), |(key, value)| (*value, key.len()));
        out.push_str(value);
        rest = &rest[used..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_start_after_white_space_and_end_at_it() {
        let text = "@a.md and a@b.com, @1x @/abs\t@./x\n@";
        let found: Vec<&str> = mentions(text).into_iter().map(|(at, end)| &text[at..end]).collect();
        assert_eq!(found, ["@a.md", "@/abs", "@./x"]);
    }

    #[test]
    fn code_spans_are_what_the_hosts_pattern_matches() {
        let spans = |t: &str| code_spans(t.as_bytes()).into_iter().map(|(s, e)| t[s..e].to_string()).collect::<Vec<_>>();
        assert_eq!(spans("a `x` b ``y`` c"), ["`x`", "``y``"]);
        // A run with no closing run as long closes with a shorter one, or with its own half.
        assert_eq!(spans("```x`y"), ["``", "`x`"]);
        assert_eq!(spans("````"), ["````"]);
        assert_eq!(spans("```"), ["``"]);
        assert_eq!(spans("` a"), Vec::<String>::new());
        assert_eq!(spans("``a` b``c"), ["``a` b``"]);
    }

    #[test]
    fn runs_of_decreasing_length_pair_up() {
        // Each run opens with the length of the next one, which closes it.
        let text: String = (1..=2_000).rev().map(|n| "`".repeat(n) + "x").collect();
        let spans = code_spans(text.as_bytes());
        assert_eq!(spans.len(), 1_000);
        assert_eq!(&text[spans[0].0..spans[0].1], "`".repeat(2_000) + "x" + &"`".repeat(1_999));
    }

    #[test]
    fn a_template_value_holding_a_placeholder_is_not_filled_again() {
        assert_eq!(fill("<{import}|{text}|{x}>", &[("{import}", "{text}"), ("{text}", "t")]), "<{text}|t|{x}>");
    }
}
