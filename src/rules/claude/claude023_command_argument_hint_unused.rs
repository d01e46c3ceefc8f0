//! CLAUDE023: an `argument-hint` for arguments the command never places.

use crate::agent_files::FileKind;
use crate::rules::claude_files::{argument_refs, field, fields};
use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::CLAUDE023,
    name: "command-argument-hint-unused",
    family: Family::Claude,
    severity: Severity::Warning,
    summary: "A slash command has an `argument-hint` but its body never uses `$ARGUMENTS` or `$1`…`$9`.",
    why: "The hint invites the user to type arguments, but a command body without `$ARGUMENTS` or `$1`… does not say \
          where they go: Claude Code only appends them after the prompt, away from the instructions about them, so \
          the model may ignore them. Place them where they belong (`Review PR #$1`). Source: \
          `anthropics/claude-code:plugins/plugin-dev/skills/command-development/SKILL.md` (arguments) and \
          https://code.claude.com/docs/en/slash-commands.",
    fails: Example { file: ".claude/commands/review.md", text: "---\nargument-hint: [pr-number]\n---\nReview the pull request.\n" },
    passes: Example { file: ".claude/commands/review.md", text: "---\nargument-hint: [pr-number]\n---\nReview pull request #$1.\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ClaudeCommand) {
        let fields = fields(doc).unwrap_or_default();
        let Some(hint) = field(&fields, "argument-hint") else { continue };
        if !argument_refs(doc.body()).is_empty() {
            continue;
        }
        findings.push(
            Diagnostic::warning("the command has an `argument-hint` but never uses `$ARGUMENTS` or `$1`…`$9`")
                .in_file(&doc.file)
                .at(hint.key_span.clone())
                .help("put `$ARGUMENTS` (or `$1`, `$2`…) where the arguments belong in the prompt, or remove the hint"),
        );
    }
    findings
}
