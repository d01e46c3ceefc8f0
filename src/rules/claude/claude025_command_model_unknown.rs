//! CLAUDE025: a slash command `model` Claude Code does not know.

use crate::agent_files::FileKind;
use crate::rules::claude::{field, unknown_model, with_fields};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A slash command's `model` is not `sonnet`, `opus`, `haiku`, `fable` or a full Claude model id.",
    why: "A command's `model` switches the model for that command only. Claude Code accepts an alias (`sonnet`, \
          `opus`, `haiku`, `fable`) or a full model id such as `claude-3-5-haiku-20241022`; anything else does not select the \
          model the file names. Source: \
          `anthropics/claude-code:plugins/plugin-dev/skills/command-development/references/frontmatter-reference.md` \
          (model) and https://code.claude.com/docs/en/slash-commands.",
    fails: Example { file: ".claude/commands/summarize.md", text: "---\nmodel: gpt-4o-mini\n---\nSummarize the diff.\n" },
    passes: Example { file: ".claude/commands/summarize.md", text: "---\nmodel: haiku\n---\nSummarize the diff.\n" },
    notes: "When only the case is wrong (`Haiku`) a safe fix writes it in lowercase.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    with_fields(cx, FileKind::ClaudeCommand)
        .into_iter()
        .filter_map(|(doc, fields)| {
            let model = field(&fields, "model")?;
            unknown_model(doc, &model.value, model.value_span.clone(), "command")
        })
        .collect()
}
