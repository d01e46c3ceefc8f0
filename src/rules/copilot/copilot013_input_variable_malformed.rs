//! COPILOT013: a malformed `${input:…}` variable in a prompt file.

use std::sync::LazyLock;

use regex::Regex;

use crate::agent_files::FileKind;
use crate::rules::copilot::parsed;
use crate::rules::markdown::prose;
use crate::rules::prelude::*;

static INPUT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\$\{\s*inputs?\s*(?::([^}\n]*))?\}").expect("constant pattern")); // ok: literal
static NAME: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^[A-Za-z_][A-Za-z0-9_-]*(?::.*)?$").expect("constant pattern")); // ok: literal

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A prompt file has an input variable that is not `${input:name}` or `${input:name:placeholder}`.",
    why: "VS Code asks the user for each `${input:name}` (with an optional placeholder after a second colon) before \
          running the prompt. `${input}`, `${inputs:x}`, `${input:}` or a name with spaces are not replaced, so the \
          model receives the raw text instead of the value. Source: \
          https://code.visualstudio.com/docs/copilot/customization/prompt-files (variables).",
    fails: Example {
        file: ".github/prompts/component.prompt.md",
        text: "---\nagent: agent\n---\nCreate a component named ${input: component name}.\n",
    },
    passes: Example {
        file: ".github/prompts/component.prompt.md",
        text: "---\nagent: agent\n---\nCreate a component named ${input:componentName:MyButton}.\n",
    },
    notes: "Code spans and fenced blocks are skipped.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in parsed(cx, FileKind::CopilotPrompt) {
        let start = doc.body_start();
        let masked = prose(cx.root.cache(), doc.body());
        for caps in INPUT.captures_iter(&masked) {
            let Some(whole) = caps.get(0) else { continue };
            let text = whole.as_str();
            let well_formed = text.starts_with("${input:") && caps.get(1).is_some_and(|n| NAME.is_match(n.as_str()));
            if well_formed {
                continue;
            }
            findings.push(
                Diagnostic::finding(format!("`{text}` is not an input variable VS Code replaces"))
                    .in_file(&doc.file)
                    .at(Some(start + whole.start()..start + whole.end()))
                    .label("malformed variable")
                    .help("write `${input:name}` or `${input:name:placeholder}`; the name has no spaces"),
            );
        }
    }
    findings
}
