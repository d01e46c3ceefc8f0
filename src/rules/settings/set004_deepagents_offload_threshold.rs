//! SET004: Deep Agents' offload threshold is too large.
//!
//! Found by [`crate::checks::settings::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "One tool result just under Deep Agents' `tool_token_limit_before_evict`, after the fixed context, reaches the summarization trigger.",
    why: "Deep Agents keeps tool results under `tool_token_limit_before_evict` tokens (4 characters per token) in the \
          context and offloads larger ones to the filesystem. If one result under the limit can take the context past \
          the summarization trigger by itself, every large read sets off a summarization.",
    fails: Example { file: "ctxc.toml", text: "# model gpt-4o: summarization at 85 % of 128,000 = 108,800 tokens\n[deepagents]\ntool_token_limit_before_evict = 110000\n" },
    passes: Example { file: "ctxc.toml", text: "# model gpt-4o: summarization at 85 % of 128,000 = 108,800 tokens\n[deepagents]\ntool_token_limit_before_evict = 20000\n" },
    notes: "Not checked against a trigger in messages. The preset's default is 20,000 tokens. 0 switches offloading off, as \
            `None` does in Deep Agents (`if not self._tool_token_limit_before_evict: return`): not a finding.",
    stage: Stage::Settings,
};
