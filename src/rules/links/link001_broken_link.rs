//! LINK001: a relative link to a file that does not exist in the project.

use crate::rules::prelude::*;
use crate::rules::refs::{self, Resolved, Target};

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A relative Markdown link or image in an agent file points at a file that does not exist in the project.",
    why: "Agents follow the links in their instructions with a file-read tool: a link to a moved or renamed file \
          sends the model to read nothing, and the guidance it stood for is silently missing (GitHub renders it \
          as a 404). Links resolve relative to the file that holds them, as on GitHub \
          (https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/customizing-your-repository/about-readmes#relative-links-and-image-paths-in-markdown-files) \
          and as the Agent Skills specification asks for skill files (\"use relative paths from the skill root\", \
          https://agentskills.io/specification#file-references).",
    fails: Example { file: "AGENTS.md", text: "# Agent guide\n\nFollow [the style guide](docs/STYLE.md) for every change.\n" },
    passes: Example { file: "AGENTS.md", text: "# Agent guide\n\nFollow [the style guide](docs/style.md) for every change.\n" },
    notes: "Inline links, images and link reference definitions are checked in every Markdown agent file, outside code \
            blocks and spans. URLs, `mailto:` and other schemes, anchors (LINK004), root-absolute paths (`/docs/x`, \
            which GitHub and a model resolve differently), templates (`<name>.md`, `{file}`, `*.md`) and paths that \
            only differ in letter case (LINK006) are left to their own rules; placeholders (`path/to/file.md`, \
            `filename.ext`, `[text](url)`) are skipped, and so is a path that exists from the project root (the \
            folder agents work in), though GitHub would resolve it from the file. Existence is checked only inside the \
            project; a link that leaves it is LINK002.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (file, link) in refs::all_links(cx) {
        let Target::Relative { path, .. } = refs::target(&link.dest) else { continue };
        if path.is_empty() {
            continue;
        }
        let Resolved::Missing(rel) = refs::resolve(cx, file.dir(), &path) else { continue };
        // Agents run at the project root: a path written from there reaches the file too.
        let from_root = !file.dir().is_empty() && matches!(refs::resolve(cx, "", &path), Resolved::Exists(_));
        if from_root || refs::case_variant(cx, &rel).is_some() {
            continue;
        }
        findings.push(
            Diagnostic::finding(format!("link to `{}` points at `{rel}`, which does not exist", link.dest))
                .in_file(file.file)
                .at(Some(link.span))
                .label("no such file")
                .help("links are relative to the file that holds them; fix the path or remove the link"),
        );
    }
    findings
}
