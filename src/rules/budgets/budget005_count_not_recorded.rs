//! BUDGET005: exact counts are required, and some are not recorded.
//!
//! Found by [`crate::checks::budgets::not_recorded`] with `ctxc check --require-exact` or
//! `[budgets] require_exact = true` (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "With `--require-exact` or `[budgets] require_exact`, a Claude or Gemini agent has a mode or scenario whose counts are not recorded in `ctxc.counts`.",
    why: "Claude's and Gemini's tokenizers are not public: without the counts the provider's endpoint recorded, ctxc \
          estimates, and an estimate can be 10-15 % off. A CI job that requires exact counts catches a prompt edited \
          since the counts were last recorded, before its budgets are trusted.",
    fails: Example {
        file: "ctxc.toml",
        text: "[agent]\nname = \"helper\"\nmodel = \"claude-sonnet-4-5\"\n\n[budgets]\nrequire_exact = true  # no ctxc.counts beside it\n",
    },
    passes: Example {
        file: "ctxc.toml",
        text: "[agent]\nname = \"helper\"\nmodel = \"claude-sonnet-4-5\"\n\n[budgets]\nrequire_exact = true  # ctxc.counts recorded by `ctxc counts sync`\n",
    },
    notes: "Only with `ctxc check --require-exact` or `[budgets] require_exact = true` (the finding points at that key, else at `model`). `ctxc counts sync` records the counts (docs/counting.md).",
    stage: Stage::Budgets,
};
