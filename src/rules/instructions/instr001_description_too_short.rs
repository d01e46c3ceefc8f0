//! INSTR001: a routing description too short to choose on.

use crate::rules::instructions::{descriptions, word_count};
use crate::rules::prelude::*;

/// Descriptions with fewer words than this give a router nothing to match.
pub const MIN_WORDS: usize = 3;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The description an agent routes on (skill, Claude Code subagent, agent-requested Cursor rule, Copilot custom agent) has fewer than three words.",
    why: "The model decides from the description alone whether to load a skill, delegate to a subagent or apply a \
          rule: it should say what the item does and when to use it (Agent Skills specification, \
          https://agentskills.io/specification#description-field: \"Helps with PDFs.\" is its example of a poor \
          one; Claude Code subagents: \"when to delegate\", https://code.claude.com/docs/en/sub-agents; Cursor \
          agent-requested rules, https://cursor.com/docs/context/rules). One or two words (`PDF tools`) match \
          almost nothing, or everything.",
    fails: Example { file: ".claude/agents/reviewer.md", text: "---\nname: reviewer\ndescription: Reviewer\n---\nReview the diff for bugs.\n" },
    passes: Example {
        file: ".claude/agents/reviewer.md",
        text: "---\nname: reviewer\ndescription: Reviews a diff for bugs and missing tests. Use after code changes, before committing.\n---\nReview the diff for bugs.\n",
    },
    notes: "Words are counted by Unicode word boundaries, so a Japanese or Chinese description written without spaces \
            counts each ideograph or kana run, not one word. Empty descriptions are left to the rules for missing fields. Cursor rules are checked only when the agent \
            requests them by description (no `alwaysApply: true`, no `globs`).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for d in descriptions(cx) {
        let words = word_count(&d.description);
        if words == 0 || words >= MIN_WORDS {
            continue;
        }
        findings.push(
            Diagnostic::finding(format!(
                "description `{}` is {words} word{} long: too short to route on",
                d.description,
                if words == 1 { "" } else { "s" }
            ))
            .in_file(d.file)
            .at(d.span)
            .label("too short")
            .help("say what it does and when to use it, with the words a user's request would contain"),
        );
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::{word_count, MIN_WORDS};

    #[test]
    fn counts_words_without_spaces() {
        // Descriptions of the real shape: Japanese and Chinese skills, no spaces between words.
        assert!(word_count("PDFファイルからテキストを抽出し、フォームに入力するスキル") >= MIN_WORDS);
        assert!(word_count("用于审查代码变更并发现潜在问题") >= MIN_WORDS);
        assert_eq!(word_count("PDF tools"), 2);
        assert_eq!(word_count("Reviewer — "), 1);
    }
}
