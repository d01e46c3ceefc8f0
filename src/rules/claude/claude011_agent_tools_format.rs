//! CLAUDE011: a subagent tool list that is neither a comma-separated string nor a list of strings.

use crate::agent_files::FileKind;
use crate::rules::claude::{tool_list_problem, with_fields};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A subagent's `tools` or `disallowedTools` is not a comma-separated string or a list of tool names.",
    why: "Claude Code reads `tools` as a comma-separated allowlist (`tools: Read, Grep, Glob`) or a YAML list of \
          names. A mapping, a number or a list of mappings is not a tool list: the restriction the author meant is \
          not applied. Source: https://code.claude.com/docs/en/sub-agents (\"tools: comma-separated list\") and \
          `anthropics/claude-code:plugins/plugin-dev/skills/agent-development/SKILL.md` (list form).",
    fails: Example { file: ".claude/agents/reviewer.md", text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\ntools:\n  Read: true\n  Grep: true\n---\nYou review code.\n" },
    passes: Example {
        file: ".claude/agents/reviewer.md",
        text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\ntools: Read, Grep\n---\nYou review code.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, fields) in with_fields(cx, FileKind::ClaudeAgent) {
        for list in fields.iter().filter(|f| f.key == "tools" || f.key == "disallowedTools") {
            let bad = tool_list_problem(&list.value);
            if let Some(bad) = bad {
                findings.push(
                    Diagnostic::finding(format!("`{}` is {bad}, not a list of tool names", list.key))
                        .in_file(&doc.file)
                        .at(list.key_span.clone())
                        .help("write the tools as `Read, Grep, Glob` or as a YAML list of names"),
                );
            }
        }
    }
    findings
}
