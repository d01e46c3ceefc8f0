//! MAN006: an enable condition cannot be compiled or evaluated.
//!
//! Found by [`crate::manifest::load_with`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary:
        "An enable condition (`when`) is not a valid minijinja expression, reads a variable conditions do not have, or fails to evaluate.",
    why: "Conditions decide which steps and tool categories reach the model in each mode. One that cannot be evaluated \
          would make that decision arbitrary, so ctxc stops and points at it. Conditions may read `mode`, `scenario`, \
          `flags`, `connectors`, `mcp_servers` and `oauth`.",
    fails: Example { file: "ctxc.toml", text: "[tools.browser]\nwhen = \"'browser' in connector\"\n" },
    passes: Example { file: "ctxc.toml", text: "[tools.browser]\nwhen = \"'browser' in connectors\"\n" },
    notes: "",
    stage: Stage::Load,
};
