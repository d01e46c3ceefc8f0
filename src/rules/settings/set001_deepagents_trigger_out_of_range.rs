//! SET001: Deep Agents' summarization trigger out of range.
//!
//! Found by [`crate::checks::settings::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "Deep Agents' summarization `trigger` is out of range: a fraction outside (0, 1], a count of tokens or messages that is 0, or more tokens than the model's window.",
    why: "A trigger beyond the window never fires: the conversation overflows first, and Deep Agents falls back to \
          emergency summarization after a `ContextOverflowError`. A trigger of 0 (or a fraction of 0 or less) would \
          summarize on every turn.",
    fails: Example { file: "ctxc.toml", text: "[deepagents.summarization]\ntrigger = { fraction = 1.5 }  # a share of max input tokens: at most 1\n" },
    passes: Example { file: "ctxc.toml", text: "[deepagents.summarization]\ntrigger = { fraction = 0.85 }\n" },
    notes: "Without `[deepagents.summarization] trigger`, Deep Agents fires at 85 % of the model's max input tokens when \
          the model has a profile, and at 170,000 tokens when it has none. A model ctxc does not know (and without \
          `agent.context_window`) gets ctxc's fallback window of 64,000 tokens, so there the 170,000-token default is \
          itself beyond the window and is reported: set `agent.context_window` or the trigger.",
    stage: Stage::Settings,
};
