//! COPILOT003: frontmatter that is not valid YAML.

use crate::agent_files::FileKind;
use crate::rules::prelude::*;
use crate::yaml::FrontmatterError;

pub const RULE: Rule = Rule {
    code: Code::COPILOT003,
    name: "invalid-frontmatter",
    family: Family::Copilot,
    severity: Severity::Error,
    summary: "The frontmatter of a Copilot instructions, prompt or custom agent file is not valid YAML, or is never closed.",
    why: "VS Code and GitHub read these files' settings (`applyTo`, `agent`, `tools`, `description`…) from YAML \
          frontmatter; when it does not parse, none of them apply: instructions are not attached, tools not \
          restricted. Sources: https://code.visualstudio.com/docs/copilot/customization/prompt-files; \
          https://code.visualstudio.com/docs/agents/reference/custom-agent-file-reference.",
    fails: Example { file: ".github/instructions/python.instructions.md", text: "---\napplyTo: **/*.py\n---\nUse type hints.\n" },
    passes: Example { file: ".github/instructions/python.instructions.md", text: "---\napplyTo: \"**/*.py\"\n---\nUse type hints.\n" },
    notes: "Other Copilot rules skip a file whose frontmatter does not parse.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let kinds = [FileKind::CopilotScopedInstructions, FileKind::CopilotPrompt, FileKind::CopilotAgent];
    let mut findings = Vec::new();
    for doc in cx.files.iter().filter(|d| kinds.contains(&d.kind)) {
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
                .help("quote values that start with `*`, `[`, `{` or contain `: `; close the frontmatter with `---`"),
        );
    }
    findings
}
