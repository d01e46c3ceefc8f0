//! COPILOT004: a path-specific instructions file without `applyTo`.

use crate::agent_files::FileKind;
use crate::diagnostic::did_you_mean;
use crate::rules::frontmatter::has_yaml_error;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A `.github/instructions/*.instructions.md` file has no `applyTo` in its frontmatter.",
    why: "Path-specific instructions are attached to a request when a file it touches matches `applyTo`; without it \
          the file is never applied automatically (only when attached by hand). Sources: \
          https://docs.github.com/en/copilot/how-tos/configure-custom-instructions-in-your-ide/add-repository-instructions-in-your-ide; \
          https://code.visualstudio.com/docs/copilot/customization/custom-instructions.",
    fails: Example {
        file: ".github/instructions/python.instructions.md",
        text: "---\ndescription: Python conventions\n---\nUse type hints.\n",
    },
    passes: Example {
        file: ".github/instructions/python.instructions.md",
        text: "---\ndescription: Python conventions\napplyTo: \"**/*.py\"\n---\nUse type hints.\n",
    },
    notes: "Use `applyTo: \"**\"` for instructions that apply to every file. A blank file (COPILOT009) or a misspelt \
            `applyTo` (COPILOT008) is reported by that rule instead.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::CopilotScopedInstructions) {
        // A blank file is COPILOT009's, a misspelt `applyTo` (`applyto`, `applysTo`) COPILOT008's.
        let misspelt = doc.fields().iter().any(|(k, _)| k != "applyTo" && did_you_mean(k, ["applyTo"]).is_some());
        if has_yaml_error(doc) || doc.field("applyTo").is_some() || doc.text.trim().is_empty() || misspelt {
            continue;
        }
        let end = doc.text.find('\n').unwrap_or(doc.text.len());
        findings.push(
            Diagnostic::finding(format!("{} has no `applyTo`: Copilot never attaches it automatically", doc.rel))
                .in_file(&doc.file)
                .at(Some(0..end))
                .help("add frontmatter with `applyTo: \"GLOB\"` (`\"**\"` for every file)"),
        );
    }
    findings
}
