//! SKILL010: `license` or `allowed-tools` that is not a string.

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A skill's optional `license` or `allowed-tools` is not a string (for example a YAML list of tools).",
    why: "The specification defines both as strings; `allowed-tools` is one space-separated string \
          (`Bash(git:*) Read`). Some clients accept a list, others drop the field, so the skill runs with different \
          permissions in different agents.",
    fails: Example {
        file: "skills/release/SKILL.md",
        text: "---\nname: release\ndescription: Cut a release.\nallowed-tools: [Bash, Read]\n---\n",
    },
    passes: Example {
        file: "skills/release/SKILL.md",
        text: "---\nname: release\ndescription: Cut a release.\nallowed-tools: Bash Read\n---\n",
    },
    notes: "Fix (safe): an `allowed-tools` list whose items have no spaces is written as the specification's \
            space-separated string.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        for key in ["license", "allowed-tools"] {
            let Some(value) = skill.field(key).filter(|v| !v.is_string()) else { continue };
            let help = if key == "allowed-tools" {
                "write the tools as one space-separated string, e.g. `allowed-tools: Bash(git:*) Read`"
            } else {
                "write the license name or file as a string"
            };
            let mut d = Diagnostic::finding(format!("frontmatter `{key}` must be a string, not `{value}`"))
                .in_file(&skill.file)
                .at(skill.key_span(key))
                .help(help);
            if let Some(edit) = (key == "allowed-tools").then(|| joined(skill, value)).flatten() {
                d = d.fix(Fix::safe("write the tools as one space-separated string", vec![edit]));
            }
            findings.push(d);
        }
    }
    findings
}

/// `allowed-tools: [Bash, Read]` (or a block list) rewritten as `allowed-tools: Bash Read`, when
/// every item is a string without spaces (an item with one could not be told apart).
fn joined(skill: &crate::agent_files::Doc, value: &serde_json::Value) -> Option<Edit> {
    let items = value.as_array()?;
    let tools: Vec<&str> =
        items.iter().map(|i| i.as_str().filter(|t| !t.is_empty() && !t.contains(char::is_whitespace))).collect::<Option<_>>()?;
    if tools.is_empty() {
        return None;
    }
    let lines = skill.entry_lines("allowed-tools")?;
    let ending = if skill.text[lines.clone()].ends_with("\r\n") { "\r\n" } else { "\n" };
    Some(Edit::replace(&skill.file, lines, format!("allowed-tools: {}{ending}", tools.join(" "))))
}
