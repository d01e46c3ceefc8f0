//! SET006: the fixed context outgrows Zeph's recent-history share.

use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::SET006,
    name: "zeph-fixed-outgrows-history",
    family: Family::Settings,
    severity: Severity::Error,
    summary: "The fixed context (system prompt + tool schemas) is larger than Zeph's recent-history share, in the mode and scenario where it leaves the least of it.",
    why: "Zeph keeps the system prompt with the recent messages when it trims history, so ctxc charges the fixed \
          context to the recent-history share. If the prompt and the tool schemas alone take the whole share, no \
          recent message survives trimming.",
    fails: Example { file: "ctxc.toml", text: "# a ~1,300-token fixed context: 0.5 % of 102,400 available is 512 tokens\n[zeph.shares]\nsummaries = 0.395\nsemantic_recall = 0.6\nrecent_history = 0.005\n" },
    passes: Example { file: "ctxc.toml", text: "# a ~1,300-token fixed context: 60 % of 102,400 available is 61,440 tokens\n[zeph.shares]\nsummaries = 0.15\nsemantic_recall = 0.25\nrecent_history = 0.6\n" },
    notes: "An error when the fixed context is larger than the share; a warning when it fills at least \
          `budgets.warn_ratio` (by default 90 %) of it. The finding points at the `recent_history` share in effect \
          there: `[zeph.shares_with_code_index]` in scenarios with the `code_index` flag. A fixed context larger \
          than the share leaves no room for a cut tool output either, so SET010 is always reported with the error.",
    stage: Stage::Settings,
};
