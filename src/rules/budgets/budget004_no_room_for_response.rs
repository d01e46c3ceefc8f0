//! BUDGET004: the fixed context leaves no room for the response reserve.
//!
//! Found by [`crate::checks::budgets::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "The fixed context of some mode plus the response reserve fills the model's whole window.",
    why: "The model's answer has to fit in the window beside the prompt. When the system prompt and tool schemas leave \
          less than the response reserve, the first request already fails or the answer is cut off.",
    fails: Example {
        file: "ctxc.toml",
        text:
            "[agent]\nname = \"helper\"\ncontext_window = 4000\n\n[budgets]\nresponse_reserve = 3900  # the fixed context is 188 tokens\n",
    },
    passes: Example {
        file: "ctxc.toml",
        text: "[agent]\nname = \"helper\"\ncontext_window = 4000\n\n[budgets]\nresponse_reserve = 1000\n",
    },
    notes: "",
    stage: Stage::Budgets,
};
