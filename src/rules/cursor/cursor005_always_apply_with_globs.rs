//! CURSOR005: `alwaysApply: true` together with `globs`.

use crate::rules::cursor::{cursor_rules, string_globs};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Cursor project rule sets `alwaysApply: true` and also lists `globs`.",
    why: "A rule's type is one of Always, Auto Attached, Agent Requested or Manual. With `alwaysApply: true` the rule \
          is in every request and its `globs` are never consulted, so either the globs are dead or the rule was meant \
          to apply only to those files. Source: https://cursor.com/docs/context/rules.",
    fails: Example {
        file: ".cursor/rules/tests.mdc",
        text: "---\ndescription: Test conventions\nglobs: **/*.test.ts\nalwaysApply: true\n---\nUse vitest.\n",
    },
    passes: Example {
        file: ".cursor/rules/tests.mdc",
        text: "---\ndescription: Test conventions\nglobs: **/*.test.ts\nalwaysApply: false\n---\nUse vitest.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, front) in cursor_rules(cx) {
        let (Some(always), Some(globs)) = (front.get("alwaysApply"), front.get("globs")) else { continue };
        let listed = !globs.items.is_empty() || globs.value.starts_with('[') && globs.value != "[]";
        let has_globs = listed || string_globs(globs).iter().any(|(g, _)| !g.is_empty());
        if always.value == "true" && has_globs {
            findings.push(
                Diagnostic::finding("`alwaysApply: true` makes Cursor ignore this rule's `globs`")
                    .in_file(&doc.file)
                    .at(Some(globs.value_span.clone()))
                    .label("never consulted")
                    .help("set `alwaysApply: false` to attach the rule only to these files, or remove `globs`"),
            );
        }
    }
    findings
}
