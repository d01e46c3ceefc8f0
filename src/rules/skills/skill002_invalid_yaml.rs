//! SKILL002: SKILL.md frontmatter that is not valid YAML.

use crate::rules::prelude::*;
use crate::yaml::FrontmatterError;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "SKILL.md frontmatter is not valid YAML, or not a mapping of keys to values.",
    why: "Agents parse the frontmatter with a YAML parser and skip the skill when it fails, usually without a word. The \
          classic cause is an unquoted `: ` inside a description (`description: Use when: …`), which YAML reads as a \
          nested mapping; quote the value or use a folded scalar (`>-`).",
    fails: Example {
        file: "skills/efficient-frontier/SKILL.md",
        text: "---\nname: efficient-frontier\ndescription: Portfolio optimisation. Use when: the user asks about risk\n---\n",
    },
    passes: Example {
        file: "skills/efficient-frontier/SKILL.md",
        text: "---\nname: efficient-frontier\ndescription: >-\n  Portfolio optimisation. Use when: the user asks about risk\n---\n",
    },
    notes: "In a manifest, such a skill stops loading (exit 2); in zero-config linting it is a finding.",
    stage: Stage::LoadOrLint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let Err(FrontmatterError::Invalid(e)) = &*skill.front else { continue };
        let at = e.offset.map(|o| o..o);
        findings.push(Diagnostic::finding(format!("malformed YAML frontmatter: {}", e.message)).in_file(&skill.file).at(at).label("here"));
    }
    findings
}
