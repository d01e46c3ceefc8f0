//! GEMINI013: GEMINI.md imports that loop.

use crate::rules::kinds::import_walk;
use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::GEMINI013,
    name: "import-cycle",
    family: Family::Gemini,
    severity: Severity::Warning,
    summary: "A chain of `@file` imports starting in a GEMINI.md imports a file that is already on the chain.",
    why: "Gemini CLI detects circular imports and replaces the repeated one with a `File already processed` comment, \
          so the loop does not hang the CLI, but one of the imports does nothing and the file order the author \
          expected is not what the model gets. Sources: \
          google-gemini/gemini-cli:packages/core/src/utils/memoryImportProcessor.ts@5411f113, docs/reference/memport.md@5411f113.",
    fails: Example { file: "GEMINI.md", text: "@docs/style.md\n(docs/style.md imports ../GEMINI.md)\n" },
    passes: Example { file: "GEMINI.md", text: "@docs/style.md\n(docs/style.md imports nothing)\n" },
    notes: "Reported at the import in GEMINI.md that starts the chain; the message lists the loop.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.memory.iter().filter(|m| m.name() == "GEMINI.md") {
        for (range, chain) in import_walk(cx, &doc.rel, &doc.text).cycles {
            findings.push(
                Diagnostic::warning(format!("imports loop: {}", chain.join(" → ")))
                    .in_file(&doc.file)
                    .at(Some(range))
                    .label("loop starts here")
                    .help("remove the import that points back up the chain"),
            );
        }
    }
    findings
}
