//! MAN009: a reference to something the manifest does not declare.
//!
//! Found by [`crate::manifest::load_with`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A step, module, tool category, tool, connector, preset or tokenizer is named but not declared.",
    why: "Names tie the manifest together: a step's module, a mode's tool categories, a scenario's connectors. A name \
          that matches nothing means part of the agent is silently missing; the message lists the known names or the \
          closest one.",
    fails: Example {
        file: "ctxc.toml",
        text: "[modes.ask]\ntools = { filesytem = \"read-only\" }\n\n[tools.filesystem]\nfiles = [\"tools/filesystem.json\"]\n",
    },
    passes: Example {
        file: "ctxc.toml",
        text: "[modes.ask]\ntools = { filesystem = \"read-only\" }\n\n[tools.filesystem]\nfiles = [\"tools/filesystem.json\"]\n",
    },
    notes: "",
    stage: Stage::Load,
};
