//! SET012: Zeph's response reserve ratio out of range.
//!
//! Found by [`crate::checks::settings::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "Zeph's `response_reserve_ratio` is outside [0, 1): negative, or 1 or more.",
    why: "The reserve is the share of the budget kept for the answer; the shares divide the rest. At 1 or more nothing \
          is left for the context; a negative reserve keeps no room for the answer at all.",
    fails: Example { file: "ctxc.toml", text: "[zeph]\nresponse_reserve_ratio = 1.2\n" },
    passes: Example { file: "ctxc.toml", text: "[zeph]\nresponse_reserve_ratio = 0.2\n" },
    notes: "",
    stage: Stage::Settings,
};
