//! INSTR008: the same instruction lines in two memory files one agent loads.

use std::collections::{BTreeMap, BTreeSet};

use crate::diagnostic::Related;
use crate::rules::chains::{self, Member};
use crate::rules::instructions::word_count;
use crate::rules::markdown::prose_lines;
use crate::rules::prelude::*;
use crate::rules::refs::{self, Target};

/// Lines shorter than this (after collapsing whitespace) are not compared.
pub const MIN_CHARS: usize = 40;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "Two memory files one agent loads together (a root AGENTS.md and a nested one, CLAUDE.md and a file it imports) share instruction lines of 40 characters or more.",
    why: "Every file in the chain reaches the model (Claude Code: https://docs.anthropic.com/ja/docs/claude-code/memory; \
          Codex: openai/codex:codex-rs/core/src/project_doc.rs@0bd53e45, where the copies also eat the 32 KiB \
          budget; Gemini CLI: google-gemini/gemini-cli:docs/cli/gemini-md.md@5411f113). A copied line is paid for \
          twice on every request, and once one copy is edited the two disagree. Keep each instruction in the file \
          that owns it.",
    fails: Example {
        file: "web/AGENTS.md",
        text: "# Web\n\n- Run the full test suite with `make test` before every commit.\n\n# the root AGENTS.md has the same line\n",
    },
    passes: Example { file: "web/AGENTS.md", text: "# Web\n\n- Run `npm test` in this folder for the web tests.\n" },
    notes: "Lines outside code blocks and HTML comments, compared with list markers, emphasis and case removed and each relative link \
            standing for the file it leads to (`Read [README.md](README.md)` in two folders is two instructions); \
            headings, table rules and lines under 40 characters (or six words) are ignored. One finding per pair of files, at the first shared \
            line of the file loaded later, with the count. In a manifest's agent, SEC007 compares the rendered prompt \
            instead.",
    stage: Stage::Lint(check),
};

/// The comparable lines of a file: normalized text → byte range of the first one.
fn lines(cx: &Context, member: &Member) -> BTreeMap<String, std::ops::Range<usize>> {
    let cache = cx.root.cache();
    let links = refs::links(cache, &member.text);
    let dir = member.rel.rsplit_once('/').map_or("", |(d, _)| d);
    let mut found = BTreeMap::new();
    for (start, line) in prose_lines(cache, &member.text) {
        let trimmed = line.trim();
        if trimmed.starts_with('#') || trimmed.starts_with('|') {
            continue;
        }
        let lead = line.len() - line.trim_start().len();
        let span = start + lead..start + lead + trimmed.len();
        let key = chains::normalize_line(&with_link_targets(cx, dir, trimmed, span.start, &links));
        if key.len() < MIN_CHARS || word_count(&key) < 6 {
            continue;
        }
        found.entry(key).or_insert(span);
    }
    found
}

/// A line with each relative link's destination replaced by the root-relative path it leads to:
/// "Read [README.md](README.md) first" in two folders names two files, so it is no repeat, and
/// `docs/x.md` from the root is `../docs/x.md` one folder down.
fn with_link_targets(cx: &Context, dir: &str, line: &str, offset: usize, links: &[refs::Link]) -> String {
    let first = links.partition_point(|l| l.span.start < offset);
    let mut out = String::with_capacity(line.len());
    let mut at = 0;
    for link in links[first..].iter().take_while(|l| l.span.end <= offset + line.len()) {
        let Target::Relative { path, .. } = refs::target(&link.dest) else { continue };
        let joined = if dir.is_empty() { path } else { format!("{dir}/{path}") };
        let (from, to) = (link.span.start - offset, link.span.end - offset);
        // Destinations come in order and apart; one that is not is left as written.
        let Some(before) = line.get(at..from) else { continue };
        out.push_str(before);
        out.push_str(&cx.root.normalize(&joined).unwrap_or(joined));
        at = to;
    }
    out.push_str(&line[at..]);
    out
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    if cx.agent.is_some() {
        return Vec::new();
    }
    let chains = chains::chains(cx);
    let mut cache: BTreeMap<&str, BTreeMap<String, std::ops::Range<usize>>> = BTreeMap::new();
    for member in chains.iter().flatten() {
        cache.entry(&member.rel).or_insert_with(|| lines(cx, member));
    }
    let mut findings = Vec::new();
    let mut reported: BTreeSet<(String, String)> = BTreeSet::new();
    for (earlier, later) in chains::pairs(&chains) {
        let (a, b) = (&cache[earlier.rel.as_str()], &cache[later.rel.as_str()]);
        let mut shared: Vec<(&std::ops::Range<usize>, &std::ops::Range<usize>)> =
            b.iter().filter_map(|(key, span)| a.get(key).map(|first| (span, first))).collect();
        if shared.is_empty() || !reported.insert((earlier.rel.clone(), later.rel.clone())) {
            continue;
        }
        shared.sort_by_key(|(span, _)| span.start);
        let (span, first) = shared[0];
        let count = shared.len();
        findings.push(
            Diagnostic::finding(format!(
                "{} repeats {count} instruction line{} of {} (both are loaded together)",
                later.rel,
                if count == 1 { "" } else { "s" },
                earlier.rel
            ))
            .in_file(&later.file)
            .at(Some(span.clone()))
            .label("also in the other file")
            .help("keep each instruction in one file of the chain")
            .related(vec![Related {
                file: earlier.file.clone(),
                span: Some(first.clone()),
                message: "first written here".into(),
            }]),
        );
    }
    findings
}
