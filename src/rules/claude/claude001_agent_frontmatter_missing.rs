//! CLAUDE001: a Claude Code subagent file without a frontmatter block.

use crate::agent_files::FileKind;
use crate::rules::markdown::written_for_people;
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
    notes: "The frontmatter must open on the file's first line, as Claude Code reads it: a file starting with an HTML comment \
            (`<!-- generated -->`) before its `---` block has none. A README, changelog, licence or contributing file without \
            frontmatter is the folder's documentation and not reported (Claude Code passes over a file with no `name`).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ClaudeAgent) {
        let what = match &*doc.front {
            // Claude Code skips a file without a `name` silently: a README beside the subagents
            // is their documentation, not a subagent missing its frontmatter.
            Err(FrontmatterError::Missing) if written_for_people(&doc.rel) => continue,
            // A block opened further down (after a generated-file comment) is not read.
            Err(FrontmatterError::Missing) if doc.text.lines().skip(1).take(5).any(|l| l.trim_end() == "---") => {
                "has no frontmatter on its first line, where Claude Code reads it (the `---` block below is ignored)"
            }
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
