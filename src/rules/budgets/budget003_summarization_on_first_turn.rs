//! BUDGET003: the fixed context alone reaches the summarization trigger.
//!
//! Found by [`crate::checks::budgets::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "The fixed context (system prompt plus tool schemas) of some mode reaches the summarization trigger (`[summarization] trigger_ratio` of the window).",
    why: "Summarization fires when the context reaches the trigger. If the prompt and tool schemas alone reach it, \
          compaction runs on the first turn and on every turn after: the conversation can never keep any history.",
    fails: Example { file: "ctxc.toml", text: "[agent]\nname = \"helper\"\ncontext_window = 8192\n\n[summarization]\ntrigger_ratio = 0.02  # 163 tokens; the fixed context is 188\n" },
    passes: Example { file: "ctxc.toml", text: "[agent]\nname = \"helper\"\ncontext_window = 8192\n\n[summarization]\ntrigger_ratio = 0.8\n" },
    notes: "",
    stage: Stage::Budgets,
};
