//! LINK004: a link to a heading anchor that the target file does not define.

use std::collections::BTreeSet;

use crate::rules::prelude::*;
use crate::rules::refs::{self, Resolved, Target};

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A link's `#anchor` names no heading (and no explicit id) of the Markdown file it points at.",
    why: "Section links (`[setup](#local-setup)`, `[api](docs/api.md#errors)`) tell the agent which part of a file \
          to read. When the heading was renamed the anchor leads nowhere: GitHub lands at the top of the page and a \
          model searching for the section finds nothing. Anchors are GitHub's heading ids: lowercased, punctuation \
          dropped, spaces made hyphens, duplicates numbered \
          (https://docs.github.com/en/get-started/writing-on-github/getting-started-with-writing-and-formatting-on-github/basic-writing-and-formatting-syntax#section-links).",
    fails: Example { file: "AGENTS.md", text: "# Agent guide\n\nSee [testing](#running-tests).\n\n## Tests\n\nRun `make test`.\n" },
    passes: Example { file: "AGENTS.md", text: "# Agent guide\n\nSee [testing](#tests).\n\n## Tests\n\nRun `make test`.\n" },
    notes: "Checked for anchors in the same file and in Markdown files (`.md`, `.mdx`, `.mdc`) of the project that \
            exist. Explicit ids count (`<a name=\"x\">`, `id=\"x\"`, `{#x}`); GitHub line anchors (`#L10`) and \
            empty anchors are not checked; matching is case-insensitive.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (file, link) in refs::all_links(cx) {
        let (anchor, defined): (&str, BTreeSet<String>) = match refs::target(&link.dest) {
            Target::Anchor(anchor) => (anchor, refs::anchors(cx.root.cache(), file.text)),
            Target::Relative { path, anchor: Some(anchor) } if is_markdown(&path) => {
                let Resolved::Exists(rel) = refs::resolve(cx, file.dir(), &path) else { continue };
                let Ok(target) = cx.root.read(&rel) else { continue };
                (anchor, refs::anchors(cx.root.cache(), &target.text))
            }
            _ => continue,
        };
        if anchor.is_empty() || is_line_anchor(anchor) || refs::has_anchor(&defined, anchor) {
            continue;
        }
        let end = link.span.end;
        let start = end - anchor.len() - 1;
        findings.push(
            Diagnostic::finding(format!("anchor `#{anchor}` of link `{}` names no heading in the file it points at", link.dest))
                .in_file(file.file)
                .at(Some(start..end))
                .label("no such heading")
                .help("link to the heading's current anchor (lowercase, punctuation dropped, spaces as `-`)"),
        );
    }
    findings
}

fn is_markdown(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [".md", ".mdx", ".mdc", ".markdown"].iter().any(|e| lower.ends_with(e))
}

/// GitHub's line anchors: `L10`, `L10-L20`.
fn is_line_anchor(anchor: &str) -> bool {
    anchor.strip_prefix('L').is_some_and(|rest| rest.chars().next().is_some_and(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use crate::rules::refs::{anchors, has_anchor, slug};

    #[test]
    fn slugs_follow_github() {
        assert_eq!(slug("Running `cargo test` (fast)"), "running-cargo-test-fast");
        assert_eq!(slug("[API](x.md) & CLI"), "api--cli");
        assert!(has_anchor(&anchors(&crate::memo::Cache::default(), "## A job named in `if:` must run\n"), "a-job-named-in-if-must-run"));
        let found = anchors(
            &crate::memo::Cache::default(),
            "# Setup\n## Setup\nTitle\n=====\n<a name=\"custom\"></a>\n```\n# not a heading\n```\n",
        );
        assert!(has_anchor(&found, "setup") && has_anchor(&found, "setup-1") && has_anchor(&found, "title"));
        assert!(has_anchor(&found, "custom") && has_anchor(&found, "Setup"));
        assert!(!has_anchor(&found, "not-a-heading"));
        // Heading attributes: the id is all up to white space or the brace.
        let found = anchors(&crate::memo::Cache::default(), "## 7. Humor {#ref-ext:humor}\n## Tone {#tone .wide}\n");
        assert!(has_anchor(&found, "ref-ext:humor") && has_anchor(&found, "tone"), "{found:?}");
    }
}
