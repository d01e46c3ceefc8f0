//! CURSOR011: an Agent Requested rule whose description is too short to route on.

use crate::rules::kinds::{cursor_rules, string_globs, unquote};
use crate::rules::prelude::*;

/// Fewer words than this cannot say both what a rule covers and when it is needed.
const MIN_WORDS: usize = 4;

pub const RULE: Rule = Rule {
    code: Code::CURSOR011,
    name: "description-too-short",
    family: Family::Cursor,
    severity: Severity::Warning,
    summary: "An Agent Requested Cursor rule (a `description`, no `globs`, not always applied) has a description of fewer than four words.",
    why: "For an Agent Requested rule the description is all the agent sees when it decides whether to read the \
          rule; `Python` or `API rules` does not say when the rule is needed, so it is loaded too often or never. \
          Source: https://cursor.com/docs/context/rules (rule types).",
    fails: Example { file: ".cursor/rules/db.mdc", text: "---\ndescription: Database\nalwaysApply: false\n---\nUse migrations for every schema change.\n" },
    passes: Example {
        file: ".cursor/rules/db.mdc",
        text: "---\ndescription: Conventions for changing the PostgreSQL schema and writing migrations\nalwaysApply: false\n---\nUse migrations for every schema change.\n",
    },
    notes: "Rules with globs or `alwaysApply: true` do not depend on their description and are not checked.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, front) in cursor_rules(cx) {
        let Some(field) = front.get("description") else { continue };
        let description = unquote(&field.value).trim();
        let globs = front
            .get("globs")
            .is_some_and(|g| !g.items.is_empty() || g.value.starts_with('[') || string_globs(g).iter().any(|(s, _)| !s.is_empty()));
        let always = front.get("alwaysApply").is_some_and(|a| a.value == "true");
        let words = description.split_whitespace().count();
        if description.is_empty() || globs || always || words >= MIN_WORDS {
            continue;
        }
        findings.push(
            Diagnostic::warning(format!("the description `{description}` is too short for the agent to decide when to read this rule"))
                .in_file(&doc.file)
                .at(Some(field.value_span.clone()))
                .label(format!("{words} word{}", if words == 1 { "" } else { "s" }))
                .help("say what the rule covers and when it applies, e.g. `Conventions for writing database migrations`"),
        );
    }
    findings
}
