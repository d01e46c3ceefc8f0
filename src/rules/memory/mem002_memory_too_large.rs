//! MEM002: a memory file over its token budget.

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary:
        "A memory file (AGENTS.md, CLAUDE.md, or one in `[memory] files`) is larger than `[lint] memory_max_tokens` (default 8000 tokens).",
    why: "Memory files are inserted whole into every conversation. Harnesses cap them: Codex stops reading project docs at \
          32 KiB (`project_doc_max_bytes`), about 8000 tokens of English, and silently drops the rest. A memory file \
          over its budget pushes out history and usually mixes standing rules with reference material that belongs \
          in a skill or a linked document.",
    fails: Example { file: "AGENTS.md", text: "# Agent guide\n\n(34 KB: setup, style rules, every API, release notes…)\n" },
    passes: Example { file: "AGENTS.md", text: "# Agent guide\n\n(6 KB of standing rules)\n\nRelease process: see docs/releasing.md.\n" },
    notes: "The count is of the file as written; `@path` imports are not expanded.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let limit = cx.settings.memory_max_tokens;
    let mut findings = Vec::new();
    // Without a manifest, the size of an AGENTS.md chain is CODEX001's (Codex's byte budget).
    let codex_owns = |doc: &&crate::agent_files::MemoryDoc| cx.agent.is_none() && matches!(doc.name(), "AGENTS.md" | "AGENTS.override.md");
    for doc in cx.memory.iter().filter(|doc| !codex_owns(doc)) {
        if let Some(tokens) = cx.count_over(&doc.text, limit) {
            let (tokens, limit) = (grouped(tokens), grouped(limit));
            let first_line = doc.text.find('\n').unwrap_or(doc.text.len());
            findings.push(
                Diagnostic::finding(format!(
                    "{} is {}{tokens} tokens ({}), over the memory file budget of {limit}",
                    doc.rel,
                    cx.approx(),
                    cx.tokenizer.name()
                ))
                .in_file(&doc.file)
                .at(Some(0..first_line))
                .help("keep standing rules here and move reference material to linked files (or raise `[lint] memory_max_tokens`)"),
            );
        }
    }
    findings
}
