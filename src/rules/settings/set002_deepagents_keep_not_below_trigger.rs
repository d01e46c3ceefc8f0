//! SET002: Deep Agents' summarization keep not below the trigger.
//!
//! Found by [`crate::checks::settings::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "Deep Agents' summarization `keep` is not below `trigger` (or a `keep` fraction is not at least 0 and below 1): summarizing would free nothing.",
    why: "Summarization replaces the older messages with a summary and keeps the most recent `keep` of the \
          conversation. Keeping as much as the trigger (or more) leaves the context at or above the trigger after \
          summarizing, so it fires again on the next turn without ever making room.",
    fails: Example { file: "ctxc.toml", text: "[deepagents.summarization]\ntrigger = { fraction = 0.85 }\nkeep = { fraction = 0.9 }\n" },
    passes: Example { file: "ctxc.toml", text: "[deepagents.summarization]\ntrigger = { fraction = 0.85 }\nkeep = { fraction = 0.1 }\n" },
    notes: "`keep` and `trigger` are compared in tokens (a fraction is taken of the model's max input tokens), or in \
          messages when both are messages; a count of messages is not compared with tokens.",
    stage: Stage::Settings,
};
