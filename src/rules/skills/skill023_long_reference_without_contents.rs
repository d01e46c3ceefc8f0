//! SKILL023: a long bundled reference without a table of contents.

use crate::rules::prelude::*;
use crate::rules::refs::Bundle;

/// Reference files longer than this should open with a table of contents.
pub const TOC_MIN_LINES: usize = 100;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Markdown reference bundled with a skill is over 100 lines and does not open with a table of contents.",
    why: "Agents often read only the start of a reference file (a preview, the first lines) and decide from it \
          where to look. Anthropic's skill authoring guidance: \"For reference files longer than 100 lines, include \
          a table of contents at the top\", so the agent sees the full scope even when previewing \
          (https://platform.claude.com/docs/en/agents-and-tools/agent-skills/best-practices).",
    fails: Example {
        file: "skills/api-client/SKILL.md",
        text: "---\nname: api-client\ndescription: Call the billing API. Use when the user asks about invoices.\n---\nSee [the API guide](references/api.md).\n\n# references/api.md: 240 lines, starting with `## Authentication`\n",
    },
    passes: Example {
        file: "skills/api-client/SKILL.md",
        text: "---\nname: api-client\ndescription: Call the billing API. Use when the user asks about invoices.\n---\nSee [the API guide](references/api.md).\n\n# references/api.md starts with `## Contents` and a list of its sections\n",
    },
    notes: "Only `.md` files under `references/` are checked. A table of contents is a heading or bold line naming \
            contents (`Contents`, `Table of Contents`, `TOC`, `Index`, `Sections`; not `Overview`, which opens a summary in \
            prose, not a list of the sections), or three list items \
            linking to `#anchors`, in the first 40 lines.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let bundle = Bundle::of(cx, &skill.rel);
        for (rel, text) in
            bundle.texts.iter().filter(|(rel, _)| rel.starts_with("references/") && rel.to_ascii_lowercase().ends_with(".md"))
        {
            let lines = text.lines().count();
            if lines <= TOC_MIN_LINES || has_contents(text) {
                continue;
            }
            findings.push(
                Diagnostic::finding(format!("`{rel}` is {lines} lines long and has no table of contents at the top"))
                    // The whole file (its text is not among the run's sources, as SKILL020's).
                    .in_file(cx.display(&bundle.path(rel)))
                    .help("start the file with a short list of its sections, so an agent previewing it sees what it covers"),
            );
        }
    }
    findings
}

fn has_contents(text: &str) -> bool {
    let head: Vec<&str> = text.lines().take(40).collect();
    let named = head.iter().any(|line| {
        let t = line.trim().trim_start_matches('#').trim().trim_matches('*').trim().to_ascii_lowercase();
        let is_title = line.trim_start().starts_with('#') || line.trim_start().starts_with("**");
        is_title
            && ["contents", "table of contents", "toc", "index", "sections", "quick navigation", "navigation"]
                .iter()
                .any(|n| t.starts_with(n))
    });
    let anchor_items = head.iter().filter(|line| {
        let t = line.trim_start();
        (t.starts_with("- ") || t.starts_with("* ") || t.chars().next().is_some_and(|c| c.is_ascii_digit())) && t.contains("](#")
    });
    named || anchor_items.count() >= 3
}

#[cfg(test)]
mod tests {
    use super::has_contents;

    #[test]
    fn an_overview_is_no_contents_list() {
        assert!(!has_contents("# Deploying\n\n## Overview\n\nThis guide covers the deploy steps in order.\n"));
        assert!(has_contents("# Deploying\n\n## Contents\n\n- Build\n- Ship\n"));
    }
}
