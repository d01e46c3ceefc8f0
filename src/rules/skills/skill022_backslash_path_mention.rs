//! SKILL022: SKILL.md names a bundled file with Windows path separators.

use std::sync::LazyLock;

use regex::Regex;

use crate::diagnostic::{Edit, Fix};
use crate::rules::markdown::fenced_lines;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "SKILL.md names a bundled file with backslashes (`scripts\\extract.py`) instead of `/`.",
    why: "File references in a skill are \"relative paths from the skill root\" (Agent Skills specification, \
          https://agentskills.io/specification#file-references; /work/shared/corpus/spec/agentskills-specification.mdx), \
          written with `/` as in its examples. On Linux and macOS — where most agents run — `python \
          scripts\\extract.py` looks for a file literally named `scripts\\extract.py` and fails.",
    fails: Example {
        file: "skills/pdf-tools/SKILL.md",
        text: "---\nname: pdf-tools\ndescription: Extract text from PDF files. Use when the user shares a PDF.\n---\nRun `python scripts\\extract.py input.pdf`.\n",
    },
    passes: Example {
        file: "skills/pdf-tools/SKILL.md",
        text: "---\nname: pdf-tools\ndescription: Extract text from PDF files. Use when the user shares a PDF.\n---\nRun `python scripts/extract.py input.pdf`.\n",
    },
    notes: "Paths starting with `scripts\\`, `references\\` or `assets\\` and ending in a file extension are reported \
            (Markdown links are LINK007's), except in code blocks of Windows shells (`powershell`, `pwsh`, `cmd`, \
            `bat`), where `\\` is the separator. The fix (safe) writes `/`.",
    stage: Stage::Lint(check),
};

static MENTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:^|[^A-Za-z0-9_\\/(])((?:scripts|references|assets)(?:\\[A-Za-z0-9_.-]+)+\.[A-Za-z0-9]{1,8})(?-u:\b)")
        .expect("constant pattern") // ok: literal
});

/// Code blocks of Windows shells, where a backslash is the separator.
const WINDOWS_SHELLS: [&str; 7] = ["powershell", "pwsh", "ps1", "ps", "cmd", "bat", "batch"];

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    // A mention holds a backslash: most skills have none, and the scan below is not cheap.
    for skill in cx.skills.iter().filter(|s| s.text.contains('\\')) {
        let mut windows = Vec::new();
        let mut offset = 0;
        for (line, fence) in fenced_lines(cx.root.cache(), &skill.text) {
            if fence.is_some_and(|info| WINDOWS_SHELLS.contains(&info.to_ascii_lowercase().as_str())) {
                windows.push(offset..offset + line.len());
            }
            offset += line.len();
        }
        for caps in MENTION.captures_iter(&skill.text) {
            let Some(m) = caps.get(1) else { continue };
            if windows.iter().any(|w| w.contains(&m.start())) {
                continue;
            }
            let fixed = m.as_str().replace('\\', "/");
            findings.push(
                Diagnostic::finding(format!("`{}` uses backslashes as path separators", m.as_str()))
                    .in_file(&skill.file)
                    .at(Some(m.range()))
                    .label("use `/`")
                    .help(format!("write `{fixed}`"))
                    .fix(Fix::safe(format!("write `{fixed}`"), vec![Edit::replace(&skill.file, m.range(), fixed.clone())])),
            );
        }
    }
    findings
}
