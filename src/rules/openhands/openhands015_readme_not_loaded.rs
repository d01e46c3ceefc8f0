//! OPENHANDS015: a README.md written as a microagent.

use crate::agent_files::FileKind;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A `README.md` in `.openhands/microagents/` has microagent frontmatter (`triggers`, `type`, `inputs`), but OpenHands never loads README files.",
    why: "The loader reads every `*.md` under `.openhands/microagents/` except `README.md`; a README with triggers or a \
          type was meant to be a microagent and is silently skipped. Source: \
          All-Hands-AI/OpenHands:openhands/microagent/microagent.py@156d0686 (`load_microagents_from_dir`).",
    fails: Example { file: ".openhands/microagents/README.md", text: "---\nname: repo\ntype: repo\n---\nRun `make test` before committing.\n" },
    passes: Example { file: ".openhands/microagents/repo.md", text: "---\nname: repo\ntype: repo\n---\nRun `make test` before committing.\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::OpenHandsMicroagent).filter(|d| d.name() == "README.md") {
        let Some(key) = ["triggers", "type", "inputs"].into_iter().find(|k| doc.field(k).is_some()) else { continue };
        findings.push(
            Diagnostic::finding(format!("{} sets `{key}` but OpenHands skips README.md files", doc.rel))
                .in_file(&doc.file)
                .at(doc.key_span(key))
                .label("never loaded")
                .help("rename the file (e.g. `repo.md`), and keep README.md for people"),
        );
    }
    findings
}
