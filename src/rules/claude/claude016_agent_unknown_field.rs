//! CLAUDE016: a subagent frontmatter field Claude Code does not read.

use crate::agent_files::FileKind;
use crate::diagnostic::did_you_mean;
use crate::rules::claude::read_fields;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A subagent's frontmatter has a field Claude Code does not read (often a misspelling such as `allowed-tools` or `disallowed_tools`).",
    why: "Claude Code reads a fixed set of subagent fields (`name`, `description`, `tools`, `disallowedTools`, \
          `model`, `permissionMode`, `maxTurns`, `skills`, `mcpServers`, `hooks`, `memory`, `background`, `effort`, \
          `isolation`, `color`) and ignores the rest without a word: a misspelt `allowed-tools` grants nothing and a \
          `permissions:` block restricts nothing. Source: https://code.claude.com/docs/en/sub-agents (supported \
          frontmatter fields); the list is Claude Code's host model, `data/hosts/claude-code.toml`.",
    fails: Example { file: ".claude/agents/reviewer.md", text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\nallowed-tools: Read, Grep\n---\nYou review code.\n" },
    passes: Example {
        file: ".claude/agents/reviewer.md",
        text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\ntools: Read, Grep\n---\nYou review code.\n",
    },
    notes: "Only frontmatter that parses as YAML is checked: in a block that does not (CLAUDE002), lines such as \
            `user: \"…\"` inside a multi-line description are not fields.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let fields = read_fields(FileKind::ClaudeAgent);
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ClaudeAgent) {
        for (key, _) in doc.fields().iter().filter(|(k, _)| !fields.contains(&k.as_str())) {
            let suggestion = match (key.as_str(), did_you_mean(key, fields.iter().copied())) {
                ("allowed-tools" | "allowedTools" | "allowed_tools", _) => Some("tools"),
                (_, found) => found,
            };
            let mut d = Diagnostic::finding(format!("`{key}` is not a subagent field; Claude Code ignores it"))
                .in_file(&doc.file)
                .at(doc.key_span(key))
                .groupable();
            d = match suggestion {
                Some(s) => d.help(format!("did you mean `{s}`?")),
                None => d.help("remove it, or move what it says into the description or the prompt"),
            };
            findings.push(d);
        }
    }
    findings
}
