//! KIRO004: `fileMatchPattern` in a steering file whose inclusion is not `fileMatch`.

use crate::rules::kiro::steering;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A steering file has a `fileMatchPattern` but its `inclusion` is not `fileMatch`, so the pattern is not used.",
    why: "Kiro matches `fileMatchPattern` only for `inclusion: fileMatch`. Without it (the default is `always`) the \
          file is included in every request whatever the pattern says, which usually means the `inclusion` line was \
          forgotten. Source: kiro.dev/docs/steering.",
    fails: Example { file: ".kiro/steering/sql.md", text: "---\nfileMatchPattern: \"**/*.sql\"\n---\nName tables in the singular.\n" },
    passes: Example {
        file: ".kiro/steering/sql.md",
        text: "---\ninclusion: fileMatch\nfileMatchPattern: \"**/*.sql\"\n---\nName tables in the singular.\n",
    },
    notes: "A file whose `inclusion` is not a mode at all is KIRO001's.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in steering(cx).filter(|d| d.field("fileMatchPattern").is_some()) {
        let mode = match doc.field("inclusion") {
            None => "always",
            Some(v) => match v.as_str() {
                Some("fileMatch") => continue,
                Some(mode @ ("always" | "auto" | "manual")) => mode,
                // Not a mode: KIRO001.
                _ => continue,
            },
        };
        findings.push(
            Diagnostic::finding(format!("`fileMatchPattern` is not used: {} is included `{mode}`", doc.rel))
                .in_file(&doc.file)
                .at(doc.key_span("fileMatchPattern"))
                .label("ignored")
                .help("add `inclusion: fileMatch` to include the file only for matching paths, or delete the pattern"),
        );
    }
    findings
}
