//! SET005: Zeph's window shares do not add up to 100 %.

use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::SET005,
    name: "zeph-shares-sum",
    family: Family::Settings,
    severity: Severity::Error,
    summary: "Zeph's shares (`[zeph.shares]`, or `[zeph.shares_with_code_index]`) do not add up to 100 %, or one of them is negative.",
    why: "The shares divide what the budget leaves after the response reserve. If they add up to more (or less) \
          than all of it, the layout hands out room that is not there (or leaves some unused), and the tokens ctxc \
          reports per share are not what Zeph would plan.",
    fails: Example { file: "ctxc.toml", text: "# the preset: semantic_recall 25 %, recent_history 60 %\n[zeph.shares]\nsummaries = 0.2  # 20 + 25 + 60 = 105 %\n" },
    passes: Example { file: "ctxc.toml", text: "# the preset: semantic_recall 25 %, recent_history 60 %\n[zeph.shares]\nsummaries = 0.15\n" },
    notes: "Each of the two sets is checked on its own. The finding points at a share the manifest sets, else at the \
          first share.",
    stage: Stage::Settings,
};
