//! SET015: AgentScope's tool-result limit is 0 or larger than the room below the trigger.
//!
//! Found by [`crate::checks::settings::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "AgentScope's `tool_result_limit` is 0, or larger than the room between the fixed context and the compression trigger.",
    why: "AgentScope truncates tool results over `tool_result_limit` tokens. Above the room below the trigger, one result \
          at the limit sets off compression by itself (AgentScope's documentation warns that a limit set too high lets \
          one result fill the context); at 0 every result is truncated to nothing.",
    fails: Example {
        file: "ctxc.toml",
        text: "# model gpt-4o: compression at 80 % of 128,000 = 102,400 tokens\n[agentscope]\ntool_result_limit = 120000\n",
    },
    passes: Example {
        file: "ctxc.toml",
        text: "# model gpt-4o: compression at 80 % of 128,000 = 102,400 tokens\n[agentscope]\ntool_result_limit = 50000\n",
    },
    notes: "The room is taken in the mode and scenario with the largest fixed context.",
    stage: Stage::Settings,
};
