//! SET009: Zeph's prune protection covers all that compaction could see.
//!
//! Found by [`crate::checks::settings::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "Zeph's `prune_protect_tokens` is at least what the messages can hold when soft compaction (pruning) fires (`soft_compaction_threshold` × budget − the largest fixed context).",
    why: "Before compacting with the LLM, Zeph prunes old tool output, but never within the most recent \
          `prune_protect_tokens` tokens. If the protected part covers everything the messages can hold, pruning never frees \
          anything and every compaction is an LLM call.",
    fails: Example { file: "ctxc.toml", text: "# model gpt-4o: soft compaction at 60 % of 128,000 = 76,800 tokens\n[zeph]\nprune_protect_tokens = 100000\n" },
    passes: Example { file: "ctxc.toml", text: "# model gpt-4o: soft compaction at 60 % of 128,000 = 76,800 tokens\n[zeph]\nprune_protect_tokens = 40000\n" },
    notes: "",
    stage: Stage::Settings,
};
