//! KIRO006: a steering file with no instructions.

use crate::rules::frontmatter::empty_body;
use crate::rules::kiro::steering;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A steering file has nothing after its frontmatter (or is empty).",
    why: "What Kiro adds to the context from a steering file is its Markdown body; a file with none costs a slot in \
          the steering list and adds nothing, and usually means the content was lost. Source: kiro.dev/docs/steering.",
    fails: Example { file: ".kiro/steering/tech.md", text: "---\ninclusion: always\n---\n\n" },
    passes: Example { file: ".kiro/steering/tech.md", text: "---\ninclusion: always\n---\nThe backend is Go 1.23 with PostgreSQL 16.\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    steering(cx).filter_map(|d| empty_body(d, d.body_start(), "steering instructions")).collect()
}
