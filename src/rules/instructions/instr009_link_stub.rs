//! INSTR009: a memory file whose whole text is a file name (a symbolic link checked out as text).

use crate::diagnostic::{Edit, Fix};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A memory file contains nothing but a file name such as `AGENTS.md` — a symbolic link that became a text file.",
    why: "Repositories often make CLAUDE.md or GEMINI.md a symbolic link to AGENTS.md. Where links are not checked out \
          as links (Windows without `core.symlinks`, some archives and upload tools), git writes a text file holding \
          the target's name instead (https://git-scm.com/docs/git-config#Documentation/git-config.txt-coresymlinks), \
          and the agent reads the word `AGENTS.md` as its whole instructions. A CLAUDE.md holding `@AGENTS.md` is \
          Claude Code's import (https://docs.anthropic.com/ja/docs/claude-code/memory) and is fine.",
    fails: Example { file: "CLAUDE.md", text: "AGENTS.md" },
    passes: Example { file: "CLAUDE.md", text: "@AGENTS.md\n" },
    notes: "The fix (unsafe: the file's content changes) writes `@NAME`, Claude Code's and Gemini CLI's import, in \
            CLAUDE.md, CLAUDE.local.md and GEMINI.md. Codex has no imports: make AGENTS.md a real file or a link.",
    stage: Stage::Lint(check),
};

/// The relative path to a Markdown file that is all of a text (surrounding whitespace aside),
/// with where it starts.
fn stub_target(text: &str) -> Option<(usize, &str)> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let plain = !t.is_empty() && !t.contains(char::is_whitespace) && !t.starts_with('@') && !t.starts_with('/');
    (plain && (lower.ends_with(".md") || lower.ends_with(".mdc")) && t.chars().all(|c| c.is_alphanumeric() || "._-/".contains(c)))
        .then_some((text.len() - text.trim_start().len(), t))
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.memory {
        let Some((start, target)) = stub_target(&doc.text) else { continue };
        let span = start..start + target.len();
        let mut d = Diagnostic::finding(format!("{} holds only the text `{target}`: a symbolic link checked out as a file", doc.name()))
            .in_file(&doc.file)
            .at(Some(span.clone()))
            .label("not an import")
            .help(format!("restore the link, or write `@{target}` to import the file"));
        if matches!(doc.name(), "CLAUDE.md" | "CLAUDE.local.md" | "GEMINI.md") {
            d = d.fix(Fix::unsafe_(format!("import `@{target}`"), vec![Edit::replace(&doc.file, span, format!("@{target}"))]));
        }
        findings.push(d);
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::stub_target;

    #[test]
    fn finds_only_bare_paths() {
        assert_eq!(stub_target("AGENTS.md"), Some((0, "AGENTS.md")));
        assert_eq!(stub_target("\n ../AGENTS.md\n"), Some((2, "../AGENTS.md")));
        assert_eq!(stub_target("@AGENTS.md"), None);
        assert_eq!(stub_target("See AGENTS.md"), None);
        assert_eq!(stub_target("# Title"), None);
    }
}
