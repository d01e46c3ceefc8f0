//! CLAUDE027: a slash command with no prompt.

use crate::agent_files::FileKind;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A slash command file has nothing after its frontmatter: no prompt to send.",
    why: "The Markdown body of a command file is the prompt Claude Code sends when the command runs; frontmatter alone \
          sends an empty message (the `description` is only shown in the menu). Source: \
          `anthropics/claude-code:plugins/plugin-dev/skills/command-development/SKILL.md` (\"the body is the prompt\") \
          and https://code.claude.com/docs/en/slash-commands.",
    fails: Example { file: ".claude/commands/review.md", text: "---\ndescription: Review the staged changes for bugs\n---\n" },
    passes: Example {
        file: ".claude/commands/review.md",
        text: "---\ndescription: Review the staged changes for bugs\n---\nReview the staged changes. List bugs first, then style issues.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ClaudeCommand).filter(|d| d.front.is_ok() && d.body().trim().is_empty()) {
        let end = doc.body_start();
        findings.push(
            Diagnostic::finding(format!("command {} has no prompt after its frontmatter", doc.rel))
                .in_file(&doc.file)
                .at(Some(end.saturating_sub(4)..end))
                .help("write the prompt the command sends below the closing `---`"),
        );
    }
    findings
}
