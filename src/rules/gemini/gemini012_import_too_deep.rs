//! GEMINI012: GEMINI.md imports nested deeper than Gemini CLI follows.

use crate::rules::gemini::{import_walk, GEMINI_IMPORT_DEPTH};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A chain of `@file` imports starting in a GEMINI.md goes more than five files deep.",
    why: "Gemini CLI expands `@file.md` imports recursively but stops at depth 5 (`maxDepth: 5`: \"Maximum import \
          depth (5) reached. Stopping import processing.\"); imports in a file five levels down are left as literal \
          `@path` text, and the files they name never reach the model. Sources: \
          google-gemini/gemini-cli:packages/core/src/utils/memoryImportProcessor.ts@5411f113, docs/reference/memport.md@5411f113.",
    fails: Example { file: "GEMINI.md", text: "@docs/a.md\n(a.md imports b.md, which imports c.md … down to f.md: six levels)\n" },
    passes: Example { file: "GEMINI.md", text: "@docs/a.md\n(a.md imports b.md, which imports c.md: three levels)\n" },
    notes: "Reported at the import in GEMINI.md that starts the chain; the message lists the chain.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.memory.iter().filter(|m| m.name() == "GEMINI.md") {
        for (range, chain) in import_walk(cx, &doc.rel, &doc.text).too_deep {
            let ignored = chain.last().cloned().unwrap_or_default();
            findings.push(
                Diagnostic::finding(format!(
                    "imports nest more than {GEMINI_IMPORT_DEPTH} deep: {}; Gemini CLI does not import `{ignored}`",
                    chain.join(" → ")
                ))
                .in_file(&doc.file)
                .at(Some(range))
                .label("chain starts here")
                .help("import the deep files from a shallower file, or merge levels"),
            );
        }
    }
    findings
}
