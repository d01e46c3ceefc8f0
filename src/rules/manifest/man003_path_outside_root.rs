//! MAN003: a reference leads outside the project root.
//!
//! Found by [`crate::project::ProjectRoot::read`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A file reference is absolute, climbs out of the project with `..`, or is a symbolic link that leads out of it.",
    why: "Every file in the prompt must live in the repository that is reviewed, so a checkout renders the same prompt \
          on every machine. A reference outside the project root makes the prompt depend on whatever that path holds \
          on the machine that runs ctxc.",
    fails: Example { file: "ctxc.toml", text: "[modules]\ncore = { source = \"../shared/core.md\" }\n" },
    passes: Example { file: "ctxc.toml", text: "[modules]\ncore = { source = \"prompts/core.md\" }\n" },
    notes: "In zero-config linting a SKILL.md, AGENTS.md or CLAUDE.md that is a link leading out of the directory is not \
            followed and is reported with this code as a warning.",
    stage: Stage::Load,
};
