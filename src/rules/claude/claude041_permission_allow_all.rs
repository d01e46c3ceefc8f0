//! CLAUDE041: committed settings that allow every shell command.

use crate::agent_files::FileKind;
use crate::rules::claude::permission_rules;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_value, json_docs};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The committed `.claude/settings.json` allows every shell command (`Bash`, `Bash(*)`, `Bash(:*)`).",
    why: "`.claude/settings.json` is shared with everyone who clones the repository. Allowing `Bash` without a \
          specifier lets Claude run any command — `curl … | sh`, `rm -rf`, `git push --force` — without asking, on \
          every contributor's machine. Allow the commands the project needs (`Bash(npm run test:*)`), or keep broad \
          rules in the git-ignored `.claude/settings.local.json`. Source: https://code.claude.com/docs/en/iam and \
          https://code.claude.com/docs/en/settings (settings files and their scope).",
    fails: Example { file: ".claude/settings.json", text: "{\n  \"permissions\": {\n    \"allow\": [\"Bash\", \"Read\"]\n  }\n}\n" },
    passes: Example {
        file: ".claude/settings.json",
        text: "{\n  \"permissions\": {\n    \"allow\": [\"Bash(npm run test:*)\", \"Bash(git status)\", \"Read\"]\n  }\n}\n",
    },
    notes: "`settings.local.json` is personal and not reported.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudeSettings]) {
        let Ok(value) = &*json else { continue };
        if doc.name() != "settings.json" {
            continue;
        }
        for (list, i, rule) in permission_rules(value) {
            if list == "allow" && matches!(rule.trim(), "Bash" | "Bash(*)" | "Bash(:*)" | "Bash(**)") {
                let d = Diagnostic::finding(format!("`{rule}` in the shared settings lets Claude run any shell command without asking"))
                    .help("allow specific commands (`Bash(npm run test:*)`), or move this rule to `.claude/settings.local.json`");
                findings.push(at_value(d, doc, &[Step::Key("permissions"), Step::Key("allow"), Step::Index(i)]));
            }
        }
    }
    findings
}
