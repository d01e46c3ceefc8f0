//! SEC007: the same paragraph in two sections of one prompt.

use std::ops::Range;
use std::sync::Arc;

use crate::memo::{content_hash, Cache, KeyMap, Kind, SharedText};
use crate::rules::markdown::paragraphs;
use crate::rules::prelude::*;

/// Paragraphs shorter than this (after collapsing whitespace) are not compared.
pub const MIN_CHARS: usize = 80;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The same paragraph (80 characters or more, whitespace collapsed) appears in two different sections of one rendered prompt.",
    why: "Prompts assembled from many files drift into repeating themselves: the same rule in the core prompt, the mode \
          prompt and AGENTS.md. Each copy is paid for on every request, and when one copy is edited the two disagree. \
          Keep the paragraph in the one section that owns it.",
    fails: Example {
        file: "prompts/modes/ask_mode.md",
        text: "Never change files, run commands or send messages on the user's behalf without asking first and waiting for a yes.\n\n# …and prompts/core.md has the same paragraph\n",
    },
    passes: Example { file: "prompts/modes/ask_mode.md", text: "Answer from what you can read; do not change anything.\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn normalize(paragraph: &str) -> String {
    paragraph.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The paragraphs of a section long enough to compare: the hash of each one's normalized text
/// and its byte range. Kept per section content, since sections repeat across modes and agents.
fn long_paragraphs(cache: &Cache, text: &SharedText) -> Arc<[(u128, Range<usize>)]> {
    cache.get_or_insert(Kind::Paragraphs, text.hash(), || {
        paragraphs(text)
            .into_iter()
            .filter_map(|(start, paragraph)| {
                // Collapsing whitespace never lengthens a text, and a character is a byte or
                // more: a paragraph of fewer bytes is too short, known without hashing it (a
                // list of 60,000 tools is 60,000 short paragraphs).
                if paragraph.len() < MIN_CHARS {
                    return None;
                }
                // Per paragraph too: rendered templates differ in a line or two and share the rest.
                let key = cache.get_or_insert(Kind::ParagraphKey, content_hash(paragraph), || {
                    let key = normalize(paragraph);
                    (key.chars().count() >= MIN_CHARS).then(|| content_hash(&key))
                });
                key.map(|key| (key, start..start + paragraph.len()))
            })
            .collect()
    })
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    // First section seen per paragraph, per agent; each repeated paragraph is reported once.
    let mut reported: KeyMap<u128, ()> = KeyMap::default();
    let mut findings = Vec::new();
    for run in cx.runs() {
        let mut first_seen: KeyMap<u128, &str> = KeyMap::default();
        for section in &run.rendered.sections {
            for (key, range) in long_paragraphs(cx.root.cache(), &section.text).iter().cloned() {
                let paragraph = &section.text[range];
                match first_seen.get(&key) {
                    None => {
                        first_seen.insert(key, section.id.as_str());
                    }
                    Some(first) if *first != section.id && !reported.contains_key(&key) => {
                        reported.insert(key, ());
                        let key = normalize(paragraph);
                        let tokens = grouped(cx.count(paragraph));
                        let preview: String = key.chars().take(60).collect();
                        let first_line = paragraph.lines().next().unwrap_or(paragraph);
                        let preferred: Vec<String> = section.sources.iter().map(|s| cx.display(s)).collect();
                        let d = Diagnostic::finding(format!(
                            "the same paragraph is in steps `{first}` and `{}` ({} mode; {}{tokens} tokens each time): \"{preview}…\"",
                            section.id,
                            run.rendered.mode,
                            cx.approx()
                        ))
                        .label("repeated paragraph")
                        .help(format!("keep it in one section (`{first}` already has it)"));
                        findings.push(match locate::in_sources(cx.sources, &preferred, first_line) {
                            Some((file, span)) if preferred.contains(&file) => d.in_file(file).at(Some(span)),
                            _ => d,
                        });
                    }
                    Some(_) => {}
                }
            }
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rendered list of thousands of tools is thousands of short paragraphs: none of them is
    /// normalized, hashed or kept per paragraph, only the section's (empty) list of long ones.
    #[test]
    fn short_paragraphs_are_not_kept_one_by_one() {
        let tools: String = (0..500).map(|i| format!("### t{i}\nReads.\nParameters: {{}}\n\n")).collect();
        let long = format!("{} ", "a long paragraph".repeat(6));
        let cache = Cache::default();
        assert!(long_paragraphs(&cache, &SharedText::new(&tools)).is_empty());
        assert_eq!(cache.keep(|_| true), 1, "the section's entry only");
        // A paragraph of 80 characters or more is still compared, and its key kept.
        let both = SharedText::new(&format!("{tools}{long}\n"));
        assert_eq!(long_paragraphs(&cache, &both).len(), 1);
        assert_eq!(cache.keep(|_| true), 3);
    }
}
