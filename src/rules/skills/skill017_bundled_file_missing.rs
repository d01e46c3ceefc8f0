//! SKILL017: a file SKILL.md mentions in `scripts/`, `references/` or `assets/` that the skill does not bundle.

use crate::rules::markdown::fenced_lines;
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
            relative to the project root instead is taken to mean the project's file and not reported. Not reported \
            either: mentions on a line giving examples (`example`, `e.g.`, `such as`), placeholder names \
            (`references/filename.md`, `scripts/your_script.py`), paths in code blocks other than a command running \
            the file or a `# see …` comment, lines about the user's files (`ask the user`, `user's`), paths that exist \
            in another skill of the project, and skills about writing skills (naming `SKILL.md` three times or more).",
    stage: Stage::Lint(check),
};

/// Interpreters a command line in a code block may start with before the script's path.
const RUNNERS: [&str; 9] = ["python ", "python3 ", "uv run ", "bash ", "sh ", "node ", "npx ", "bun ", "ruby "];

/// Whether a mention on `line` (`fenced`: in a code block) names the skill's own file: not an
/// example or a placeholder, and in code only as a command or a "see" comment.
fn is_own_file(path: &str, line: &str, fenced: bool) -> bool {
    let placeholder = refs::is_placeholder_path(path);
    let lower = line.to_ascii_lowercase();
    let example = ["example", "e.g.", "such as", "for instance", "ask the user", "user's"].iter().any(|w| lower.contains(w));
    let command = |t: &str| {
        let mut t = t.trim_start().trim_start_matches(['$', '>']).trim_start();
        for _ in 0..2 {
            t = RUNNERS.iter().find_map(|r| t.strip_prefix(r)).unwrap_or(t).trim_start();
        }
        t.trim_start_matches("./").starts_with(path)
    };
    let see = lower.trim_start().starts_with(['#', '/']) && lower.contains("see ");
    !placeholder && !example && (!fenced || command(line) || see)
}

/// A skill teaching how to write skills (naming SKILL.md three times or more): its paths are examples.
fn about_skills(text: &str) -> bool {
    text.matches("SKILL.md").count() >= 3
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for skill in cx.skills.iter().filter(|s| !about_skills(&s.text)) {
        let body = skill.body();
        let offset = skill.body_start();
        let mentions = refs::bundle_mentions(body);
        if mentions.is_empty() {
            continue;
        }
        let mut line_start = 0;
        let lines: Vec<(usize, &str, bool)> = fenced_lines(body)
            .into_iter()
            .map(|(line, fence)| {
                let start = line_start;
                line_start += line.len();
                (start, line, fence.is_some())
            })
            .collect();
        let mentions: Vec<_> = mentions
            .into_iter()
            .filter(|(range, path)| {
                let (_, line, fenced) = lines.iter().rev().find(|(s, _, _)| *s <= range.start).copied().unwrap_or((0, body, false));
                is_own_file(path, line, fenced)
            })
            .collect();
        if mentions.is_empty() {
            continue;
        }
        let bundle = Bundle::of(cx, &skill.rel);
        let mut reported = std::collections::BTreeSet::new();
        for (range, path) in mentions {
            let exists = |rel: String| matches!(refs::resolve(cx, "", &rel), Resolved::Exists(_));
            // The project's own file, or a file of another skill of the collection (`other-skill`'s `references/x.md`).
            let in_other_skill = || cx.skills.iter().filter_map(|s| s.rel.rsplit_once('/')).any(|(d, _)| exists(format!("{d}/{path}")));
            if bundle.has(&path) || exists(path.clone()) || !reported.insert(path.clone()) || in_other_skill() {
                continue;
            }
            let name = path.rsplit('/').next().unwrap_or(&path);
            let elsewhere: Vec<&str> =
                bundle.files.iter().filter(|f| f.rel.rsplit('/').next().is_some_and(|n| n.eq_ignore_ascii_case(name))).map(|f| f.rel.as_str()).collect();
            let help = match elsewhere.as_slice() {
                [one] => format!("the skill bundles `{one}`: fix the path (names are case-sensitive on Linux)"),
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
