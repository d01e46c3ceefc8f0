//! CLAUDE021: a `!` shell line that `allowed-tools` does not grant.

use crate::agent_files::FileKind;
use crate::rules::claude::{bash_injections, field, fields, tool_list, tool_of};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A slash command runs a `!`command`` line but its `allowed-tools` list grants no `Bash` at all.",
    why: "Claude Code runs `!`…`` lines only when the command's `allowed-tools` allows that Bash command (`Bash`, \
          `Bash(git status:*)`, `Bash(git *)`); a list that restricts the command's tools without any `Bash` entry \
          makes the line fail and the prompt is sent with an error \
          instead of the output it was written around. Source: \
          `anthropics/claude-code:plugins/plugin-dev/skills/command-development/SKILL.md` (\"bash execution requires \
          allowed-tools\") and https://code.claude.com/docs/en/slash-commands.",
    fails: Example {
        file: ".claude/commands/lint.md",
        text: "---\nallowed-tools: Read, Edit\n---\nLint output: !`npm run lint`\n\nFix each problem it reports.\n",
    },
    passes: Example {
        file: ".claude/commands/lint.md",
        text: "---\nallowed-tools: Read, Edit, Bash(npm run lint)\n---\nLint output: !`npm run lint`\n\nFix each problem it reports.\n",
    },
    notes: "Only commands whose `allowed-tools` holds no `Bash` entry are reported: whether a narrower `Bash(…)` rule \
            covers a line is left alone, since Claude Code also runs some read-only commands (`git status`) without a \
            rule. `!` lines inside fenced code blocks are not checked.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ClaudeCommand) {
        let injections = bash_injections(doc.body(), doc.body_start());
        let fields = fields(doc).unwrap_or_default();
        let Some(allowed) = field(&fields, "allowed-tools") else { continue };
        if injections.is_empty() || tool_list(&doc.text, allowed).iter().any(|(entry, _)| tool_of(entry) == "Bash") {
            continue;
        }
        for (range, command) in injections {
            let command = command.trim();
            let first_word = command.split_whitespace().next().unwrap_or(command);
            findings.push(
                Diagnostic::finding(format!("shell line `{command}` will not run: `allowed-tools` grants no `Bash`"))
                    .in_file(&doc.file)
                    .at(Some(range))
                    .help(format!("add `Bash({first_word}:*)` (or a narrower rule) to `allowed-tools`")),
            );
        }
    }
    findings
}
