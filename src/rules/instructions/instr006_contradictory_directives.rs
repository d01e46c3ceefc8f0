//! INSTR006: "always X" and "never X" in the memory files one agent loads.

use std::collections::BTreeMap;

use crate::diagnostic::Related;
use crate::rules::chains::{self, directive, sentences};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary:
        "The memory files one agent loads together say both `always X` (or `must X`) and `never X` (or `do not X`) about the same action.",
    why: "Claude Code concatenates every CLAUDE.md from the project root down to the working folder, with their \
          `@imports` (https://docs.anthropic.com/ja/docs/claude-code/memory); Codex every AGENTS.md from the \
          repository root down (openai/codex:codex-rs/core/src/project_doc.rs@0bd53e45); Gemini CLI every GEMINI.md \
          (google-gemini/gemini-cli:docs/cli/gemini-md.md@5411f113). Two opposite directives on the same action \
          reach the model together, and which one it follows is a coin toss.",
    fails: Example {
        file: "AGENTS.md",
        text: "# Style\n\nAlways use tabs for indentation.\n\n# and web/AGENTS.md says: Never use tabs for indentation.\n",
    },
    passes: Example { file: "AGENTS.md", text: "# Style\n\nAlways use tabs for indentation.\n" },
    notes: "A directive is a sentence that starts with `always`, `must`, `must always` or `should always` (positive) or \
            `never`, `do not`, `don't`, `must not`, `should never` (negative), outside code; the rest of the \
            sentence (two words or more) must be the same, word for word, so qualified directives (\"in tests, \
            never…\") are not compared. An action whose object only points at other text (`do these`, `do the \
            following`, `follow this`), such as the headings over a list of don'ts and a list of dos, is not \
            compared: what it points at differs. Files in one chain and within one file are compared.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    let mut reported = std::collections::BTreeSet::new();
    for chain in chains::chains(cx) {
        // Action → (positive?, file, span) of its first occurrence in the chain.
        let mut seen: BTreeMap<(String, bool), (&str, std::ops::Range<usize>)> = BTreeMap::new();
        for member in &chain {
            for sentence in sentences(cx.root.cache(), &member.text).iter() {
                let Some((positive, action)) = directive(&sentence.text) else { continue };
                if points_elsewhere(&action) {
                    continue;
                }
                if let Some((file, span)) = seen.get(&(action.clone(), !positive)) {
                    if reported.insert((member.file.clone(), sentence.span.start)) {
                        let (says, other) = if positive { ("always", "never") } else { ("never", "always") };
                        findings.push(
                            Diagnostic::finding(format!(
                                "`{}` contradicts an earlier directive: one says {other} `{action}`, this one {says}",
                                &member.text[sentence.span.clone()]
                            ))
                            .in_file(&member.file)
                            .at(Some(sentence.span.clone()))
                            .label("opposite directive")
                            .help("keep one of the two, or say when each applies")
                            .related(vec![Related {
                                file: file.to_string(),
                                span: Some(span.clone()),
                                message: "the opposite directive".into(),
                            }]),
                        );
                    }
                }
                seen.entry((action, positive)).or_insert((member.file.as_str(), sentence.span.clone()));
            }
        }
    }
    findings
}

/// Words that stand for text elsewhere: demonstratives and pronouns, and the words that point at
/// what comes before or after.
const POINTERS: &[&str] = &["this", "these", "that", "those", "it", "them", "following", "below", "above", "here"];

/// Nouns that only name the text pointed at (`these things`, `the following steps`).
const PLACEHOLDER_NOUNS: &[&str] = &["the", "thing", "things", "step", "steps", "rule", "rules", "item", "items", "one", "ones"];

/// An action such as `do these` or `follow the steps below`: after its verb, only words that point
/// at other text, at least one of them a pointer. Its meaning is what it points at, so two
/// files' (or two headings') identical words need not be one action.
fn points_elsewhere(action: &str) -> bool {
    let object: Vec<&str> = action.split_whitespace().skip(1).collect();
    object.iter().any(|w| POINTERS.contains(w)) && object.iter().all(|w| POINTERS.contains(w) || PLACEHOLDER_NOUNS.contains(w))
}

#[cfg(test)]
mod tests {
    use super::points_elsewhere;

    #[test]
    fn tells_pointing_actions_apart() {
        assert!(points_elsewhere("do these"));
        assert!(points_elsewhere("do the following"));
        assert!(points_elsewhere("follow the steps below"));
        assert!(!points_elsewhere("follow the rules"));
        assert!(!points_elsewhere("use tabs"));
        assert!(!points_elsewhere("commit this file"));
    }
}
