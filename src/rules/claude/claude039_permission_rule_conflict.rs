//! CLAUDE039: the same permission rule allowed and denied (or asked).

use crate::agent_files::FileKind;
use crate::rules::claude::permission_rules;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_value, json_docs};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "The same permission rule is in `allow` and in `deny` or `ask` of one settings file.",
    why: "Claude Code checks `deny` first, then `ask`, then `allow`, and the first match wins. A rule listed in \
          `allow` and also in `deny` (or `ask`) is never allowed: the `allow` entry is dead, and the file says two \
          opposite things about the same command. Source: https://code.claude.com/docs/en/iam (\"deny rules take \
          precedence over ask, then allow\").",
    fails: Example { file: ".claude/settings.json", text: "{\n  \"permissions\": {\n    \"allow\": [\"Bash(git push:*)\"],\n    \"deny\": [\"Bash(git push:*)\"]\n  }\n}\n" },
    passes: Example { file: ".claude/settings.json", text: "{\n  \"permissions\": {\n    \"allow\": [\"Bash(git push origin feature/*)\"],\n    \"deny\": [\"Bash(git push --force:*)\"]\n  }\n}\n" },
    notes: "Rules are compared as written (after trimming spaces).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudeSettings]) {
        let Ok(value) = &*json else { continue };
        let rules = permission_rules(value);
        for (i, rule) in rules.iter().filter(|(list, _, _)| *list == "allow").map(|(_, i, r)| (i, r.trim())) {
            let Some((winner, _, _)) = rules.iter().find(|(list, _, r)| *list != "allow" && r.trim() == rule) else { continue };
            let d = Diagnostic::finding(format!(
                "`{rule}` is in both `allow` and `{winner}`; `{winner}` wins, so the allow rule never applies"
            ))
            .help("keep the rule in one list only");
            findings.push(at_value(d, doc, &[Step::Key("permissions"), Step::Key("allow"), Step::Index(*i)]));
        }
    }
    findings
}
