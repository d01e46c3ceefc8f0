//! WINDSURF002: a `glob` rule without `globs`, or a `model_decision` rule without `description`.

use crate::rules::prelude::*;
use crate::rules::windsurf::windsurf_rules;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Windsurf rule with `trigger: glob` has no `globs`, or one with `trigger: model_decision` has no `description`.",
    why: "A `glob` rule is applied when a file matching its `globs` is involved; with no `globs` it matches nothing and \
          is never applied. A `model_decision` rule is offered to Cascade by its `description` alone; with no \
          description Cascade has nothing to decide on. Source: https://docs.windsurf.com/windsurf/cascade/memories \
          (checked 2026-11-29).",
    fails: Example { file: ".windsurf/rules/sql.md", text: "---\ntrigger: glob\n---\nUse parameterised queries.\n" },
    passes: Example { file: ".windsurf/rules/sql.md", text: "---\ntrigger: glob\nglobs: \"**/*.sql\"\n---\nUse parameterised queries.\n" },
    notes: "An empty string counts as missing.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in windsurf_rules(cx) {
        let needed = match doc.string("trigger") {
            Some("glob") => "globs",
            Some("model_decision") => "description",
            _ => continue,
        };
        let empty = doc.field(needed).is_none_or(|v| v.is_null() || v.as_str().is_some_and(|s| s.trim().is_empty()));
        if empty {
            let trigger = doc.string("trigger").unwrap_or_default();
            findings.push(
                Diagnostic::finding(format!("`trigger: {trigger}` rule has no `{needed}`, so Cascade never applies it"))
                    .in_file(&doc.file)
                    .at(doc.value_span("trigger"))
                    .label(format!("needs `{needed}`"))
                    .help(match needed {
                        "globs" => "add `globs:` with the files the rule is for",
                        _ => "add a `description:` saying when the rule applies",
                    }),
            );
        }
    }
    findings
}
