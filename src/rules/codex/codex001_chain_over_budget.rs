//! CODEX001: the AGENTS.md chain over Codex's 32 KiB budget.

use crate::rules::codex::{codex_budget, codex_docs, folders_down_to};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "The AGENTS.md files Codex reads from the project root down to a folder add up to more than 32 KiB (`project_doc_max_bytes`).",
    why: "Codex reads one file per folder (`AGENTS.override.md`, else `AGENTS.md`) from the repository root down to the \
          working folder, into one budget of `project_doc_max_bytes` (32,768 bytes by default). The file that crosses \
          the budget is cut at that byte, every file after it is skipped, and nothing tells the user: only a log line \
          (\"exceeds remaining budget … truncating\"). The instructions past the cut never reach the model. Sources: \
          openai/codex:codex-rs/core/src/project_doc.rs@0bd53e45 (`read_project_docs`), docs/agents_md.md@03465279.",
    fails: Example { file: "AGENTS.md", text: "# Contributor guide\n\n(34,566 bytes of setup, style rules and API notes)\n" },
    passes: Example {
        file: "AGENTS.md",
        text: "# Contributor guide\n\n(12 KB of standing rules; API notes in docs/, package rules in packages/*/AGENTS.md)\n",
    },
    notes: "Reported once, at the file where the budget runs out, with the byte where Codex cuts it and the nested \
            AGENTS.md files that are then never read. The chain is counted inside the checked folder (its root taken \
            as the repository root); the global `~/.codex/AGENTS.md` does not count against this budget. Only the \
            default budget is known to ctxc.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let docs = codex_docs(cx);
    let size = |d: &crate::agent_files::MemoryDoc| if d.text.trim().is_empty() { 0 } else { d.text.len() };
    let budget = codex_budget();
    let mut findings = Vec::new();
    for (dir, doc) in &docs {
        let ancestors: Vec<&str> = folders_down_to(dir).into_iter().filter(|f| f != dir).collect();
        let before: usize = ancestors.iter().filter_map(|f| docs.get(f)).map(|d| size(d)).sum();
        let own = size(doc);
        if before >= budget || before + own <= budget {
            continue;
        }
        let keep = budget - before;
        let dropped: Vec<&str> = docs
            .iter()
            .filter(|(d, other)| *d != dir && (dir.is_empty() || d.starts_with(&format!("{dir}/"))) && size(other) > 0)
            .map(|(_, other)| other.rel.as_str())
            .collect();
        let mut message = format!(
            "Codex reads only the first {} of this file's {} bytes: the AGENTS.md chain is {} bytes here, over the {}-byte budget",
            grouped(keep),
            grouped(own),
            grouped(before + own),
            grouped(budget)
        );
        if before > 0 {
            message.push_str(&format!(" ({} in the files above it)", grouped(before)));
        }
        let (line, _) = crate::diagnostic::line_col(&doc.text, keep.min(doc.text.len()));
        let mut help = format!("Codex cuts the file at line {line} and drops the last {} bytes", grouped(own - keep));
        if !doc.text.is_char_boundary(keep) {
            help.push_str(", splitting a character");
        }
        if !dropped.is_empty() {
            help.push_str(&format!("; it never reads {}", dropped.iter().map(|d| format!("`{d}`")).collect::<Vec<_>>().join(", ")));
        }
        help.push_str("; move reference material to linked files or nested AGENTS.md files, or raise `project_doc_max_bytes`");
        let start = (0..=keep.min(doc.text.len())).rev().find(|i| doc.text.is_char_boundary(*i)).unwrap_or(0);
        let end = doc.text[start..].find('\n').map_or(doc.text.len(), |i| start + i);
        findings.push(Diagnostic::finding(message).in_file(&doc.file).at(Some(start..end)).label("Codex stops reading here").help(help));
    }
    findings
}
