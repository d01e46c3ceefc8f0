//! MAN015: a rule, or the reading of a file, failed inside ctxc (a panic: a bug).
//!
//! Caught by [`crate::lint::lint`] around every rule and by [`crate::lint::check()`] around each
//! agent and each file read (this file holds the rule's documentation).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A rule, or the reading of a file, failed inside ctxc: a bug in ctxc, reported at the file it was checking.",
    why: "One file of an unexpected shape must not cost the whole run: the failure is caught, the rest of the rules \
          and files are still checked and reported, and the file it happened on is named so the bug can be \
          reported with it (as ruff does). The check exits 2, because that file was not fully checked.",
    fails: Example {
        file: ".cursor/rules/ts.mdc",
        text: "---\ndescription: TypeScript rules\nglobs: \nalwaysApply: false\n---\nUse strict mode.\n",
    },
    passes: Example {
        file: ".cursor/rules/ts.mdc",
        text: "---\ndescription: TypeScript rules\nglobs: \"**/*.ts\"\nalwaysApply: false\n---\nUse strict mode.\n",
    },
    notes: "No file should cause this. The failing example is the shape (an empty `globs: ` followed by a space) that \
            made ctxc 0.1 fail before the bug was fixed; today it checks normally. If you see MAN015, please report \
            it to ctxc's maintainers with the message and the file named in the finding.",
    stage: Stage::Internal,
};
