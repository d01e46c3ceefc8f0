//! INSTR008: the same instruction lines in two memory files one agent loads.

use std::collections::{BTreeMap, BTreeSet};

use crate::diagnostic::Related;
use crate::memo::Cache;
use crate::rules::chains::{self, Member};
use crate::rules::instructions::word_count;
use crate::rules::markdown::prose_lines;
use crate::rules::prelude::*;

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
    notes: "Lines outside code blocks and HTML comments, compared with list markers, emphasis and case removed; headings, table rules and \
            lines under 40 characters (or six words) are ignored. One finding per pair of files, at the first shared \
            line of the file loaded later, with the count. In a manifest's agent, SEC007 compares the rendered prompt \
            instead.",
    stage: Stage::Lint(check),
};

/// The comparable lines of a file: normalized text → byte range of the first one.
fn lines(cache: &Cache, member: &Member) -> BTreeMap<String, std::ops::Range<usize>> {
    let mut found = BTreeMap::new();
    for (start, line) in prose_lines(cache, &member.text) {
        let trimmed = line.trim();
        if trimmed.starts_with('#') || trimmed.starts_with('|') {
            continue;
        }
        let key = chains::normalize_line(trimmed);
        if key.len() < MIN_CHARS || word_count(&key) < 6 {
            continue;
        }
        let lead = line.len() - line.trim_start().len();
        found.entry(key).or_insert(start + lead..start + lead + trimmed.len());
    }
    found
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    if cx.agent.is_some() {
        return Vec::new();
    }
    let chains = chains::chains(cx);
    let mut cache: BTreeMap<&str, BTreeMap<String, std::ops::Range<usize>>> = BTreeMap::new();
    for member in chains.iter().flatten() {
        cache.entry(&member.rel).or_insert_with(|| lines(cx.root.cache(), member));
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
