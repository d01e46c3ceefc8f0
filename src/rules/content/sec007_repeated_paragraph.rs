//! SEC007: the same paragraph in two sections of one prompt.

use std::collections::BTreeMap;

use crate::rules::markdown::paragraphs;
use crate::rules::prelude::*;

/// Paragraphs shorter than this (after collapsing whitespace) are not compared.
pub const MIN_CHARS: usize = 80;

pub const RULE: Rule = Rule {
    code: "SEC007",
    name: "repeated-paragraph",
    family: Family::Content,
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

fn check(cx: &Context) -> Vec<Diagnostic> {
    // First section seen per paragraph, per agent; each repeated paragraph is reported once.
    let mut reported: BTreeMap<String, ()> = BTreeMap::new();
    let mut findings = Vec::new();
    for run in cx.runs() {
        let mut first_seen: BTreeMap<String, &str> = BTreeMap::new();
        for section in &run.rendered.sections {
            for (_, paragraph) in paragraphs(&section.text) {
                let key = normalize(paragraph);
                if key.chars().count() < MIN_CHARS {
                    continue;
                }
                match first_seen.get(&key) {
                    None => {
                        first_seen.insert(key, section.id.as_str());
                    }
                    Some(first) if *first != section.id && !reported.contains_key(&key) => {
                        reported.insert(key.clone(), ());
                        let tokens = cx.count(paragraph);
                        let preview: String = key.chars().take(60).collect();
                        let first_line = paragraph.lines().next().unwrap_or(paragraph);
                        let preferred: Vec<String> = section.sources.iter().map(|s| cx.display(s)).collect();
                        let d = Diagnostic::warning(format!(
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
