//! SET006: the fixed context outgrows Zeph's recent-history share.
//!
//! Found by [`crate::checks::settings::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "The system prompt and the skills prompt leave nothing (or little) of what Zeph's shares divide, in the mode and scenario where they are largest.",
    why: "Zeph (zeph-context 0.22.4 `ContextBudget::allocate_with_opts`) subtracts the tokens of the whole system \
          prompt and, again, of the active-skills prompt from the budget after the response reserve, and splits only \
          what is left into summaries, recall, code context and recent history. A prompt that takes it all leaves \
          every share at 0 tokens: no recent message, no recalled memory.",
    fails: Example { file: "ctxc.toml", text: "# a 6-token system prompt\n[zeph]\ncontext_budget_tokens = 5\n" },
    passes: Example { file: "ctxc.toml", text: "# a 6-token system prompt\n[zeph]\ncontext_budget_tokens = 100000\n" },
    notes: "An error when the system prompt and skills prompt (counted as Zeph counts them, cl100k_base) are at least \
          budget − reserve; a warning when they fill at least `budgets.warn_ratio` (by default 90 %) of it. The \
          finding points at `context_budget_tokens`.",
    stage: Stage::Settings,
};
