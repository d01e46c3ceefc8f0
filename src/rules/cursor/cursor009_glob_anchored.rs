//! CURSOR009: a glob starting with `/` or `./`.

use crate::diagnostic::{Edit, Fix};
use crate::rules::cursor::{all_globs, cursor_rules};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A glob in a Cursor project rule starts with `/` or `./`.",
    why: "Cursor matches `globs` against paths relative to the workspace (`src/app.ts`), which never start with `/` \
          or `./`, so such a glob attaches the rule to no file. Sources: https://cursor.com/docs/context/rules; \
          skillsaw `cursor-rules-valid` (absolute globs).",
    fails: Example {
        file: ".cursor/rules/api.mdc",
        text: "---\ndescription: API handlers\nglobs: ./src/api/**/*.ts\n---\nValidate input.\n",
    },
    passes: Example {
        file: ".cursor/rules/api.mdc",
        text: "---\ndescription: API handlers\nglobs: src/api/**/*.ts\n---\nValidate input.\n",
    },
    notes: "A leading `./` gets a safe fix (remove it); a leading `/` none (the path meant is not known).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, front) in cursor_rules(cx) {
        let Some(field) = front.get("globs") else { continue };
        for (glob, span) in all_globs(field) {
            if !glob.starts_with('/') && !glob.starts_with("./") {
                continue;
            }
            let mut d = Diagnostic::finding(format!(
                "glob `{glob}` starts with `{}` and matches no workspace path",
                &glob[..glob.find('/').unwrap_or(0) + 1]
            ))
            .in_file(&doc.file)
            .at(Some(span.clone()))
            .label("anchored glob")
            .help("write globs relative to the workspace root, e.g. `src/**/*.ts`");
            if glob.starts_with("./") {
                d = d.fix(Fix::safe("remove the leading `./`", vec![Edit::replace(&doc.file, span.start..span.start + 2, "")]));
            }
            findings.push(d);
        }
    }
    findings
}
