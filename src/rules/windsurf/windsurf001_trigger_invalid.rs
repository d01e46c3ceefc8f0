//! WINDSURF001: a Windsurf rule's `trigger` is not one of Windsurf's activation modes.

use crate::rules::frontmatter::value_not_in;
use crate::rules::prelude::*;
use crate::rules::windsurf::{triggers, windsurf_rules};

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A Windsurf rule's `trigger` is not `always_on`, `glob`, `model_decision` or `manual`.",
    why: "Cascade decides when a workspace rule enters the context from its `trigger`: always, when a file matching \
          `globs` is involved, when the model judges the `description` relevant, or when the user @-mentions the rule. \
          Another value (`always`, `glob_pattern`, `Manual`) is none of these, so the rule is not applied as its author \
          meant. Source: https://docs.windsurf.com/windsurf/cascade/memories (checked 2026-11-29); the values are \
          Windsurf's host model, `data/hosts/windsurf.toml`.",
    fails: Example {
        file: ".windsurf/rules/typescript.md",
        text: "---\ntrigger: glob_pattern\nglobs: \"src/**/*.ts\"\n---\nEnable strict mode.\n",
    },
    passes: Example {
        file: ".windsurf/rules/typescript.md",
        text: "---\ntrigger: glob\nglobs: \"src/**/*.ts\"\n---\nEnable strict mode.\n",
    },
    notes: "The values are case-sensitive. Devin CLI, Windsurf's successor, also accepts `agent`; Windsurf's page does not \
            list it, so it is reported.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let modes = triggers();
    let otherwise = "use `always_on`, `glob`, `model_decision` or `manual`";
    windsurf_rules(cx)
        .filter_map(|doc| value_not_in(doc, "trigger", &modes, |_| false, "a Windsurf activation mode", "unknown mode", otherwise))
        .collect()
}
