//! CLAUDE040: a permission rule listed twice in the same list.

use crate::agent_files::FileKind;
use crate::diagnostic::{Edit, Fix};
use crate::rules::claude::permission_rules;
use crate::rules::json_span::Step;
use crate::rules::json_span::{json_docs, place};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A permission rule appears twice in the same `allow`, `ask` or `deny` list.",
    why: "A repeated rule changes nothing, but it makes the list longer to review and is often a leftover of an \
          edit that meant to change one of the copies (a narrower path, a different command). Source: \
          https://code.claude.com/docs/en/iam (permission rules).",
    fails: Example {
        file: ".claude/settings.json",
        text: "{\n  \"permissions\": {\n    \"allow\": [\"Bash(npm test)\", \"Read\", \"Bash(npm test)\"]\n  }\n}\n",
    },
    passes: Example {
        file: ".claude/settings.json",
        text: "{\n  \"permissions\": {\n    \"allow\": [\"Bash(npm test)\", \"Read\"]\n  }\n}\n",
    },
    notes: "The attached safe fix removes the later copy.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudeSettings]) {
        let Ok(value) = &*json else { continue };
        let rules = permission_rules(value);
        for (n, (list, i, rule)) in rules.iter().enumerate() {
            if !rules[..n].iter().any(|(l, _, r)| l == list && r == rule) {
                continue;
            }
            let path = [Step::Key("permissions"), Step::Key(list), Step::Index(*i)];
            let Some(at) = place(doc, &path) else { continue };
            // The item and the comma before it (a duplicate is never the first item).
            let before = doc.text[..at.value.start].trim_end();
            let span = before.strip_suffix(',').map(|b| b.len()..at.value.end);
            let mut d = Diagnostic::finding(format!("`{rule}` is listed twice in `{list}`"))
                .in_file(&doc.file)
                .at(Some(at.value.clone()))
                .help("remove the second copy");
            if let Some(span) = span {
                d = d.fix(Fix::safe("remove the duplicate", vec![Edit::replace(&doc.file, span, "")]));
            }
            findings.push(d);
        }
    }
    findings
}
