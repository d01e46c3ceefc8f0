//! SKILL010: `license` or `allowed-tools` that is not a string.

use crate::rules::prelude::*;

pub const RULE: Rule = Rule {
    code: Code::SKILL010,
    name: "field-type",
    family: Family::Skills,
    severity: Severity::Warning,
    summary: "A skill's optional `license` or `allowed-tools` is not a string (for example a YAML list of tools).",
    why: "The specification defines both as strings; `allowed-tools` is one space-separated string \
          (`Bash(git:*) Read`). Some clients accept a list, others drop the field, so the skill runs with different \
          permissions in different agents.",
    fails: Example { file: "skills/release/SKILL.md", text: "---\nname: release\ndescription: Cut a release.\nallowed-tools: [Bash, Read]\n---\n" },
    passes: Example { file: "skills/release/SKILL.md", text: "---\nname: release\ndescription: Cut a release.\nallowed-tools: Bash Read\n---\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        for key in ["license", "allowed-tools"] {
            let Some(value) = skill.field(key).filter(|v| !v.is_string()) else { continue };
            let help = if key == "allowed-tools" { "write the tools as one space-separated string, e.g. `allowed-tools: Bash(git:*) Read`" } else { "write the license name or file as a string" };
            findings.push(
                Diagnostic::warning(format!("frontmatter `{key}` must be a string, not `{value}`"))
                    .in_file(&skill.file)
                    .at(skill.key_span(key))
                    .help(help),
            );
        }
    }
    findings
}
