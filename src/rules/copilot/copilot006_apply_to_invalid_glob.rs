//! COPILOT006: an `applyTo` glob that matches nothing.

use crate::agent_files::FileKind;
use crate::rules::copilot::parsed;
use crate::rules::globs::{glob_problem, split_globs};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An `applyTo` glob is empty, has a syntax error (unclosed `[` or `{`), or starts with `/` or `./`.",
    why: "Copilot attaches path-specific instructions when a file's path relative to the repository root matches \
          `applyTo`. An empty or broken glob, or one anchored with `/` or `./` (relative paths never start so), \
          matches nothing, and the instructions are never used. Source: \
          https://docs.github.com/en/copilot/how-tos/configure-custom-instructions-in-your-ide/add-repository-instructions-in-your-ide.",
    fails: Example { file: ".github/instructions/web.instructions.md", text: "---\napplyTo: \"src/**/*.{ts,tsx\"\n---\nUse ESM.\n" },
    passes: Example { file: ".github/instructions/web.instructions.md", text: "---\napplyTo: \"src/**/*.{ts,tsx}\"\n---\nUse ESM.\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in parsed(cx, FileKind::CopilotScopedInstructions) {
        let Some(value) = doc.string("applyTo") else { continue };
        let span = doc.value_span("applyTo");
        let problem = |glob: &str| match glob {
            "" => Some("it is empty".to_string()),
            g if g.starts_with('/') || g.starts_with("./") => {
                Some("paths are matched relative to the repository root, without a leading `/` or `./`".to_string())
            }
            g => glob_problem(g).map(str::to_string),
        };
        let found = if value.trim().is_empty() {
            Some(("".to_string(), "it is empty".to_string()))
        } else {
            split_globs(value, 0).into_iter().find_map(|(g, _)| problem(g).map(|p| (g.to_string(), p)))
        };
        if let Some((glob, why)) = found {
            findings.push(
                Diagnostic::finding(format!("`applyTo` glob `{glob}` matches no file: {why}"))
                    .in_file(&doc.file)
                    .at(span)
                    .label("invalid glob")
                    .help("write globs relative to the repository root, e.g. `applyTo: \"src/**/*.ts\"`"),
            );
        }
    }
    findings
}
