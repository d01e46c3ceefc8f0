//! SET014: AgentScope's reserve ratio not below the trigger ratio.
//!
//! Found by [`crate::checks::settings::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "AgentScope's `reserve_ratio` is 0 or less, or not below `trigger_ratio`; or its `context_buffer_ratio` is not below `trigger_ratio` while runtime state is injected.",
    why: "Compression keeps `reserve_ratio` of the context size as recent messages. At or above the trigger it leaves \
          nothing to compress, so compression fires again at once; at 0 it keeps no recent message. \
          `Agent._validate_configs` (agent/_agent.py, 2.0.6–2.0.11) also refuses a `context_buffer_ratio` at or above the \
          trigger when `inject_runtime_state` (the default) or the compression tool is on: the agent is warned of the \
          coming compression at trigger − buffer.",
    fails: Example { file: "ctxc.toml", text: "[agentscope]\ntrigger_ratio = 0.8\nreserve_ratio = 0.8\n" },
    passes: Example { file: "ctxc.toml", text: "[agentscope]\ntrigger_ratio = 0.8\nreserve_ratio = 0.1\n" },
    notes: "",
    stage: Stage::Settings,
};
