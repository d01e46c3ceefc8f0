//! MAN008: a step id is used twice.
//!
//! Found by [`crate::manifest::load_with`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "Two pipeline steps in the manifest have the same id.",
    why: "Step ids link budgets, reports, snapshots and preset overrides to a step. With two steps of one id, an \
          override or a budget would apply to whichever comes first, and reports could not tell them apart.",
    fails: Example {
        file: "ctxc.toml",
        text: "[pipeline]\nsteps = [\n  { id = \"core\", kind = \"module\" },\n  { id = \"core\", kind = \"mode_prompt\" },\n]\n",
    },
    passes: Example {
        file: "ctxc.toml",
        text: "[pipeline]\nsteps = [\n  { id = \"core\", kind = \"module\" },\n  { id = \"mode\", kind = \"mode_prompt\" },\n]\n",
    },
    notes: "",
    stage: Stage::Load,
};
