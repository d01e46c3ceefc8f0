//! SET007: Zeph's compaction threshold out of range or inside the response reserve.
//!
//! Found by [`crate::checks::settings::check`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "Zeph's `soft_compaction_threshold` or `compaction_threshold` is outside (0, 1), or the soft one is above the hard one.",
    why: "Both thresholds are shares of the budget: above the soft one Zeph prunes old tool output (no LLM call), \
          above the hard one (`compaction_threshold`, Zeph's `hard_compaction_threshold`) it summarizes with the LLM. \
          A soft threshold above the hard one means the expensive summary always comes first.",
    fails: Example { file: "ctxc.toml", text: "[zeph]\nsoft_compaction_threshold = 0.95\ncompaction_threshold = 0.9\n" },
    passes: Example { file: "ctxc.toml", text: "[zeph]\nsoft_compaction_threshold = 0.6\ncompaction_threshold = 0.9\n" },
    notes: "Zeph's own default hard threshold (0.9) is above 1 − its 20 % response reserve; ctxc no longer reports that, \
          since it is the runtime's design (the reserve plans the allocation, it is not a limit).",
    stage: Stage::Settings,
};
