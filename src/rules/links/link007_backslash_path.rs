//! LINK007: a relative link written with Windows path separators.

use crate::diagnostic::{Edit, Fix};
use crate::rules::prelude::*;
use crate::rules::refs::{self, Target};

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Markdown link's path uses backslashes (`docs\\guide.md`) instead of `/`.",
    why: "Link destinations are URLs, whose separator is `/` (CommonMark, https://spec.commonmark.org/0.31.2/#links); \
          a backslash is an escape or part of the name. The link resolves only on Windows: GitHub, Linux and macOS \
          agents look for a file literally named `docs\\guide.md`.",
    fails: Example { file: "AGENTS.md", text: "# Agent guide\n\nSee [the guide](docs\\guide.md).\n" },
    passes: Example { file: "AGENTS.md", text: "# Agent guide\n\nSee [the guide](docs/guide.md).\n" },
    notes: "The fix (safe) replaces each backslash with `/`.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (file, link) in refs::all_links(cx) {
        if refs::target(&link.dest) != Target::Backslashes {
            continue;
        }
        let fixed = link.dest.replace('\\', "/");
        findings.push(
            Diagnostic::finding(format!("link `{}` uses backslashes as path separators", link.dest))
                .in_file(file.file)
                .at(Some(link.span.clone()))
                .label("use `/`")
                .help(format!("write `{fixed}`"))
                .fix(Fix::safe(format!("write `{fixed}`"), vec![Edit::replace(file.file, link.span, fixed.clone())])),
        );
    }
    findings
}
