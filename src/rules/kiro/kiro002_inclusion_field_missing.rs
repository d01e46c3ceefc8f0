//! KIRO002: a `fileMatch` steering file without `fileMatchPattern`, or an `auto` one without `description`.

use crate::rules::kiro::steering;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A steering file with `inclusion: fileMatch` has no `fileMatchPattern`, or one with `inclusion: auto` has no `description`.",
    why: "A `fileMatch` file is included when a file matching its `fileMatchPattern` is in the context, and an `auto` \
          file when Kiro finds its `description` relevant to the request. Without that field the file has nothing to \
          be matched by. Source: kiro.dev/docs/steering (its `auto` example has both `name` and `description`).",
    fails: Example {
        file: ".kiro/steering/tests.md",
        text: "---\ninclusion: fileMatch\nfilePatterns: [\"tests/**/*.py\"]\n---\nUse pytest fixtures.\n",
    },
    passes: Example {
        file: ".kiro/steering/tests.md",
        text: "---\ninclusion: fileMatch\nfileMatchPattern: [\"tests/**/*.py\"]\n---\nUse pytest fixtures.\n",
    },
    notes: "A field written under another name (`filePatterns`, `globs`) is reported by KIRO003 too. A warning, not \
            an error: what Kiro does with an `auto` file that has no description (skip it, or match on its name) is not \
            documented.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in steering(cx) {
        let (needed, what) = match doc.string("inclusion") {
            Some("fileMatch") => ("fileMatchPattern", "the paths that bring it into the context"),
            Some("auto") => ("description", "what requests it is for"),
            _ => continue,
        };
        if doc.field(needed).is_some() {
            continue;
        }
        let mode = doc.string("inclusion").unwrap_or_default();
        findings.push(
            Diagnostic::finding(format!("`inclusion: {mode}` without `{needed}`: Kiro has nothing to include {} by", doc.rel))
                .in_file(&doc.file)
                .at(doc.value_span("inclusion"))
                .label(format!("needs `{needed}`"))
                .help(format!("add `{needed}`, saying {what}")),
        );
    }
    findings
}
