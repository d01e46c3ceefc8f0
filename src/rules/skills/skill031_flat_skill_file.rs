//! SKILL031: a skill written as a Markdown file directly in a skills folder, which no host loads.

use crate::agent_files::{FileKind, SKILL_FILE};
use crate::rules::claude;
use crate::rules::markdown::written_for_people;
use crate::rules::prelude::*;
use crate::yaml;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A Markdown file with a skill's `name` or `description` sits directly in a skills folder, where hosts read only \
              `<folder>/SKILL.md`.",
    why: "Hosts find skills in their skills folders as folders holding a SKILL.md, never as loose files. Claude Code \
          (2.1.197, its npm package's skill loader) lists `.claude/skills/` and keeps only the entries that are folders \
          or links, reading `<entry>/SKILL.md` in each; a regular file there is skipped without a message, and a \
          plugin's `skills/` folder is read the same way (https://code.claude.com/docs/en/skills: each skill is a \
          directory with SKILL.md as its entry point). Codex reads `.agents/skills/**/SKILL.md` and Gemini CLI \
          `.agents/skills/*/SKILL.md` (data/hosts/codex.toml, gemini-cli.toml). So `.claude/skills/build.md` written \
          as a skill is never offered to the model, and nothing says so.",
    fails: Example {
        file: ".claude/skills/release.md",
        text: "---\nname: release\ndescription: Prepare a release, bumping the version and drafting the notes.\n---\n\nRun the checks, then bump the version.\n",
    },
    passes: Example {
        file: ".claude/skills/release/SKILL.md",
        text: "---\nname: release\ndescription: Prepare a release, bumping the version and drafting the notes.\n---\n\nRun the checks, then bump the version.\n",
    },
    notes: "Reported only for a file written as a skill: its frontmatter has `name` or `description`, read as Claude \
            Code reads it (key lines count when the YAML is invalid). Notes without them that skills link to, and \
            README, CHANGELOG, LICENSE or CONTRIBUTING files, are left alone. The skills folders are those of the host \
            models' skill paths (`.claude/skills/`, `.agents/skills/`, `.codex/skills/`, `.gemini/skills/`, a plugin's \
            `skills/`), at the root or in a subfolder. No host view lists these files. No automatic fix: fixes edit \
            text, and this one moves a file.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::FlatSkill).filter(|doc| !written_for_people(&doc.rel)) {
        // Read as Claude Code reads frontmatter: key lines still count when the YAML is invalid
        // (an unquoted `: ` in a description).
        let Some(fields) = claude::fields(doc) else { continue };
        if claude::field(&fields, "name").is_none() && claude::field(&fields, "description").is_none() {
            continue;
        }
        let (folder, file) = doc.rel.rsplit_once('/').unwrap_or(("", &doc.rel));
        let stem = file.strip_suffix(".md").unwrap_or(file);
        let written = claude::field(&fields, "name").and_then(|f| f.value.as_str()).map(str::trim);
        let name = written.filter(|n| !n.is_empty() && !n.contains(['/', '\\'])).unwrap_or(stem);
        let target = [folder, name, SKILL_FILE].iter().filter(|p| !p.is_empty()).copied().collect::<Vec<_>>().join("/");
        let message =
            format!("`{file}` is written as a skill but no host loads it: skills in `{folder}/` are folders holding a `{SKILL_FILE}`");
        findings.push(
            Diagnostic::finding(message).in_file(&doc.file).at(Some(opening_fence(&doc.text))).help(format!("move it to `{target}`")),
        );
    }
    findings
}

/// The frontmatter's opening `---`: the file's first line, after a byte order mark (where the
/// frontmatter parser requires it).
fn opening_fence(text: &str) -> std::ops::Range<usize> {
    let start = yaml::bom_len(text);
    start..(start + 3).min(text.len())
}
