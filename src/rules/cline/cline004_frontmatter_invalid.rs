//! CLINE004: a Cline rule's frontmatter that is not valid YAML.

use crate::agent_files::FileKind;
use crate::rules::frontmatter::frontmatter_error;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A Cline rule's frontmatter is not valid YAML, or is never closed.",
    why: "Cline reads a rule's `paths` condition from YAML frontmatter; frontmatter that does not parse gives no \
          condition, so the rule is not scoped the way it says. A glob starting with `*` must be quoted in YAML (`*` \
          starts an alias). Source: https://docs.cline.bot/features/cline-rules/conditional-rules (checked 2026-11-29).",
    fails: Example { file: ".clinerules/go.md", text: "---\npaths:\n  - **/*.go\n---\nRun gofmt.\n" },
    passes: Example { file: ".clinerules/go.md", text: "---\npaths:\n  - \"**/*.go\"\n---\nRun gofmt.\n" },
    notes: "Other CLINE rules skip a file whose frontmatter does not parse.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    cx.files_of(FileKind::ClineRule)
        .filter_map(|d| frontmatter_error(d, "fix the YAML (quote globs that start with `*`); Cline cannot read this frontmatter"))
        .collect()
}
