//! MAN012: `[lint]` or the command line names a rule code that does not exist.
//!
//! Found by [`crate::lint::config::Selection::build`] (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "`[lint] select`, `ignore` or `severity`, or `--select` / `--ignore`, names something that is neither a rule code nor a code prefix.",
    why: "A misspelt code in `ignore` silences nothing and one in `select` selects nothing, and neither would ever be \
          noticed. The message suggests the closest code; `ctxc rules` lists them all.",
    fails: Example { file: "ctxc.toml", text: "[lint]\nignore = [\"SKIL013\"]\n" },
    passes: Example { file: "ctxc.toml", text: "[lint]\nignore = [\"SKILL013\"]\n" },
    notes: "",
    stage: Stage::Load,
};
