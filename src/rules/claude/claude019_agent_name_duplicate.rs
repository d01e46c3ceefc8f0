//! CLAUDE019: two subagents of a project with the same name.

use std::collections::BTreeMap;

use crate::agent_files::FileKind;
use crate::rules::claude::{field, with_fields};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "Two subagent files in the same `.claude/agents/` tree declare the same `name`.",
    why: "Claude Code identifies a subagent by its `name`, not its file name; when two project agents share one, only \
          one of them is loaded and the other is never delegated to. Source: https://code.claude.com/docs/en/sub-agents \
          (\"name: unique identifier\").",
    fails: Example {
        file: ".claude/agents/review-fast.md",
        text: "---\nname: reviewer\ndescription: Quick review of small diffs. Use for one-line changes.\n---\nYou skim diffs.\n",
    },
    passes: Example {
        file: ".claude/agents/review-fast.md",
        text: "---\nname: quick-reviewer\ndescription: Quick review of small diffs. Use for one-line changes.\n---\nYou skim diffs.\n",
    },
    notes: "Agents are compared within one `.claude/agents/` folder tree (one project), or within one plugin (its agents \
            are named `plugin:agent`, so they never clash with the project's or another plugin's); the first file in path \
            order is taken as the original and each later one is reported.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut first: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut findings = Vec::new();
    for (doc, fields) in with_fields(cx, FileKind::ClaudeAgent) {
        let Some(name) = field(&fields, "name") else { continue };
        let Some(value) = name.value.as_str().map(str::trim).filter(|s| !s.is_empty()) else { continue };
        // A plugin's agents are named `plugin:agent`, apart from the project's and other plugins'.
        let project = match &doc.plugin {
            Some(plugin) => format!("plugin {}", plugin.rel),
            None => doc.rel.find(".claude/agents/").map_or("", |i| &doc.rel[..i]).to_string(),
        };
        match first.get(&(project.clone(), value.to_string())) {
            Some(original) => findings.push(
                Diagnostic::finding(format!("subagent name `{value}` is also declared by {original}; only one of them is loaded"))
                    .in_file(&doc.file)
                    .at(name.span())
                    .help("give each subagent its own name"),
            ),
            None => {
                first.insert((project, value.to_string()), doc.rel.clone());
            }
        }
    }
    findings
}
