//! COPILOT002: frontmatter in `.github/copilot-instructions.md`.

use crate::agent_files::FileKind;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "`.github/copilot-instructions.md` starts with a frontmatter block that sets `applyTo` or `excludeAgent`.",
    why: "The repository-wide instructions file is plain Markdown that applies to every request; `applyTo` and \
          `excludeAgent` work only in path-specific `.github/instructions/*.instructions.md` files. Here they do \
          not scope anything and are sent to the model as text. Sources: \
          https://docs.github.com/en/copilot/how-tos/configure-custom-instructions-in-your-ide/add-repository-instructions-in-your-ide; \
          github/docs `data/reusables/copilot/custom-instructions-path.md`.",
    fails: Example { file: ".github/copilot-instructions.md", text: "---\napplyTo: \"**/*.py\"\n---\nUse type hints.\n" },
    passes: Example { file: ".github/instructions/python.instructions.md", text: "---\napplyTo: \"**/*.py\"\n---\nUse type hints.\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::CopilotInstructions) {
        let Some(key) = ["applyTo", "excludeAgent"].into_iter().find(|k| doc.key_span(k).is_some()) else { continue };
        findings.push(
            Diagnostic::finding(format!("`{key}` has no effect in the repository-wide instructions file"))
                .in_file(&doc.file)
                .at(doc.key_span(key))
                .label("not read here")
                .help("move these instructions to `.github/instructions/NAME.instructions.md`, or remove the frontmatter"),
        );
    }
    findings
}
