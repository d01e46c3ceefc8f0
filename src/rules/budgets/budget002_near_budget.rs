//! BUDGET002: a budget at least 90 % used.
//!
//! Found by [`crate::checks::budgets::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A budget is at least `budgets.warn_ratio` (default 90 %) used, in some mode and scenario.",
    why: "A budget that is nearly full will be exceeded by the next small edit, usually in a pull request about something \
          else. The warning gives the team room to decide before the check fails.",
    fails: Example { file: "ctxc.toml", text: "[modes.agent]\nbudget = 200  # the agent mode's fixed context is 188 tokens\n" },
    passes: Example { file: "ctxc.toml", text: "[modes.agent]\nbudget = 250  # the agent mode's fixed context is 188 tokens\n" },
    notes: "",
    stage: Stage::Budgets,
};
