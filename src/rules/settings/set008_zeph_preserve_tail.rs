//! SET008: Zeph's preserved tail is 0 or not below the history length.
//!
//! Found by [`crate::checks::settings::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "Zeph's `compaction_preserve_tail` is 0, or it is not below `[history] max_messages`.",
    why: "Compaction summarizes the older messages and keeps the last `compaction_preserve_tail` of them. Keeping none \
          loses the immediate context; keeping at least as many as the history holds means compaction can never \
          shorten it.",
    fails: Example { file: "ctxc.toml", text: "[history]\nmax_messages = 40\n\n[zeph]\ncompaction_preserve_tail = 40\n" },
    passes: Example { file: "ctxc.toml", text: "[history]\nmax_messages = 40\n\n[zeph]\ncompaction_preserve_tail = 4\n" },
    notes: "Compared with `[history] max_messages` only when it is set.",
    stage: Stage::Settings,
};
