//! MAN010: a value the manifest's types accept but its meaning does not.
//!
//! Found by [`crate::manifest::load_with`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A manifest value is invalid in context: no `[agent]` or an empty name, a module with both or neither of `source` and `variants`, a step without `kind`, a text step without `text`, a bad `now`, a malformed memories file, a response reserve share of 1 or more.",
    why: "These values parse but cannot describe a working agent, so ctxc stops at the first render rather than guess. \
          Every load problem that no more specific rule covers has this code.",
    fails: Example { file: "ctxc.toml", text: "[agent]\nname = \"helper\"\n\n[modules.core]\nsource = \"core.md\"\nvariants = { short = \"core-short.md\" }\n" },
    passes: Example { file: "ctxc.toml", text: "[agent]\nname = \"helper\"\n\n[modules.core]\nsource = \"core.md\"\n" },
    notes: "",
    stage: Stage::Load,
};
