//! MAN002: a referenced file is missing or cannot be read.
//!
//! Found by [`crate::project::ProjectRoot::read`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A file the manifest references is missing, is not a regular file, is not UTF-8, or is over the 4 MiB limit.",
    why: "A prompt assembled from a missing file is a different prompt from the one reviewed. ctxc refuses to render \
          rather than leave a section out, and points at the reference in the manifest.",
    fails: Example { file: "ctxc.toml", text: "# prompts/core.md does not exist\n[modules]\ncore = { source = \"prompts/core.md\" }\n" },
    passes: Example { file: "ctxc.toml", text: "# prompts/core.md exists\n[modules]\ncore = { source = \"prompts/core.md\" }\n" },
    notes: "Zero-config linting reports a SKILL.md, AGENTS.md or CLAUDE.md that cannot be read (not UTF-8, too large) with this code too.",
    stage: Stage::Load,
};
