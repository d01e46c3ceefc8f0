//! COPILOT019: a custom agent prompt over 30,000 characters.

use crate::agent_files::FileKind;
use crate::rules::copilot::parsed;
use crate::rules::prelude::*;

/// GitHub's limit on a custom agent's prompt, in characters.
const MAX_CHARS: usize = 30_000;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Copilot custom agent's prompt (the body after the frontmatter) is longer than 30,000 characters.",
    why: "GitHub.com custom agents accept a prompt of at most 30,000 characters; a longer agent file cannot be used \
          there, and in VS Code the whole prompt is sent with every request. Sources: \
          the GitHub.com limit as recorded by skillsaw `copilot-agent-valid` (stbenjam/skillsaw) and agnix COP-011; \
          https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference.",
    fails: Example {
        file: ".github/agents/architect.agent.md",
        text: "---\ndescription: Designs services\n---\n(41,000 characters of guidance and examples)\n",
    },
    passes: Example {
        file: ".github/agents/architect.agent.md",
        text: "---\ndescription: Designs services\n---\n(9,000 characters; examples moved to docs/architecture/)\n",
    },
    notes: "Characters are counted only when the body has more than 30,000 bytes (fewer bytes cannot be more characters).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in parsed(cx, FileKind::CopilotAgent) {
        let body = doc.body();
        if body.len() <= MAX_CHARS {
            continue;
        }
        let chars = body.chars().count();
        if chars > MAX_CHARS {
            let start = doc.body_start();
            findings.push(
                Diagnostic::finding(format!(
                    "the agent's prompt is {} characters, over GitHub's limit of {}",
                    grouped(chars),
                    grouped(MAX_CHARS)
                ))
                .in_file(&doc.file)
                .at(Some(start..start))
                .label("prompt starts here")
                .help("move reference material into files the agent reads when needed"),
            );
        }
    }
    findings
}
