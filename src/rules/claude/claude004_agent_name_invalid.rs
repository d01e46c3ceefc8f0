//! CLAUDE004: a subagent name that is not lowercase letters, digits and hyphens.

use crate::agent_files::FileKind;
use crate::diagnostic::{Edit, Fix};
use crate::rules::claude::{field, with_fields};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A subagent's `name` is not a string of lowercase letters, digits and hyphens starting and ending with a letter or digit.",
    why: "The docs define `name` as a \"unique identifier using lowercase letters and hyphens\", and Anthropic's plugin \
          guide asks for names that start and end with a letter or digit. Names with spaces, capitals or \
          underscores are what users and other agents type to delegate (`@agent-…`), and break across tools. Sources: \
          https://code.claude.com/docs/en/sub-agents, \
          `anthropics/claude-code:plugins/plugin-dev/skills/agent-development/SKILL.md` (identifier rules).",
    fails: Example {
        file: ".claude/agents/reviewer.md",
        text:
            "---\nname: Code Reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\n---\nYou review code.\n",
    },
    passes: Example {
        file: ".claude/agents/reviewer.md",
        text:
            "---\nname: code-reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\n---\nYou review code.\n",
    },
    notes: "The attached fix (unsafe: it renames the agent) lowercases the name and turns spaces and underscores into hyphens.",
    stage: Stage::Lint(check),
};

pub fn valid(name: &str) -> bool {
    let edge = |c: Option<char>| c.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') && edge(name.chars().next()) && edge(name.chars().last())
}

/// The name made valid: lowercase, runs of other characters turned into one hyphen.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, fields) in with_fields(cx, FileKind::ClaudeAgent) {
        let Some(name) = field(&fields, "name") else { continue };
        let Some(value) = name.value.as_str().filter(|s| !s.trim().is_empty() && !valid(s)) else { continue };
        let mut d = Diagnostic::finding(format!("subagent name `{value}` is not lowercase letters, digits and hyphens"))
            .in_file(&doc.file)
            .at(name.span())
            .help("use a name like `code-reviewer`: lowercase letters, digits and hyphens");
        let fixed = slug(value);
        if let (true, Some(span)) = (valid(&fixed), name.value_span.clone()) {
            d = d.fix(Fix::unsafe_(format!("rename to `{fixed}`"), vec![Edit::replace(&doc.file, span, fixed)]));
        }
        findings.push(d);
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(valid("code-reviewer") && valid("a11y") && valid("qa") && !valid("Reviewer") && !valid("-x-y") && !valid("a_b"));
        assert_eq!(slug(" Code Reviewer_v2 "), "code-reviewer-v2");
    }
}
