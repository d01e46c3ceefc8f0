//! MAN013: a suppression comment that names no code or an unknown one.

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A `<!-- ctxc-ignore … -->` or `<!-- ctxc-ignore-file … -->` comment names no rule code, or a code that does not exist.",
    why: "Suppressions must say what they silence, so a reviewer can see what was accepted and a new kind of problem is \
          never hidden by an old comment. A comment without codes silences nothing.",
    fails: Example { file: "skills/notes/SKILL.md", text: "<!-- ctxc-ignore -->\nA very long line…\n" },
    passes: Example { file: "skills/notes/SKILL.md", text: "<!-- ctxc-ignore SEC007 -- repeated on purpose -->\nA very long line…\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    super::super::suppress::scan(cx.sources).1
}
