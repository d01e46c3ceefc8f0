//! BUDGET006: a workload declared in a scenario exceeds the window, or summarizes before its turn.
//!
//! Found by [`crate::checks::workloads::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A scenario's `workload`, replayed through the runtime's context policy (as `ctxc simulate` does), sends a request over the window, or summarizes before `summarize_not_before`.",
    why: "A prompt that fits on the first turn can still lose the conversation later: each turn adds history until the \
          runtime summarizes, and a larger system prompt or tool list moves that point earlier. A workload that \
          stands for a typical session turns the policy into something CI checks: the turn of the first summarization \
          and whether the window holds.",
    fails: Example {
        file: "ctxc.toml",
        text: "[agent]\nname = \"helper\"\nmodel = \"gpt-4o\"\n\n[summarization]\ntrigger_ratio = 0.85\nkeep_messages = 5\n\n[scenarios.default]\nworkload = \"long-chat.toml\"  # 40 turns of 5,000 to 12,000 characters each way: summarizes at turn 35\nsummarize_not_before = 50\n",
    },
    passes: Example {
        file: "ctxc.toml",
        text: "[agent]\nname = \"helper\"\nmodel = \"gpt-4o\"\n\n[summarization]\ntrigger_ratio = 0.85\nkeep_messages = 5\n\n[scenarios.default]\nworkload = \"long-chat.toml\"\nsummarize_not_before = 30\n",
    },
    notes: "The workload file is described in docs/simulate.md. The window is checked with ctxc's count of each request; the summarization turn is the runtime's, from its own count. An agent's simulations (its modes × scenarios) share one budget (docs/simulate.md#limits): a workload that goes over it is reported here at its `workload` and the check ends with exit 2.",
    stage: Stage::Budgets,
};
