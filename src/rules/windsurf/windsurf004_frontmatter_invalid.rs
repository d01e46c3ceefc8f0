//! WINDSURF004: a Windsurf rule's frontmatter that is not valid YAML.

use crate::agent_files::FileKind;
use crate::rules::frontmatter::frontmatter_error;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A Windsurf rule's frontmatter is not valid YAML, or is never closed.",
    why: "Windsurf reads a rule's `trigger`, `globs` and `description` from its YAML frontmatter; frontmatter that \
          does not parse gives no activation mode, so the rule is not applied the way it says. A glob starting with \
          `*` must be quoted in YAML (`*` starts an alias). Source: https://docs.windsurf.com/windsurf/cascade/memories \
          (checked 2026-11-29).",
    fails: Example { file: ".windsurf/rules/go.md", text: "---\ntrigger: glob\nglobs: **/*.go\n---\nRun gofmt.\n" },
    passes: Example { file: ".windsurf/rules/go.md", text: "---\ntrigger: glob\nglobs: \"**/*.go\"\n---\nRun gofmt.\n" },
    notes: "Other WINDSURF rules skip a file whose frontmatter does not parse.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    cx.files_of(FileKind::WindsurfRule)
        .filter_map(|d| frontmatter_error(d, "fix the YAML (quote globs that start with `*`); Windsurf cannot read this frontmatter"))
        .collect()
}
