//! INSTR002: a routing description that is still template text.

use crate::rules::instructions::{descriptions, normalized};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A skill's, subagent's, agent-requested Cursor rule's or Copilot agent's description is placeholder text (`TODO`, `Replace with description…`, `[description]`).",
    why: "A template's placeholder left in the description means the item never routes: the model reads \
          \"Replace with description of the skill\" and has nothing to match a request against, so the skill or \
          subagent is never chosen (Agent Skills specification, https://agentskills.io/specification#description-field; \
          Claude Code subagents, https://code.claude.com/docs/en/sub-agents).",
    fails: Example {
        file: "skills/release/SKILL.md",
        text: "---\nname: release\ndescription: Replace with description of the skill and when Claude should use it.\n---\nCut a release.\n",
    },
    passes: Example {
        file: "skills/release/SKILL.md",
        text: "---\nname: release\ndescription: Cut and publish a release. Use when the user asks to ship a version.\n---\nCut a release.\n",
    },
    notes: "Placeholders: descriptions starting with `TODO`, `TBD`, `FIXME`, `Replace with`, `Replace this`, `Add a \
            description`, `Insert description`, `Your description`, `Description here`, `Lorem ipsum`, or wholly in \
            brackets (`[…]`, `<…>`, `{{…}}`).",
    stage: Stage::Lint(check),
};

const OPENINGS: [&str; 14] = [
    "todo",
    "tbd",
    "fixme",
    "replace with",
    "replace this",
    "add a description",
    "add description",
    "insert description",
    "insert a description",
    "your description",
    "description here",
    "description goes here",
    "lorem ipsum",
    "a description of what this",
];

/// Whether a description is template text.
pub fn is_placeholder(description: &str) -> bool {
    let trimmed = description.trim();
    let bracketed = [("[", "]"), ("<", ">"), ("{{", "}}")].iter().any(|(a, b)| trimmed.starts_with(a) && trimmed.ends_with(b));
    if bracketed {
        return true;
    }
    // The words are one opening, or start with one and a space (no text formatted per opening).
    let words = normalized(trimmed);
    OPENINGS.iter().any(|o| words.strip_prefix(o).is_some_and(|rest| rest.is_empty() || rest.starts_with(' ')))
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for d in descriptions(cx) {
        if d.description.is_empty() || !is_placeholder(&d.description) {
            continue;
        }
        findings.push(
            Diagnostic::finding(format!("description `{}` is placeholder text", d.description))
                .in_file(d.file)
                .at(d.span)
                .label("placeholder")
                .help("write what it does and when to use it"),
        );
    }
    findings
}
