//! CLAUDE023: a slash command `allowed-tools` that is not a tool list.

use crate::agent_files::FileKind;
use crate::rules::claude::{field, tool_list_problem, with_fields};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A slash command's `allowed-tools` is not a comma-separated string or a list of tool rules.",
    why: "`allowed-tools` is read as a comma-separated string (`Read, Bash(git status:*)`) or a YAML list of rules. A \
          mapping (`Bash: true`) or a list of mappings is not a list of rules: nothing is granted, so the command \
          stops for approvals and its `!` lines fail. Source: \
          `anthropics/claude-code:plugins/plugin-dev/skills/command-development/references/frontmatter-reference.md` \
          (allowed-tools: string or array).",
    fails: Example {
        file: ".claude/commands/status.md",
        text: "---\nallowed-tools:\n  Bash: true\n  Read: true\n---\nSummarize the working tree.\n",
    },
    passes: Example {
        file: ".claude/commands/status.md",
        text: "---\nallowed-tools: Bash(git status:*), Read\n---\nSummarize the working tree.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, fields) in with_fields(cx, FileKind::ClaudeCommand) {
        let Some(list) = field(&fields, "allowed-tools") else { continue };
        if let Some(bad) = tool_list_problem(&list.value) {
            findings.push(
                Diagnostic::finding(format!("`allowed-tools` is {bad}, not a list of tool rules"))
                    .in_file(&doc.file)
                    .at(list.key_span.clone())
                    .help("write `allowed-tools: Read, Bash(git status:*)` or a YAML list of rules"),
            );
        }
    }
    findings
}
