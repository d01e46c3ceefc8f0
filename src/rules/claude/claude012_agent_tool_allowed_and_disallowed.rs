//! CLAUDE012: a tool both granted and taken away in one subagent.

use crate::agent_files::FileKind;
use crate::rules::claude::{field, tool_list, with_fields};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A subagent lists the same tool in both `tools` and `disallowedTools`.",
    why: "`disallowedTools` is removed from the tools the agent gets, so a tool in both lists is not available — \
          while `tools` says the agent needs it. One of the two entries is a mistake. Source: \
          https://code.claude.com/docs/en/sub-agents (\"disallowedTools: tools to deny, removed from the inherited or \
          specified list\").",
    fails: Example { file: ".claude/agents/reviewer.md", text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\ntools: Read, Grep, Bash\ndisallowedTools: Bash\n---\nYou review code.\n" },
    passes: Example {
        file: ".claude/agents/reviewer.md",
        text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\ntools: Read, Grep\ndisallowedTools: Bash\n---\nYou review code.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, fields) in with_fields(cx, FileKind::ClaudeAgent) {
        let (Some(tools), Some(denied)) = (field(&fields, "tools"), field(&fields, "disallowedTools")) else { continue };
        let granted: Vec<String> = tool_list(&doc.text, tools).into_iter().map(|(t, _)| t).collect();
        for (tool, span) in tool_list(&doc.text, denied) {
            if granted.contains(&tool) {
                findings.push(
                    Diagnostic::finding(format!("`{tool}` is in both `tools` and `disallowedTools`, so the agent does not get it"))
                        .in_file(&doc.file)
                        .at(span.or_else(|| denied.span()))
                        .help("remove it from one of the two lists"),
                );
            }
        }
    }
    findings
}
