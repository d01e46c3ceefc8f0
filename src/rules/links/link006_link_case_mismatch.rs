//! LINK006: a link whose file name differs from the file on disk only in letter case.

use crate::diagnostic::{Edit, Fix};
use crate::rules::prelude::*;
use crate::rules::refs::{self, Resolved, Target};

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A relative link names a file that exists only with different letter case (`docs/Style.md` for `docs/style.md`).",
    why: "macOS and Windows file systems ignore case, so the link works for its author; Linux, CI runners, containers \
          and cloud agents are case-sensitive and find no file. GitHub's links are case-sensitive too \
          (https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/customizing-your-repository/about-readmes#relative-links-and-image-paths-in-markdown-files).",
    fails: Example { file: "AGENTS.md", text: "# Agent guide\n\nRead [the style guide](docs/Style.md).\n" },
    passes: Example { file: "AGENTS.md", text: "# Agent guide\n\nRead [the style guide](docs/style.md).\n" },
    notes: "Only the last path component is compared, and only when exactly one entry of its folder matches. The fix \
            (safe) writes the name as it is on disk.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (file, link) in refs::all_links(cx) {
        let Target::Relative { path, .. } = refs::target(&link.dest) else { continue };
        let Resolved::Missing(rel) = refs::resolve(cx, file.dir(), &path) else { continue };
        let Some(actual) = refs::case_variant(cx, &rel) else { continue };
        let wrong = rel.rsplit('/').next().unwrap_or(&rel);
        let right = actual.rsplit('/').next().unwrap_or(&actual);
        let mut d = Diagnostic::finding(format!("link to `{}` names `{wrong}`, but the file is `{right}`", link.dest))
            .in_file(file.file)
            .at(Some(link.span.clone()))
            .label("wrong letter case")
            .help(format!("write `{right}`: case-sensitive systems (Linux, CI) find no `{wrong}`"));
        // The name as written ends the path part of the destination (before `#` or `?`).
        let path_end = link.dest.find(['#', '?']).unwrap_or(link.dest.len());
        if link.dest[..path_end].ends_with(wrong) {
            let end = link.span.start + path_end;
            d = d.fix(Fix::safe(format!("write `{right}`"), vec![Edit::replace(file.file, end - wrong.len()..end, right)]));
        }
        findings.push(d);
    }
    findings
}
