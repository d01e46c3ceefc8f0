//! SKILL001: a SKILL.md without YAML frontmatter.

use crate::rules::prelude::*;
use crate::yaml::FrontmatterError;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A SKILL.md does not start with YAML frontmatter (a `---` line, the fields, a closing `---` line).",
    why: "The Agent Skills specification requires frontmatter with `name` and `description`: that is what goes into the \
          skill catalogue at startup. Without it, the skill cannot be listed, so the agent never knows it exists.",
    fails: Example { file: "skills/pdf-processing/SKILL.md", text: "# PDF processing\n\nExtract text from PDF files.\n" },
    passes: Example {
        file: "skills/pdf-processing/SKILL.md",
        text:
            "---\nname: pdf-processing\ndescription: Extract text from PDF files. Use when the user mentions PDFs.\n---\n# PDF processing\n",
    },
    notes: "In a manifest, such a skill stops loading (exit 2); in zero-config linting it is a finding.",
    stage: Stage::LoadOrLint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let message = match &*skill.front {
            Err(FrontmatterError::Missing) => "SKILL.md has no YAML frontmatter (a `---` line, `name:` and `description:`, then `---`)",
            Err(FrontmatterError::Unterminated) => "SKILL.md frontmatter is not closed by a `---` line",
            _ => continue,
        };
        let first_line = skill.text.find('\n').unwrap_or(skill.text.len());
        findings.push(Diagnostic::finding(message).in_file(&skill.file).at(Some(0..first_line)).label("expected `---` frontmatter"));
    }
    findings
}
