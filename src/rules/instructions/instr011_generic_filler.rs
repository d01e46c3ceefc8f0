//! INSTR011: a platitude that gives the agent nothing to act on.

use crate::rules::chains::{normalize_line, sentences};
use crate::rules::prelude::*;
use crate::rules::refs::markdown_files;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An instruction in an agent file is a generic platitude (`Write clean code.`, `Follow best practices.`, `You are a helpful assistant.`).",
    why: "Models already try to be helpful and write good code; a sentence saying so costs tokens on every request \
          and changes nothing. Claude Code's memory guidance: \"Be specific: 'Use 2-space indentation' is better \
          than 'Format code properly'\" (https://docs.anthropic.com/ja/docs/claude-code/memory); agnix flags the \
          same pattern (CC-MEM-005, agent-sh/agnix:knowledge-base/VALIDATION-RULES.md@029f2634).",
    fails: Example { file: "AGENTS.md", text: "# Guidelines\n\n- Write clean code.\n- Follow best practices.\n" },
    passes: Example { file: "AGENTS.md", text: "# Guidelines\n\n- Keep functions under 40 lines.\n- Run `ruff check` before committing.\n" },
    notes: "Only a sentence standing alone on its line (a list item, a one-line paragraph) from a short list is reported: `you are a helpful assistant`, `be helpful`, `write clean \
            code`, `write good code`, `write clean and maintainable code`, `follow best practices`, `always follow best \
            practices`, `use best practices`, `do your best`, `be accurate`, `be smart`.",
    stage: Stage::Lint(check),
};

const PLATITUDES: [&str; 14] = [
    "you are a helpful assistant",
    "you are a helpful ai assistant",
    "be helpful",
    "be helpful and accurate",
    "write clean code",
    "write good code",
    "write clean and maintainable code",
    "write clean, maintainable code",
    "follow best practices",
    "always follow best practices",
    "use best practices",
    "do your best",
    "be accurate",
    "be smart",
];

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for file in markdown_files(cx) {
        for sentence in sentences(cx.root.cache(), file.text).iter() {
            // The whole line: a bold lead-in (`**Be accurate.** Check the docs…`) introduces real guidance.
            if !PLATITUDES.contains(&sentence.text.as_str()) {
                continue;
            }
            let line_start = file.text[..sentence.span.start].rfind('\n').map_or(0, |i| i + 1);
            let line_end = file.text[sentence.span.end..].find('\n').map_or(file.text.len(), |i| sentence.span.end + i);
            if normalize_line(&file.text[line_start..line_end]) != sentence.text {
                continue;
            }
            findings.push(
                Diagnostic::finding(format!(
                    "`{}` is a platitude: it gives the agent nothing to act on",
                    &file.text[sentence.span.clone()]
                ))
                .in_file(file.file)
                .at(Some(sentence.span.clone()))
                .label("generic")
                .help("replace it with a specific, checkable instruction, or remove it"),
            );
        }
    }
    findings
}
