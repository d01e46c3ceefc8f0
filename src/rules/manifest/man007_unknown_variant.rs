//! MAN007: a mode picks a module variant that does not exist (or none).
//!
//! Found by [`crate::manifest::load_with`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A mode names a variant its module does not have, picks a variant of a module without variants, or picks none for a module that needs one.",
    why: "Modes differ by the module variants they use (full, simplified, planning). A wrong variant name would leave \
          the mode with the wrong instructions or none, so it is an error with the known variants listed.",
    fails: Example {
        file: "ctxc.toml",
        text: "[modules.workflow]\nvariants = { full = \"workflow/full.md\", planning = \"workflow/planning.md\" }\n\n[modes.plan]\nvariants = { workflow = \"plan\" }\n",
    },
    passes: Example {
        file: "ctxc.toml",
        text: "[modules.workflow]\nvariants = { full = \"workflow/full.md\", planning = \"workflow/planning.md\" }\n\n[modes.plan]\nvariants = { workflow = \"planning\" }\n",
    },
    notes: "",
    stage: Stage::Load,
};
