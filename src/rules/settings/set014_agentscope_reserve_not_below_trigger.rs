//! SET014: AgentScope's reserve ratio not below the trigger ratio.

use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::SET014,
    name: "agentscope-reserve-not-below-trigger",
    family: Family::Settings,
    severity: Severity::Error,
    summary: "AgentScope's `reserve_ratio` is 0 or less, or not below `trigger_ratio`.",
    why: "Compression keeps `reserve_ratio` of the context size as recent messages. At or above the trigger it leaves \
          nothing to compress, so compression fires again at once; at 0 it keeps no recent message.",
    fails: Example { file: "ctxc.toml", text: "[agentscope]\ntrigger_ratio = 0.8\nreserve_ratio = 0.8\n" },
    passes: Example { file: "ctxc.toml", text: "[agentscope]\ntrigger_ratio = 0.8\nreserve_ratio = 0.1\n" },
    notes: "",
    stage: Stage::Settings,
};
