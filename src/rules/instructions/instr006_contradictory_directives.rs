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
            never…\") are not compared. Files in one chain and within one file are compared.",
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
