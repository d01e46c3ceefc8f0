//! CLAUDE022: positional arguments without an `argument-hint`.

use crate::agent_files::FileKind;
use crate::rules::claude::{argument_refs, field, fields};
use crate::rules::markdown::prose;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A slash command uses positional arguments (`$1`, `$2`, …) in its prose but has no `argument-hint`.",
    why: "With positional arguments the order matters: `/review 42 high` and `/review high 42` mean different things. \
          `argument-hint` is what Claude Code shows while the user types the command (`/review [pr-number] \
          [priority]`); without it nobody knows which argument goes where. Source: \
          `anthropics/claude-code:plugins/plugin-dev/skills/command-development/references/frontmatter-reference.md` \
          (argument-hint) and https://code.claude.com/docs/en/slash-commands.",
    fails: Example {
        file: ".claude/commands/review.md",
        text: "---\ndescription: Review a pull request\n---\nReview PR #$1 with priority $2.\n",
    },
    passes: Example {
        file: ".claude/commands/review.md",
        text: "---\ndescription: Review a pull request\nargument-hint: [pr-number] [priority]\n---\nReview PR #$1 with priority $2.\n",
    },
    notes: "References inside code blocks and code spans are not counted (`awk '{print $1}'` is not an argument), nor \
            amounts of money (`$2-5M`, `$1.50`).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::ClaudeCommand) {
        let fields = fields(doc).unwrap_or_default();
        if field(&fields, "argument-hint").is_some() {
            continue;
        }
        let prose = prose(cx.root.cache(), doc.body());
        let Some((range, name)) = argument_refs(&prose).into_iter().find(|(_, n)| n.len() == 2) else { continue };
        let start = doc.body_start();
        findings.push(
            Diagnostic::finding(format!("the command uses positional argument `{name}` but has no `argument-hint`"))
                .in_file(&doc.file)
                .at(Some(start + range.start..start + range.end))
                .help("add `argument-hint:` naming each argument in order, e.g. `argument-hint: [pr-number] [priority]`"),
        );
    }
    findings
}
