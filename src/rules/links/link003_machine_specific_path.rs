//! LINK003: a link to a path that exists on one machine only.

use crate::rules::prelude::*;
use crate::rules::refs::{self, Target};

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Markdown link in an agent file points at an absolute path on one machine (a home folder, `~`, a drive letter or `file:`).",
    why: "`/Users/ana/project/docs/api.md`, `~/notes.md`, `C:\\work\\x.md` and `file:///…` links work only on the \
          author's computer: on a teammate's machine, in CI or in a cloud agent the agent reads nothing. Relative \
          paths travel with the repository \
          (https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/customizing-your-repository/about-readmes#relative-links-and-image-paths-in-markdown-files; \
          the Agent Skills specification asks for \"relative paths from the skill root\", \
          https://agentskills.io/specification#file-references).",
    fails: Example { file: "CLAUDE.md", text: "# Project\n\nAPI notes: [api](/Users/ana/src/shop/docs/api.md).\n" },
    passes: Example { file: "CLAUDE.md", text: "# Project\n\nAPI notes: [api](docs/api.md).\n" },
    notes: "Folders counted as one machine's: `/Users/`, `/home/`, `/root/`, `/mnt/`, `/private/`, `/tmp/`, \
            `/var/folders/`, `~`, drive letters and `file:` URLs. Other root-absolute paths (`/docs/x.md`) are \
            not reported: GitHub resolves them against the repository. `@~/…` imports in memory files are Claude \
            Code's documented per-user imports and are not links.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (file, link) in refs::all_links(cx) {
        if refs::target(&link.dest) != Target::MachinePath {
            continue;
        }
        findings.push(
            Diagnostic::finding(format!("link to `{}` only works on one machine", link.dest))
                .in_file(file.file)
                .at(Some(link.span))
                .label("absolute path on one machine")
                .help("link with a path relative to this file, or to a URL"),
        );
    }
    findings
}
