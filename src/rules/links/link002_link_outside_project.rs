//! LINK002: a relative link that climbs out of the project.

use crate::rules::prelude::*;
use crate::rules::refs::{self, Resolved, Target};

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A relative link in an agent file climbs with `..` above the project being checked.",
    why: "A link that leaves the project points at whatever happens to sit next to the checkout on the author's \
          machine: on a clone, in CI or in an installed skill it leads nowhere, and the agent reads nothing. \
          GitHub does not render links above the repository root either \
          (https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/customizing-your-repository/about-readmes#relative-links-and-image-paths-in-markdown-files). \
          ctxc never reads outside the project, so it cannot tell whether the target exists.",
    fails: Example { file: "AGENTS.md", text: "# Agent guide\n\nShared rules: [team rules](../../team/RULES.md).\n" },
    passes: Example { file: "AGENTS.md", text: "# Agent guide\n\nShared rules: [team rules](docs/team-rules.md).\n" },
    notes: "The project is the folder given to `ctxc check` (or the manifest's project root): check the repository's \
            root to lint links between its folders.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (file, link) in refs::all_links(cx) {
        let Target::Relative { path, .. } = refs::target(&link.dest) else { continue };
        if refs::resolve(cx, file.dir(), &path) != Resolved::Outside {
            continue;
        }
        findings.push(
            Diagnostic::finding(format!("link to `{}` leaves the project", link.dest))
                .in_file(file.file)
                .at(Some(link.span))
                .label("outside the project")
                .help("copy or move the target into the project and link to it there, or link to its URL"),
        );
    }
    findings
}
