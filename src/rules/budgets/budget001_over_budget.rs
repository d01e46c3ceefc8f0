//! BUDGET001: a section, the system prompt, the tool schemas or a mode's fixed context over its budget.
//!
//! Found by [`crate::checks::budgets::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A step's section, the system prompt, the tool schemas or a mode's fixed context takes more tokens than its budget, in some mode and scenario.",
    why: "Budgets are the team's agreement on what each part of the prompt may cost. Every token of fixed context is paid \
          on every request and brings summarization closer. Each overrun is reported once, at its worst mode and \
          scenario, pointing at the budget line; bounded dynamic steps (retrieved memories) are checked at their worst \
          case (top K and max characters).",
    fails: Example { file: "ctxc.toml", text: "[pipeline]\nsteps = [{ id = \"core\", kind = \"module\", budget = 40 }]  # core.md is 67 tokens\n" },
    passes: Example { file: "ctxc.toml", text: "[pipeline]\nsteps = [{ id = \"core\", kind = \"module\", budget = 80 }]  # core.md is 67 tokens\n" },
    notes: "",
    stage: Stage::Budgets,
};
