//! CLAUDE001: a Claude Code subagent file without a frontmatter block.

use crate::agent_files::FileKind;
use crate::rules::prelude::*;
use crate::yaml::FrontmatterError;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A file in `.claude/agents/` has no `---` frontmatter block (or the block is never closed).",
    why: "Claude Code reads a subagent's `name` and `description` from its YAML frontmatter; a Markdown file without \
          one is not offered as a subagent at all, so nothing ever delegates to it. Source: \
          https://code.claude.com/docs/en/sub-agents (file format) and \
          `anthropics/claude-code:plugins/plugin-dev/skills/agent-development/SKILL.md`.",
    fails: Example { file: ".claude/agents/reviewer.md", text: "# Reviewer\n\nYou review pull requests for correctness.\n" },
    passes: Example {
        file: ".claude/agents/reviewer.md",
        text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness and test coverage. Use after every change.\n---\nYou review pull requests for correctness.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ClaudeAgent) {
        let what = match &*doc.front {
            Err(FrontmatterError::Missing) => "has no frontmatter",
            Err(FrontmatterError::Unterminated) => "has a frontmatter block that is never closed with `---`",
            _ => continue,
        };
        findings.push(
            Diagnostic::finding(format!("subagent {} {what}", doc.rel))
                .in_file(&doc.file)
                .at(Some(0..doc.text.find('\n').unwrap_or(doc.text.len())))
                .help("start the file with a `---` block holding `name` and `description`, closed by `---`"),
        );
    }
    findings
}
