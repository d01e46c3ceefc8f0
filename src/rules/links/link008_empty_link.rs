//! LINK008: a Markdown link with nothing between its parentheses.

use crate::rules::prelude::*;
use crate::rules::refs::{self, Target};

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Markdown link or image has an empty destination (`[the guide]()`).",
    why: "An empty destination is a link to nothing: CommonMark renders it as a link to the page itself \
          (https://spec.commonmark.org/0.31.2/#links) and the agent has no file to read. It is almost always a \
          link whose target was never filled in.",
    fails: Example { file: "AGENTS.md", text: "# Agent guide\n\nFollow [the release checklist]().\n" },
    passes: Example { file: "AGENTS.md", text: "# Agent guide\n\nFollow [the release checklist](docs/release.md).\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (file, link) in refs::all_links(cx) {
        if refs::target(&link.dest) != Target::Empty {
            continue;
        }
        let at = link.span.start.saturating_sub(1)..link.span.end + 1;
        findings.push(
            Diagnostic::finding("link has an empty destination")
                .in_file(file.file)
                .at(Some(at))
                .label("no target")
                .help("fill in the path or URL, or drop the link syntax"),
        );
    }
    findings
}
