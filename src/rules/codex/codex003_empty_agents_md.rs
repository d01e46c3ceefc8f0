//! CODEX003: an empty AGENTS.md.

use crate::rules::codex::codex_docs;

use crate::rules::frontmatter::empty_file;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The AGENTS.md (or AGENTS.override.md) Codex reads in a folder is empty or only whitespace.",
    why: "Codex skips a whitespace-only project doc, so the folder contributes no instructions; an \
          empty file usually means its content was lost or moved. Sources: openai/codex:codex-rs/core/src/project_doc.rs@0bd53e45, docs/agents_md.md@03465279.",
    fails: Example { file: "AGENTS.md", text: "(an empty file, or only blank lines)\n" },
    passes: Example { file: "AGENTS.md", text: "Run `cargo test` before committing.\n" },
    notes: "An empty `AGENTS.override.md` beside an `AGENTS.md` is reported by CODEX002.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in codex_docs(cx).into_values().filter(|d| d.text.trim().is_empty()) {
        // An empty override hiding an AGENTS.md is CODEX002's.
        let beside = doc.rel.replace("AGENTS.override.md", "AGENTS.md");
        if doc.name() == "AGENTS.override.md" && cx.memory.iter().any(|m| m.rel == beside) {
            continue;
        }
        findings.push(empty_file(&doc.file, &doc.rel, ": Codex skips it", "write the folder's instructions in it, or delete it"));
    }
    findings
}
