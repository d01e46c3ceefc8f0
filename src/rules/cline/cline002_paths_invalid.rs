//! CLINE002: a Cline rule's `paths` that is not a list of globs Cline can match.

use crate::rules::cline::cline_rules;
use crate::rules::globs::{glob_entries, glob_problem, GlobEntry};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A Cline rule's `paths` is not a list of glob strings, is empty, or holds a glob with broken syntax.",
    why: "A rule with `paths` in its frontmatter is applied only when a file Cline is working with (open, visible, \
          mentioned or edited) matches one of its globs. A glob with an unclosed `[` or `{`, an empty entry or a \
          value that is not a glob matches no file, so the rule never applies. Source: \
          https://docs.cline.bot/features/cline-rules/conditional-rules (checked 2026-11-29).",
    fails: Example {
        file: ".clinerules/react.md",
        text: "---\npaths:\n  - \"src/components/**/*.{ts,tsx\"\n---\nUse function components.\n",
    },
    passes: Example {
        file: ".clinerules/react.md",
        text: "---\npaths:\n  - \"src/components/**/*.{ts,tsx}\"\n---\nUse function components.\n",
    },
    notes: "A single glob written as a string, not a list, is accepted.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cline_rules(cx) {
        for (index, entry, at) in glob_entries(doc, "paths") {
            let which = index.map_or_else(String::new, |i| format!(" item {}", i + 1));
            let problem = match entry {
                GlobEntry::EmptyList => " is an empty list".to_string(),
                GlobEntry::Blank => format!("{which} is empty"),
                GlobEntry::Other(item) => format!("{which} is {item}, not a glob"),
                GlobEntry::Glob(glob) => match glob_problem(glob) {
                    Some(problem) => format!("{which} `{glob}` is not a valid glob: {problem}"),
                    None => continue,
                },
            };
            findings.push(
                Diagnostic::finding(format!("`paths`{problem}"))
                    .in_file(&doc.file)
                    .at(at)
                    .label("matches nothing")
                    .help("write a list of globs, such as `- \"src/**/*.ts\"`: the rule applies only when a file matches one"),
            );
        }
    }
    findings
}
