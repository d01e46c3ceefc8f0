//! SET011: Zeph's budget is larger than the model's window.
//!
//! Found by [`crate::checks::settings::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "Zeph's `context_budget_tokens` is larger than the model's window (max input tokens).",
    why: "The budget is what Zeph's layout divides. A budget larger than the window plans room the model cannot take, \
          so requests fail before compaction fires.",
    fails: Example { file: "ctxc.toml", text: "# model gpt-4o-mini: 128,000 tokens\n[zeph]\ncontext_budget_tokens = 200000\n" },
    passes: Example { file: "ctxc.toml", text: "# model gpt-4o-mini: 128,000 tokens\n[zeph]\ncontext_budget_tokens = 100000\n" },
    notes: "0 (the preset's default) means the model's window, as Zeph's `auto_budget` does.",
    stage: Stage::Settings,
};
