//! CLAUDE038: a permission rule Claude Code cannot parse.

use crate::rules::claude::each_permission;

use crate::rules::json_span::at_value;
use crate::rules::json_span::Step;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A rule in `permissions.allow`, `ask` or `deny` is not `Tool` or `Tool(specifier)`: unbalanced parentheses, text after `)`, an empty specifier, `:*` before the end, or a `WebFetch` rule without `domain:`.",
    why: "Permission rules have one syntax: a tool name, optionally followed by one parenthesised specifier \
          (`Bash(npm run test:*)`, `Read(./secrets/**)`, `WebFetch(domain:example.com)`). A rule Claude Code cannot \
          parse matches nothing — for a `deny` rule that means the command or file it was meant to protect is not \
          protected. The legacy prefix form `:*` is only recognised at the very end of a Bash specifier. Source: \
          https://code.claude.com/docs/en/iam (permission rule syntax) and https://code.claude.com/docs/en/settings.",
    fails: Example { file: ".claude/settings.json", text: "{\n  \"permissions\": {\n    \"deny\": [\"Bash(rm -rf:*\", \"WebFetch(evil.example.com)\"]\n  }\n}\n" },
    passes: Example { file: ".claude/settings.json", text: "{\n  \"permissions\": {\n    \"deny\": [\"Bash(rm -rf:*)\", \"WebFetch(domain:evil.example.com)\"]\n  }\n}\n" },
    notes: "",
    stage: Stage::Lint(check),
};

/// What is wrong with a rule's syntax, if anything.
pub fn problem(rule: &str) -> Option<String> {
    let rule = rule.trim();
    let (tool, spec) = match rule.split_once('(') {
        None if rule.contains(')') => return Some("has `)` without `(`".into()),
        None => (rule, None),
        Some((tool, rest)) => match rest.rfind(')') {
            None => return Some("has `(` without a closing `)`".into()),
            Some(end) if !rest[end + 1..].trim().is_empty() => return Some(format!("has text after `)`: `{}`", rest[end + 1..].trim())),
            Some(end) => (tool, Some(&rest[..end])),
        },
    };
    if tool.is_empty() {
        return Some("has no tool name".into());
    }
    if !tool.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '*' | '.')) {
        return Some(format!("tool name `{tool}` is not a name"));
    }
    let spec = spec?;
    if spec.trim().is_empty() {
        return Some("has an empty specifier `()`; write the tool name alone to match every use".into());
    }
    if tool == "Bash" && spec.contains(":*") && !spec.ends_with(":*") {
        return Some("uses `:*` before the end; the prefix form `:*` only works at the end (use `*` for a wildcard elsewhere)".into());
    }
    if tool == "WebFetch" && !spec.starts_with("domain:") {
        return Some("is a `WebFetch` rule without `domain:`; write `WebFetch(domain:example.com)`".into());
    }
    None
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_permission(cx, |doc, list, i, rule| {
        if let Some(problem) = problem(rule) {
            let d = Diagnostic::finding(format!("permission rule `{rule}` in `{list}` {problem}"))
                .help("write `Tool` or `Tool(specifier)`, e.g. `Bash(npm run test:*)` or `Read(./.env)`");
            findings.push(at_value(d, doc, &[Step::Key("permissions"), Step::Key(list), Step::Index(i)]));
        }
    });
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_syntax() {
        for ok in [
            "Bash",
            "Bash(npm run test:*)",
            "Bash(git * main)",
            "Read(./secrets/**)",
            "WebFetch(domain:a.com)",
            "mcp__github",
            "mcp__*",
            "Bash(echo (a))",
        ] {
            assert_eq!(problem(ok), None, "{ok}");
        }
        for bad in ["Bash(rm", "Bash(ls))x", "Bash()", "Bash(npm:* test)", "WebFetch(a.com)", "Bash git", "(x)"] {
            assert!(problem(bad).is_some(), "{bad}");
        }
    }
}
