//! CLINE001: a Cline rule with no instructions.

use crate::rules::cline::cline_rules;
use crate::rules::frontmatter::empty_body;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A `.clinerules` file, or a rule file in `.clinerules/`, is empty or has nothing after its frontmatter.",
    why: "Cline combines the Markdown of every rule file into the rules it gives the model; an empty file adds \
          nothing but a toggle in the Rules panel, and usually means its content was lost or never written. Source: \
          https://docs.cline.bot/features/cline-rules/overview (checked 2026-11-29).",
    fails: Example { file: ".clinerules/01-style.md", text: "---\npaths:\n  - \"src/**\"\n---\n\n" },
    passes: Example { file: ".clinerules/01-style.md", text: "---\npaths:\n  - \"src/**\"\n---\nUse named exports.\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    cline_rules(cx).filter_map(|d| empty_body(d, d.body_start(), "rule's instructions")).collect()
}
