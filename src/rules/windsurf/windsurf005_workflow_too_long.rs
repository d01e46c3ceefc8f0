//! WINDSURF005: a Windsurf workflow longer than Windsurf's per-file character limit.

use crate::agent_files::FileKind;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Windsurf workflow (`.windsurf/workflows/*.md`) is longer than the 12,000 characters Windsurf allows a workflow file.",
    why: "Windsurf runs a workflow's steps when the user types `/name`, and its documentation limits each workflow file \
          to 12,000 characters; it does not say what becomes of a longer one, so the steps past the limit may never \
          reach Cascade. The limit is counted in characters, not bytes. Source: \
          https://docs.windsurf.com/windsurf/cascade/workflows (checked 2026-11-29; the figure is in \
          `data/hosts/windsurf.toml`).",
    fails: Example { file: ".windsurf/workflows/release.md", text: "[a workflow of 12,001 characters or more]" },
    passes: Example { file: ".windsurf/workflows/release.md", text: "1. Run the tests.\n2. Tag the release.\n" },
    notes: "Split a long workflow into several and call one from another (`Call /release-notes`), which Windsurf supports.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let Some(limit) = FileKind::WindsurfWorkflow.spec_of("windsurf").max_chars else { return Vec::new() };
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::WindsurfWorkflow) {
        // The byte where the limit is passed: none when the text holds at most `limit` characters.
        let Some((at, _)) = doc.text.char_indices().nth(limit) else { continue };
        let chars = limit + doc.text[at..].chars().count();
        findings.push(
            Diagnostic::finding(format!("{} has {chars} characters; Windsurf limits a workflow file to {limit}", doc.rel))
                .in_file(&doc.file)
                .at(Some(at..at))
                .label(format!("character {} starts here", limit + 1))
                .help("split the workflow into shorter ones that call each other (`Call /next-step`)"),
        );
    }
    findings
}
