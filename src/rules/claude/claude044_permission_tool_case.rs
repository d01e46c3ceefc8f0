//! CLAUDE044: a permission rule naming a built-in tool in the wrong case.

use crate::diagnostic::{Edit, Fix};
use crate::rules::claude::{each_permission, tool_case_typo, tool_of};
use crate::rules::json_span::place;
use crate::rules::json_span::Step;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A permission rule names a built-in tool in the wrong case (`bash(npm test)` for `Bash(npm test)`).",
    why: "Permission rules match tool names exactly. `bash(rm -rf:*)` in `deny` blocks nothing — the dangerous command \
          stays allowed — and the same typo in `allow` makes Claude ask every time. Source: \
          https://code.claude.com/docs/en/iam (permission rules) and https://code.claude.com/docs/en/settings (tools \
          available to Claude).",
    fails: Example {
        file: ".claude/settings.json",
        text: "{\n  \"permissions\": {\n    \"deny\": [\"bash(rm -rf:*)\", \"read(./.env)\"]\n  }\n}\n",
    },
    passes: Example {
        file: ".claude/settings.json",
        text: "{\n  \"permissions\": {\n    \"deny\": [\"Bash(rm -rf:*)\", \"Read(./.env)\"]\n  }\n}\n",
    },
    notes: "A safe fix writes the tool's name as Claude Code spells it.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_permission(cx, |doc, list, i, rule| {
        let tool = tool_of(rule);
        let Some(right) = tool_case_typo(tool) else { return };
        let at = place(doc, &[Step::Key("permissions"), Step::Key(list), Step::Index(i)]).map(|p| p.value);
        let mut d = Diagnostic::finding(format!("`{tool}` in permission rule `{rule}` is not a tool; tool names are case-sensitive"))
            .in_file(&doc.file)
            .at(at.clone())
            .help(format!("write `{right}`"));
        // The tool name starts right after the opening quote when the rule has no leading space.
        if let Some(at) = at.filter(|_| rule.starts_with(tool)) {
            d = d
                .fix(Fix::safe(format!("write `{right}`"), vec![Edit::replace(&doc.file, at.start + 1..at.start + 1 + tool.len(), right)]));
        }
        findings.push(d);
    });
    findings
}
