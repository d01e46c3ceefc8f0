//! MAN001: the manifest cannot be parsed.
//!
//! Found by [`crate::manifest::load_with`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "The manifest is not valid TOML or YAML, has an unknown key, or a value of the wrong type (also for `--set`).",
    why: "ctxc cannot know what the agent is made of until the manifest parses. Unknown keys are errors rather than \
          being ignored, so a typo such as `sorce` never silently drops a file from the prompt; the message names the \
          closest valid key.",
    fails: Example { file: "ctxc.toml", text: "[agent]\nname = \"helper\"\nmodle = \"gpt-4o\"\n" },
    passes: Example { file: "ctxc.toml", text: "[agent]\nname = \"helper\"\nmodel = \"gpt-4o\"\n" },
    notes: "",
    stage: Stage::Load,
};
