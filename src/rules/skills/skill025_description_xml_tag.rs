//! SKILL025: an XML tag in a skill's description.

use std::sync::LazyLock;

use regex::Regex;

use crate::rules::prelude::*;

/// An opening, closing or self-closing tag: `<example>`, `</example>`, `<br/>`, `<T>`.
static TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"</?[A-Za-z][A-Za-z0-9_.:-]*(?:\s[^<>]*)?/?>").expect("constant pattern")); // ok: literal

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A skill's `description` contains an XML tag (`<example>`, `</commentary>`), which Claude's skill upload rejects.",
    why: "Claude's skill requirements say the description \"cannot contain XML tags\": a skill whose description has one \
          is refused when uploaded to claude.ai (\"SKILL.md description cannot contain XML tags\") or through the \
          Skills API, even though Claude Code loads it from disk. Write the example in words, or move it into the \
          body. Sources: https://platform.claude.com/docs/en/agents-and-tools/agent-skills/overview (skill structure: \
          `description`), https://platform.claude.com/docs/en/agents-and-tools/agent-skills/best-practices.",
    fails: Example {
        file: "skills/release-notes/SKILL.md",
        text: "---\nname: release-notes\ndescription: Drafts release notes from merged pull requests. <example>Write the notes for 2.1</example>\n---\nCollect the merged pull requests since the last tag.\n",
    },
    passes: Example {
        file: "skills/release-notes/SKILL.md",
        text: "---\nname: release-notes\ndescription: Drafts release notes from merged pull requests, for example when the user asks for the notes of 2.1.\n---\nCollect the merged pull requests since the last tag.\n",
    },
    notes: "One finding per description, at its first tag. Subagent descriptions are not checked: Claude Code's own \
            guidance writes their examples as `<example>` blocks.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let Some(description) = skill.string("description") else { continue };
        let Some(tag) = TAG.find(description) else { continue };
        // The tag where it is written, when the frontmatter spells it as it reads.
        let from = skill.key_span("description").map_or(0, |k| k.end);
        let written = skill.text.get(from..skill.body_start()).and_then(|t| t.find(tag.as_str())).map(|i| from + i..from + i + tag.len());
        findings.push(
            Diagnostic::finding(format!("the description of skill `{}` contains the XML tag `{}`", skill.folder, tag.as_str()))
                .in_file(&skill.file)
                .at(written.or_else(|| skill.key_span("description")))
                .label("XML tag")
                .help("Claude's skill upload rejects XML tags in a description: say it in words, or move the example into the body"),
        );
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::TAG;

    #[test]
    fn tags_and_not_comparisons() {
        for tag in ["<example>", "</commentary>", "<br/>", "<skill name=\"x\">", "Vec<String>"] {
            assert!(TAG.is_match(tag), "{tag}");
        }
        for text in ["a < b and c > d", "<= 3", "-> next", "<3 release", "< example >"] {
            assert!(!TAG.is_match(text), "{text}");
        }
    }
}
