//! MAN005: a condition or scenario names a flag that is not declared.
//!
//! Found by [`crate::manifest::load_with`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An enable condition (`flags.NAME`) or a scenario's `flags` names a flag that `[flags]` does not declare.",
    why: "An undeclared flag is always undefined, so the condition that reads it silently decides the same way in every \
          scenario, usually hiding a step or a tool category for good. Declaring flags with their defaults makes every \
          scenario's value explicit.",
    fails: Example { file: "ctxc.toml", text: "[flags]\nsandbox = false\n\n[tools.sandbox]\nwhen = \"flags.sandbx\"\n" },
    passes: Example { file: "ctxc.toml", text: "[flags]\nsandbox = false\n\n[tools.sandbox]\nwhen = \"flags.sandbox\"\n" },
    notes: "",
    stage: Stage::Load,
};
