//! CLAUDE013: a subagent `color` Claude Code does not offer.

use crate::agent_files::FileKind;
use crate::rules::claude::{field, with_fields};
use crate::rules::prelude::*;

const COLORS: [&str; 9] = ["red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan", "magenta"];

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A subagent's `color` is not one of the colors Claude Code shows agents in.",
    why: "`color` picks the background the agent's name is shown in while it works. Claude Code offers a fixed \
          palette (red, blue, green, yellow, purple, orange, pink, cyan; plugin agents also use magenta); a hex code \
          or another name is ignored. Source: `anthropics/claude-code:plugins/plugin-dev/skills/agent-development/SKILL.md` \
          (color field) and the `/agents` color picker.",
    fails: Example { file: ".claude/agents/reviewer.md", text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\ncolor: \"#ff8800\"\n---\nYou review code.\n" },
    passes: Example {
        file: ".claude/agents/reviewer.md",
        text: "---\nname: reviewer\ndescription: Reviews pull requests for correctness. Use after every change.\ncolor: orange\n---\nYou review code.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, fields) in with_fields(cx, FileKind::ClaudeAgent) {
        let Some(color) = field(&fields, "color") else { continue };
        let value = color.value.as_str().map_or_else(|| color.value.to_string(), str::to_string);
        if !COLORS.contains(&value.as_str()) {
            findings.push(
                Diagnostic::finding(format!("color `{value}` is not one Claude Code shows agents in"))
                    .in_file(&doc.file)
                    .at(color.span())
                    .help(format!("use one of {}", COLORS.join(", "))),
            );
        }
    }
    findings
}
