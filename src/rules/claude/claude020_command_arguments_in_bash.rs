//! CLAUDE020: command arguments substituted into a `!` shell line.

use crate::agent_files::FileKind;
use crate::rules::claude::{argument_refs, bash_injections};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A slash command puts `$ARGUMENTS` or `$1`…`$9` inside a `!`command`` line, which Claude Code runs in a shell.",
    why: "Claude Code replaces `$ARGUMENTS` and `$1`, `$2`… with what the user typed after the command, then runs each \
          `!`…`` line in a shell before the prompt is sent. An argument such as `x; rm -rf ~` or `$(curl …)` runs as \
          a command of its own — with the permissions `allowed-tools` grants and no approval prompt. Quoting does not \
          help: the text can close the quote. Pass arguments to the model instead and let it run commands through \
          the Bash tool, where each call is checked. Source: \
          `anthropics/claude-code:plugins/plugin-dev/skills/command-development/SKILL.md` (arguments, bash \
          execution) and https://code.claude.com/docs/en/slash-commands.",
    fails: Example { file: ".claude/commands/log.md", text: "---\nallowed-tools: Bash(git log:*)\nargument-hint: [branch]\n---\nRecent commits: !`git log --oneline $1`\n\nSummarize them.\n" },
    passes: Example {
        file: ".claude/commands/log.md",
        text: "---\nallowed-tools: Bash(git log:*)\nargument-hint: [branch]\n---\nRecent commits on the current branch: !`git log --oneline -20`\n\nSummarize them, focusing on branch $1 if given.\n",
    },
    notes: "`!` lines inside fenced code blocks are not checked.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ClaudeCommand) {
        for (range, command) in bash_injections(doc.body(), doc.body_start()) {
            for (arg, name) in argument_refs(command) {
                findings.push(
                    Diagnostic::finding(format!(
                        "`{name}` is substituted into the shell command `{command}`: an argument can run any command"
                    ))
                    .in_file(&doc.file)
                    .at(Some(range.start + arg.start..range.start + arg.end))
                    .help("keep user input out of `!` lines; mention the argument in the prompt and let the model run the command"),
                );
            }
        }
    }
    findings
}
