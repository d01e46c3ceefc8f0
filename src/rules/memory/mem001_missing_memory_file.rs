//! MEM001: a memory file the manifest lists does not exist.
//!
//! Found by [`crate::manifest::load_with`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A file in `[memory] files` (AGENTS.md and friends) is missing or cannot be read.",
    why: "Project memory carries the conventions an agent must follow. If the file is gone (renamed, moved to a \
          subfolder), the agent silently runs without them; ctxc stops instead and points at the reference.",
    fails: Example { file: "ctxc.toml", text: "# the repository has AGENTS.md, not AGENT.md\n[memory]\nfiles = [\"AGENT.md\"]\n" },
    passes: Example { file: "ctxc.toml", text: "[memory]\nfiles = [\"AGENTS.md\"]\n" },
    notes: "",
    stage: Stage::Load,
};
