//! SET007: Zeph's compaction threshold out of range or inside the response reserve.

use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::SET007,
    name: "zeph-compaction-threshold",
    family: Family::Settings,
    severity: Severity::Error,
    summary: "Zeph's `compaction_threshold` is outside (0, 1), or it is above 1 − `response_reserve_ratio`.",
    why: "The threshold is a share of the budget. Above 1 − the reserve, the conversation grows into the room kept \
          for the answer before compaction fires: with a 20 % reserve, compacting at 90 % lets messages take half of \
          the reserve first.",
    fails: Example { file: "ctxc.toml", text: "[zeph]\nresponse_reserve_ratio = 0.2\ncompaction_threshold = 0.9\n" },
    passes: Example { file: "ctxc.toml", text: "[zeph]\nresponse_reserve_ratio = 0.2\ncompaction_threshold = 0.75\n" },
    notes: "",
    stage: Stage::Settings,
};
