//! SET003: the fixed context reaches a reference system's compaction trigger.
//!
//! Found by [`crate::checks::settings::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "The fixed context (system prompt, tool schemas and message framing, in the mode and scenario where it is largest) reaches the point where the preset's system compacts: Deep Agents' summarization trigger, Zeph's `compaction_threshold` or AgentScope's `trigger_ratio`.",
    why: "Compaction can only shorten the conversation, never the system prompt or the tool schemas. If they alone \
          reach the trigger, compaction fires on the first turn, on every turn after it, and never gets the context \
          below the trigger. Raise the trigger or shrink the fixed context.",
    fails: Example { file: "ctxc.toml", text: "# a ~1,300-token fixed context, model gpt-4o (128,000 tokens)\n[agentscope]\ntrigger_ratio = 0.005  # 640 tokens\nreserve_ratio = 0.001\n" },
    passes: Example { file: "ctxc.toml", text: "# a ~1,300-token fixed context, model gpt-4o (128,000 tokens)\n[agentscope]\ntrigger_ratio = 0.8\nreserve_ratio = 0.1\n" },
    notes: "Points at the trigger: `[deepagents.summarization] trigger` (when it is in tokens or a fraction; a trigger in \
          messages is not compared), `[zeph] compaction_threshold` (a share of the budget) or `[agentscope] \
          trigger_ratio` (a share of the model's context size). A fixed context that reaches the trigger also leaves \
          no room for a tool result, so SET004, SET009 or SET015 (the same system's) is always reported with it.",
    stage: Stage::Settings,
};
