//! OPENHANDS001: microagent frontmatter that is not valid YAML.

use crate::agent_files::FileKind;
use crate::rules::prelude::*;
use crate::yaml::FrontmatterError;

pub const RULE: Rule = Rule {
    code: Code::OPENHANDS001,
    name: "invalid-frontmatter",
    family: Family::OpenHands,
    severity: Severity::Error,
    summary: "An OpenHands microagent's frontmatter is not valid YAML, or is never closed.",
    why: "OpenHands reads microagents with `python-frontmatter`; a YAML error raises while loading, and the loader \
          stops with \"Error loading microagent from <file>\", so this microagent (and, in the V0 loader, the rest \
          of the folder) is not loaded. Source: All-Hands-AI/OpenHands:openhands/microagent/microagent.py@156d0686.",
    fails: Example {
        file: ".openhands/microagents/docker.md",
        text: "---\nname: docker\ntriggers: [docker, container\n---\nUse multi-stage builds.\n",
    },
    passes: Example {
        file: ".openhands/microagents/docker.md",
        text: "---\nname: docker\ntriggers: [docker, container]\n---\nUse multi-stage builds.\n",
    },
    notes: "Other OpenHands rules skip a file whose frontmatter does not parse.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::OpenHandsMicroagent) {
        let (message, at) = match &*doc.front {
            Err(FrontmatterError::Invalid(e)) => (format!("frontmatter is not valid YAML: {}", e.message), e.offset.unwrap_or(0)),
            Err(FrontmatterError::Unterminated) => ("frontmatter is never closed with `---`".to_string(), 0),
            _ => continue,
        };
        let at = at.min(doc.text.len());
        let end = doc.text[at..].find('\n').map_or(doc.text.len(), |i| at + i);
        findings.push(
            Diagnostic::error(message)
                .in_file(&doc.file)
                .at(Some(at..end))
                .label("here")
                .help("fix the YAML; OpenHands does not load a microagent whose frontmatter fails to parse"),
        );
    }
    findings
}
