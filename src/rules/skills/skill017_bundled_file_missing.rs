//! SKILL017: a file SKILL.md mentions in `scripts/`, `references/` or `assets/` that the skill does not bundle.

use crate::rules::prelude::*;
use crate::rules::refs::{self, Bundle, Resolved};

pub const RULE: Rule = Rule {
    code: Code::SKILL017,
    name: "bundled-file-missing",
    family: Family::Skills,
    severity: Severity::Error,
    summary: "SKILL.md mentions a bundled file (`scripts/…`, `references/…`, `assets/…`) that is not in the skill's folder.",
    why: "Skills bundle their scripts, references and assets next to SKILL.md, and the agent opens them by the relative \
          paths SKILL.md gives (\"use relative paths from the skill root\", Agent Skills specification, \
          https://agentskills.io/specification#file-references; \
          /work/shared/corpus/spec/agentskills-specification.mdx). A script or reference that is not there makes \
          the skill fail at the step that needs it: `python scripts/extract.py` ends in \"No such file\".",
    fails: Example {
        file: "skills/pdf-tools/SKILL.md",
        text: "---\nname: pdf-tools\ndescription: Extract text from PDF files. Use when the user shares a PDF.\n---\nRun `python scripts/extract.py input.pdf`.\n",
    },
    passes: Example {
        file: "skills/pdf-tools/SKILL.md",
        text: "---\nname: pdf-tools\ndescription: Extract text from PDF files. Use when the user shares a PDF.\n---\nRun `python scripts/extract.py input.pdf` (bundled in scripts/).\n",
    },
    notes: "Mentions are paths starting with `scripts/`, `references/` or `assets/` (optionally `./`) and ending in a \
            file extension, in prose, code spans or code blocks; Markdown links are LINK001's. A path that exists \
            relative to the project root instead is taken to mean the project's file and not reported.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills {
        let mentions = refs::bundle_mentions(skill.body());
        if mentions.is_empty() {
            continue;
        }
        let bundle = Bundle::of(cx, &skill.rel);
        let offset = skill.body_start();
        let mut reported = std::collections::BTreeSet::new();
        for (range, path) in mentions {
            if bundle.has(&path) || matches!(refs::resolve(cx, "", &path), Resolved::Exists(_)) || !reported.insert(path.clone()) {
                continue;
            }
            let name = path.rsplit('/').next().unwrap_or(&path);
            let elsewhere: Vec<&str> = bundle.files.iter().filter(|f| f.rel.rsplit('/').next() == Some(name)).map(|f| f.rel.as_str()).collect();
            let help = match elsewhere.as_slice() {
                [one] => format!("the skill bundles `{one}`: fix the path"),
                _ => format!("add `{path}` to the skill's folder, or fix the path"),
            };
            findings.push(
                Diagnostic::error(format!("SKILL.md mentions `{path}`, which is not in the skill's folder"))
                    .in_file(&skill.file)
                    .at(Some(offset + range.start..offset + range.end))
                    .label("not bundled")
                    .help(help),
            );
        }
    }
    findings
}
