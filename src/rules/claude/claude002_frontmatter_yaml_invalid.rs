//! CLAUDE002: subagent or command frontmatter that is not valid YAML.

use crate::agent_files::FileKind;
use crate::rules::prelude::*;
use crate::yaml::FrontmatterError;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The frontmatter of a subagent or slash command is not valid YAML (Claude Code may still read it line by line).",
    why: "Claude Code loads many subagents whose frontmatter breaks strict YAML — typically a multi-line unquoted \
          `description` with `<example>` and `user: \"…\"` lines — but other tools that read the file (editors, \
          plugin validators, other linters) reject it, and a field after the broken line may be misread. Quote the \
          value or use a block scalar (`description: |`). Source: \
          `anthropics/claude-code:plugins/plugin-dev/skills/agent-development/SKILL.md` (frontmatter format).",
    fails: Example {
        file: ".claude/agents/planner.md",
        text: "---\nname: planner\ndescription: Use for plans. Examples:\n  user: \"plan the release\"\n  assistant: I'll use the planner\n---\nYou plan work.\n",
    },
    passes: Example {
        file: ".claude/agents/planner.md",
        text: "---\nname: planner\ndescription: |\n  Use for plans. Examples:\n  user: \"plan the release\"\n  assistant: I'll use the planner\n---\nYou plan work.\n",
    },
    notes: "A warning, not an error: the other CLAUDE rules read such a file as Claude Code does, one `key: value` line at a time. \
            An error on a command's `argument-hint: [pr-number] [priority]` line is not reported: it is the documented style.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ClaudeAgent).chain(cx.files_of(FileKind::ClaudeCommand)) {
        if let Err(FrontmatterError::Invalid(e)) = &*doc.front {
            // `argument-hint: [pr-number] [priority]` is the documented style, and Claude Code reads it.
            let line_start = e.offset.map_or(0, |o| doc.text[..o.min(doc.text.len())].rfind('\n').map_or(0, |i| i + 1));
            if doc.text[line_start..].starts_with("argument-hint:") {
                continue;
            }
            findings.push(
                Diagnostic::finding(format!("frontmatter of {} is not valid YAML: {}", doc.rel, e.message))
                    .in_file(&doc.file)
                    .at(e.offset.map(|o| o..o))
                    .help("quote the value or write it as a block scalar (`description: |` and indented lines)"),
            );
        }
    }
    findings
}
