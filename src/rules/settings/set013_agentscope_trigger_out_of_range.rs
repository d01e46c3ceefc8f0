//! SET013: AgentScope's trigger ratio out of range.
//!
//! Found by [`crate::checks::settings::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "AgentScope's `trigger_ratio` is outside (0, 0.9]: 0 or less, or above AgentScope's cap of 0.9.",
    why: "AgentScope compresses when the context exceeds `trigger_ratio` of the model's context size, and caps the \
          ratio at 0.9: the last 10 % of the window is room for the compression call itself. At 0 or below, every \
          turn would compress.",
    fails: Example { file: "ctxc.toml", text: "[agentscope]\ntrigger_ratio = 0.95\n" },
    passes: Example { file: "ctxc.toml", text: "[agentscope]\ntrigger_ratio = 0.8\n" },
    notes: "",
    stage: Stage::Settings,
};
