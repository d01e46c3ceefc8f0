//! SKILL018: a file in `scripts/`, `references/` or `assets/` that nothing in the skill mentions.

use crate::rules::prelude::*;
use crate::rules::refs::{self, Bundle};

pub const RULE: Rule = Rule {
    code: Code::SKILL018,
    name: "bundled-file-unreferenced",
    family: Family::Skills,
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
    notes: "A file counts as mentioned when SKILL.md, another text file of the skill, a memory file or another \
            SKILL.md contains its name or a glob matching its path (`references/api-*.md`; memory files and other skills: the \
            name only), or names a \
            folder holding it on its own (`assets/`, `` `assets/fonts` ``, `scripts/*.py`), or, for a Python or \
            JavaScript module, its name without extension or its package folder as a word (`from helpers import …`). Files outside the \
            three folders, hidden files, licences, READMEs, package files (`__init__.py`, `requirements.txt`, \
            `package.json`…) and tests (`test_*.py`, `*.test.ts`, `tests/`) are not checked.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let bundle = Bundle::of(cx, &skill.rel);
        for file in bundle.files.iter().filter(|f| checked(&f.rel)) {
            let name = file.rel.rsplit('/').next().unwrap_or(&file.rel);
            // Memory files and other skills may point into a skill too (a GEMINI.md importing its reference).
            let named = refs::mentions(&skill.text, &file.rel)
                || bundle.texts.iter().any(|(rel, text)| *rel != file.rel && refs::mentions(text, &file.rel))
                || cx.memory.iter().any(|m| m.text.contains(name))
                || cx.skills.iter().any(|s| s.rel != skill.rel && s.text.contains(name));
            if named {
                continue;
            }
            let body = skill.body_start();
            findings.push(
                Diagnostic::warning(format!("`{}` is bundled with the skill, but nothing in it mentions the file", file.rel))
                    .in_file(&skill.file)
                    .at(Some(body..body))
                    .label("SKILL.md never mentions it")
                    .help(format!("say in SKILL.md when to use `{}`, or delete the file", file.rel)),
            );
        }
    }
    findings
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
