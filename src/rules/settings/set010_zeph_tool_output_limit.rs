//! SET010: Zeph's tool-output limit is 0 or too large for the history share.
//!
//! Found by [`crate::checks::settings::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "Zeph's `tool_output_max_chars` is 0, or one tool output cut at that limit does not fit in what the recent-history share leaves after the fixed context.",
    why: "Zeph cuts a longer tool output to `tool_output_max_chars` (keeping its start and its end). If one output at \
          the limit is larger than the room the recent-history share has for messages, it evicts every earlier \
          message on its own; at 0 every output is cut to nothing.",
    fails: Example { file: "ctxc.toml", text: "# model gpt-4o: the recent-history share is 61,440 tokens\n[zeph]\ntool_output_max_chars = 400000  # ~100,000 tokens\n" },
    passes: Example { file: "ctxc.toml", text: "# model gpt-4o: the recent-history share is 61,440 tokens\n[zeph]\ntool_output_max_chars = 30000  # ~7,500 tokens\n" },
    notes: "Characters are turned into tokens at 4 per token. The room is taken in the mode and scenario where the \
          recent-history share leaves the least after the fixed context.",
    stage: Stage::Settings,
};
