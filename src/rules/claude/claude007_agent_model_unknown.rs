//! CLAUDE007: a subagent `model` Claude Code does not know.

use crate::agent_files::FileKind;
use crate::rules::claude::{field, unknown_model, with_fields};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A subagent's `model` is not `sonnet`, `opus`, `haiku`, `fable`, `inherit` or a full Claude model id.",
    why: "Claude Code accepts a model alias (`sonnet`, `opus`, `haiku`, `fable`), `inherit` (the conversation's model, the \
          default) or a full model id such as `claude-opus-4-6`. Any other value does not select the model the file \
          names. Source: https://code.claude.com/docs/en/sub-agents (\"model\" field) and \
          https://code.claude.com/docs/en/model-config (aliases).",
    fails: Example { file: ".claude/agents/reviewer.md", text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\nmodel: gpt-4o\n---\nYou review code.\n" },
    passes: Example {
        file: ".claude/agents/reviewer.md",
        text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\nmodel: fable\n---\nYou review code.\n",
    },
    notes: "Bedrock and Vertex ids that name a Claude model (`us.anthropic.claude-…`) are accepted. When only the case is \
            wrong (`Sonnet`) a safe fix writes it in lowercase.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    with_fields(cx, FileKind::ClaudeAgent)
        .into_iter()
        .filter_map(|(doc, fields)| {
            let model = field(&fields, "model")?;
            unknown_model(doc, &model.value, model.value_span.clone(), "subagent")
        })
        .collect()
}
