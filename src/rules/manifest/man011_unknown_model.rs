//! MAN011: the model is not in ctxc's model table.
//!
//! Found by [`crate::manifest::load_with`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "`[agent] model` is not a model ctxc knows, so a 64,000-token window and estimated counts are assumed.",
    why: "Budgets, the response reserve and the summarization trigger are all fractions of the model's window; with the \
          wrong window every one of them is wrong. Usually the model id has a typo (the message suggests the closest \
          known id); for a new or private model set `context_window` and `tokenizer` under `[agent]`.",
    fails: Example { file: "ctxc.toml", text: "[agent]\nname = \"helper\"\nmodel = \"gpt-4-o\"\n" },
    passes: Example { file: "ctxc.toml", text: "[agent]\nname = \"helper\"\nmodel = \"gpt-4o\"\n" },
    notes: "",
    stage: Stage::LoadWarning,
};
