//! BUDGET007: `ctxc.counts` records a count no tokenizer gives for its text.
//!
//! Found by [`crate::checks::budgets::implausible_counts`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A count recorded in `ctxc.counts` lies outside half to five times ctxc's calibrated estimate of the same text (± 32 tokens): no tokenizer gives it, so it is not used.",
    why: "`ctxc.counts` is committed with the project, and a pull request can change it as easily as a prompt. A prompt \
          grown past its budget, committed with counts recorded against an endpoint that answers small numbers, \
          would otherwise pass every budget labelled exact. Calibrated estimates stay within ±15 % of the \
          tokenizers they stand for, and no two tokenizers differ by more than 4.4× on a whole script: a count \
          past that band is forged, copied from another text, or recorded from something that is not the \
          provider's endpoint.",
    fails: Example {
        file: "ctxc.toml",
        text: "[agent]\nname = \"helper\"\nmodel = \"claude-sonnet-4-5\"  # its prompt estimated at ~11,600 tokens; ctxc.counts records 1,400\n",
    },
    passes: Example {
        file: "ctxc.toml",
        text: "[agent]\nname = \"helper\"\nmodel = \"claude-sonnet-4-5\"  # ctxc.counts recorded by `ctxc counts sync` from Anthropic's endpoint\n",
    },
    notes: "Checked on every `ctxc check` of a Claude or Gemini agent with a `ctxc.counts`: the framing, each section, the system prompt, the tools (each one, with two or more) and the request total. The renders concerned are costed by the estimate, and `--require-exact` reports them too (BUDGET005). `ctxc diff` names changes to `ctxc.counts` (docs/counting.md).",
    stage: Stage::Budgets,
};
