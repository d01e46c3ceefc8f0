//! MAN014: the manifest requires another ctxc version (`[project] requires`).
//!
//! Found by [`crate::manifest::load_with`] before the manifest is parsed (this file holds the
//! rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "`[project] requires` names ctxc versions that do not include the one running, or is not a version requirement.",
    why: "A manifest written for a newer ctxc may use keys, step kinds or presets an older one does not know, and an \
          older ctxc may count a preset differently. Checking the requirement first turns a confusing parse error, or \
          silently different numbers, into one clear message: upgrade ctxc. The requirement uses Cargo's syntax \
          (`>=0.2`, `^0.3.1`, `>=0.2, <0.4`); `ctxc --version` prints the version running.",
    fails: Example { file: "ctxc.toml", text: "[project]\nrequires = \">=99.0\"\n\n[agent]\nname = \"helper\"\n" },
    passes: Example { file: "ctxc.toml", text: "[project]\nrequires = \">=0.1\"\n\n[agent]\nname = \"helper\"\n" },
    notes: "The requirement is read before the rest of the manifest, so it is reported even when the manifest uses keys this ctxc does not know.",
    stage: Stage::Load,
};
