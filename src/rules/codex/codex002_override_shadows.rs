//! CODEX002: AGENTS.override.md hiding AGENTS.md in the same folder.

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A folder has both `AGENTS.override.md` and `AGENTS.md`; Codex reads only the override.",
    why: "In each folder Codex takes the first file that exists of `AGENTS.override.md` and `AGENTS.md` — at most one \
          per folder — so the AGENTS.md beside an override is never read by Codex, even when the override is empty. \
          Other tools that read AGENTS.md still see it, so the two drift apart. Sources: \
          openai/codex:docs/agents_md.md@03465279, codex-rs/core/src/project_doc.rs@0bd53e45.",
    fails: Example { file: "AGENTS.md", text: "# Guide\n\nRun `make test`.\n(and AGENTS.override.md exists in the same folder)\n" },
    passes: Example { file: "AGENTS.md", text: "# Guide\n\nRun `make test`.\n" },
    notes: "Reported at the AGENTS.md that Codex skips.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.memory.iter().filter(|m| m.name() == "AGENTS.md") {
        let dir = doc.rel.rsplit_once('/').map_or("", |(d, _)| d);
        let override_rel = if dir.is_empty() { "AGENTS.override.md".to_string() } else { format!("{dir}/AGENTS.override.md") };
        let Some(shadow) = cx.memory.iter().find(|m| m.rel == override_rel) else { continue };
        let empty = match shadow.text.trim().is_empty() {
            true => " (and is empty, so Codex gets no instructions from this folder)",
            false => "",
        };
        let first = doc.text.find('\n').unwrap_or(doc.text.len());
        findings.push(
            Diagnostic::finding(format!("Codex never reads {}: `{override_rel}` in the same folder replaces it{empty}", doc.rel))
                .in_file(&doc.file)
                .at(Some(0..first))
                .label("shadowed")
                .help("merge the override into AGENTS.md and delete it, or keep only the override"),
        );
    }
    findings
}
