//! SKILL018: a file in `scripts/`, `references/` or `assets/` that nothing in the skill mentions.

use std::collections::HashMap;
use std::sync::Arc;

use crate::agent_files::FileKind;
use crate::rules::prelude::*;
use crate::rules::refs::{self, Bundle, Mentioners};

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A file in the skill's `scripts/`, `references/` or `assets/` folder is mentioned neither by SKILL.md nor by any other file of the skill.",
    why: "The agent learns about bundled files only from SKILL.md (and the files it points to): resources are loaded \
          \"only when required\" (progressive disclosure, Agent Skills specification, \
          https://agentskills.io/specification#progressive-disclosure). A script or reference nothing mentions is \
          never used, yet it ships with every copy of the skill; it is usually a leftover or a file whose mention \
          was lost in an edit.",
    fails: Example {
        file: "skills/pdf-tools/SKILL.md",
        text: "---\nname: pdf-tools\ndescription: Extract text from PDF files. Use when the user shares a PDF.\n---\nRun `python scripts/extract.py input.pdf`.\n\n# and the folder also holds scripts/old_extract.py\n",
    },
    passes: Example {
        file: "skills/pdf-tools/SKILL.md",
        text: "---\nname: pdf-tools\ndescription: Extract text from PDF files. Use when the user shares a PDF.\n---\nRun `python scripts/extract.py input.pdf`.\n",
    },
    notes: "A file counts as mentioned when SKILL.md, another text file of the skill, a memory file, a Claude Code \
            subagent or command (a plugin's agents read its skills' files) or another \
            SKILL.md contains its name or a glob matching its path (`references/api-*.md`; memory files, subagents, \
            commands and other skills: the name only), or names a \
            folder holding it on its own (`assets/`, `` `assets/fonts` ``, `scripts/*.py`), or, for a Markdown document, \
            its name without extension as a whole code span (`` `route-templates` `` for `rules/route-templates.md`, \
            as catalogue skills list their rule files by id), or, for a Python or \
            JavaScript module, its name without extension or its package folder as a word (`from helpers import …`). Files outside the \
            three folders, hidden files, licences, READMEs, package files (`__init__.py`, `requirements.txt`, \
            `package.json`…) and tests (`test_*.py`, `*.test.ts`, `tests/`) are not checked.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    let bundles: Vec<Arc<Bundle>> = cx.skills.iter().map(|skill| Bundle::of(cx, &skill.rel)).collect();
    // Memory files and other skills may point into a skill too (a GEMINI.md importing its
    // reference): every checked file's name looked up in them in one pass over each.
    let names: Vec<&str> = bundles
        .iter()
        .flat_map(|b| b.files.iter().filter(|f| checked(&f.rel)))
        .map(|f| f.rel.rsplit('/').next().unwrap_or(&f.rel))
        .collect();
    // No skill bundles a file it could fail to mention: no text needs reading for names.
    if names.is_empty() {
        return findings;
    }
    let outside = NamedOutside::new(cx, &names);
    for (index, (skill, bundle)) in cx.skills.iter().zip(&bundles).enumerate() {
        let files: Vec<&str> = bundle.files.iter().map(|f| f.rel.as_str()).filter(|rel| checked(rel)).collect();
        if files.is_empty() {
            continue;
        }
        // Text 0 is SKILL.md, then the bundle's texts in order.
        let texts: Vec<&str> = std::iter::once(&*skill.text).chain(bundle.texts.iter().map(|(_, text)| &**text)).collect();
        let own: HashMap<&str, usize> = bundle.texts.iter().enumerate().map(|(i, (rel, _))| (rel.as_str(), i + 1)).collect();
        let mentioners = Mentioners::new(cx.root.cache(), &texts, &files);
        for rel in files {
            let me = own.get(rel).copied();
            let name = rel.rsplit('/').next().unwrap_or(rel);
            if mentioners.first(rel, |t| Some(t) != me).is_some() || outside.names(name, index) {
                continue;
            }
            let body = skill.body_start();
            findings.push(
                Diagnostic::finding(format!("`{rel}` is bundled with the skill, but nothing in it mentions the file"))
                    .in_file(&skill.file)
                    .at(Some(body..body))
                    .label("SKILL.md never mentions it")
                    .help(format!("say in SKILL.md when to use `{rel}`, or delete the file")),
            );
        }
    }
    findings
}

/// Which bundled file names the memory files and the SKILL.md files hold, found in one pass over
/// each text.
struct NamedOutside<'a> {
    /// Per name: whether a memory file holds it, and up to two skills (by index) whose SKILL.md does.
    found: HashMap<&'a str, (bool, [Option<usize>; 2])>,
}

impl<'a> NamedOutside<'a> {
    fn new(cx: &Context, names: &[&'a str]) -> NamedOutside<'a> {
        let mut found: HashMap<&str, (bool, [Option<usize>; 2])> = HashMap::new();
        let Ok(automaton) = aho_corasick::AhoCorasick::new(names) else { return NamedOutside { found } };
        let memory = cx.memory.iter().map(|m| (None, &*m.text));
        // A subagent or command may read a skill's file (a plugin's agents read its skills' references).
        let agents =
            cx.files.iter().filter(|d| matches!(d.kind, FileKind::ClaudeAgent | FileKind::ClaudeCommand)).map(|d| (None, &*d.text));
        let skills = cx.skills.iter().enumerate().map(|(i, s)| (Some(i), &*s.text));
        for (skill, text) in memory.chain(agents).chain(skills) {
            for m in automaton.find_overlapping_iter(text) {
                let entry = found.entry(names[m.pattern().as_usize()]).or_default();
                match skill {
                    None => entry.0 = true,
                    Some(i) => match entry.1 {
                        [None, _] => entry.1[0] = Some(i),
                        [Some(first), None] if first != i => entry.1[1] = Some(i),
                        _ => {}
                    },
                }
            }
        }
        NamedOutside { found }
    }

    /// Whether a memory file, a subagent or command, or the SKILL.md of a skill other than `skill`, holds `name`.
    fn names(&self, name: &str, skill: usize) -> bool {
        self.found.get(name).is_some_and(|(memory, skills)| *memory || skills.iter().flatten().any(|s| *s != skill))
    }
}

/// Files in the specification's folders, but not hidden files, licences, READMEs or package markers.
fn checked(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let upper = name.to_ascii_uppercase();
    refs::BUNDLE_FOLDERS.iter().any(|f| rel.starts_with(f))
        && !rel.split('/').any(|part| part.starts_with('.'))
        && !upper.starts_with("LICENSE")
        && !upper.starts_with("README")
        && !matches!(name, "__init__.py" | "requirements.txt" | "package.json" | "package-lock.json" | "pyproject.toml")
        && !is_test(rel, name)
}

/// Tests of a skill's scripts: run by its developers, not by the agent.
fn is_test(rel: &str, name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name);
    rel.split('/').any(|part| matches!(part, "tests" | "test" | "__tests__"))
        || stem.starts_with("test_")
        || stem.ends_with("_test")
        || name.contains(".test.")
        || name.contains(".spec.")
}
