//! SET005: Zeph's window shares do not add up to 100 %.
//!
//! Found by [`crate::checks::settings::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "Zeph's shares (`[zeph.shares]`, `[zeph.shares_with_graph]`, `[zeph.shares_memory_first]` or `[zeph.shares_memory_first_with_graph]`) do not add up to 100 %, or one of them is negative.",
    why: "The shares divide what the budget leaves after the response reserve, the system prompt and the skills prompt. If they add up to more (or less) \
          than all of it, the layout hands out room that is not there (or leaves some unused), and the tokens ctxc \
          reports per share are not what Zeph would plan.",
    fails: Example { file: "ctxc.toml", text: "# the preset: 8 + 4 + 30 + 50 % besides summaries\n[zeph.shares]\nsummaries = 0.2  # 112 %\n" },
    passes: Example { file: "ctxc.toml", text: "# the preset: 8 + 4 + 30 + 50 % besides summaries\n[zeph.shares]\nsummaries = 0.08\n" },
    notes: "Each of the four layouts is checked on its own. The finding points at a share the manifest sets, else at the \
          first share.",
    stage: Stage::Settings,
};
