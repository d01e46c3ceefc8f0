//! SKILL017: a file SKILL.md mentions in `scripts/`, `references/` or `assets/` that the skill does not bundle.

use std::collections::HashSet;

use crate::rules::markdown::fenced_lines;
use crate::rules::prelude::*;
use crate::rules::refs::{self, Bundle, Resolved};
use crate::rules::skills::installed_with;

pub const RULE: Definition = Definition {
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
            relative to the project root instead is taken to mean the project's file and not reported, as is one that \
            exists relative to the folder holding the skill's skills folder (`templates/app/scripts/x.ts` for a skill \
            in `templates/app/.agents/skills/`: a project inside the repository), and so is one \
            that exists relative to the root of the Claude Code plugin holding the skill (`${CLAUDE_PLUGIN_ROOT}/scripts/x.py`, \
            see docs/hosts.md), and one that exists inside a folder of the project the skill names (`scripts/migrate.sh` \
            in a skill that names `packages/db/`, where `packages/db/scripts/migrate.sh` is: a monorepo package's file). \
            Not reported either: mentions on a line giving examples (`example`, `e.g.`, `such as`), placeholder names \
            (`references/filename.md`, `scripts/your_script.py`), paths in code blocks other than a command running \
            the file or a `# see …` comment, lines about the user's files (`ask the user`, `user's`), paths that exist \
            in another skill of the project, files the skill's own steps write (after a shell `>` redirection or \
            `into`, or `as`/`to` after a verb such as save, capture, write or export: `… > scripts/prompt.md`, \"paste the JSON \
            into `scripts/out.json`\", \"capture them as `references/params.json`\"), paths in code blocks after a \
            `cd` into another folder (commands that run in a repository the skill clones: `git clone …` then `cd \
            LLaVA`), and skills about writing skills (naming `SKILL.md` three times or more).",
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
    // Every skill's bundled files, relative to their skill's folder: a mention of another skill's
    // file of the collection (`other-skill`'s `references/x.md`) is looked up once, not per skill.
    let mut other_skills: Option<HashSet<String>> = None;
    for skill in cx.skills.iter().filter(|s| !about_skills(&s.text)) {
        let body = skill.body();
        let offset = skill.body_start();
        let mentions = refs::bundle_mentions(cx.root.cache(), body);
        if mentions.is_empty() {
            continue;
        }
        let mut starts = Vec::new();
        let mut fences = Vec::new();
        let mut line_start = 0;
        for (line, fence) in fenced_lines(cx.root.cache(), body) {
            starts.push(line_start);
            fences.push((line, fence.is_some()));
            line_start += line.len();
        }
        // Commands after a `cd` into another folder (a cloned repository) run that folder's files.
        let moved_at = starts.iter().zip(&fences).find(|(_, (line, fenced))| *fenced && leaves_skill(line)).map_or(usize::MAX, |(s, _)| *s);
        // Files the skill's own steps write (`… > scripts/prompt.md`, "paste it into `x.json`") exist once they run.
        let written: HashSet<&str> =
            mentions.iter().filter(|(range, _)| is_written(&body[..range.start])).map(|(_, p)| p.as_str()).collect();
        let mentions: Vec<_> = mentions
            .iter()
            .filter(|(range, path)| {
                let i = starts.partition_point(|s| *s <= range.start).saturating_sub(1);
                let (line, fenced) = fences.get(i).copied().unwrap_or((body, false));
                is_own_file(path, line, fenced) && !(fenced && range.start > moved_at) && !written.contains(path.as_str())
            })
            .collect();
        if mentions.is_empty() {
            continue;
        }
        let bundle = Bundle::of(cx, &skill.rel);
        let bundled: HashSet<&str> = bundle.files.iter().map(|f| f.rel.as_str()).collect();
        let mut reported = std::collections::BTreeSet::new();
        let mut named_folders = None;
        for (range, path) in mentions {
            let exists = |rel: &str| matches!(refs::resolve(cx, "", rel), Resolved::Exists(_));
            // A plugin's skill may run what the plugin ships at its root (`${CLAUDE_PLUGIN_ROOT}/scripts/x.py`).
            let in_plugin = skill.plugin.as_ref().is_some_and(|p| exists(&p.path(path)));
            // A project of its own inside the repository (`templates/app/.agents/skills/x`) runs
            // from its folder: `scripts/x.ts` is `templates/app/scripts/x.ts`.
            let project = installed_with(&skill.rel);
            let in_project = || !project.is_empty() && exists(&format!("{project}/{path}"));
            if bundled.contains(path.as_str()) || exists(path) || in_plugin || in_project() || !reported.insert(path.clone()) {
                continue;
            }
            let in_other_skill = other_skills.get_or_insert_with(|| {
                cx.skills.iter().flat_map(|s| Bundle::of(cx, &s.rel).files.iter().map(|f| f.rel.clone()).collect::<Vec<_>>()).collect()
            });
            if in_other_skill.contains(path) {
                continue;
            }
            // In a monorepo a skill names a package's file by its path in the package
            // (`scripts/migrate.sh` of `packages/db/`): that file, when the skill names its folder.
            if named_folders.get_or_insert_with(|| folders_named(&skill.text)).iter().any(|folder| exists(&format!("{folder}/{path}"))) {
                continue;
            }
            let name = path.rsplit('/').next().unwrap_or(path);
            let elsewhere: Vec<&str> = bundle
                .files
                .iter()
                .filter(|f| f.rel.rsplit('/').next().is_some_and(|n| n.eq_ignore_ascii_case(name)))
                .map(|f| f.rel.as_str())
                .collect();
            let help = match elsewhere.as_slice() {
                [one] => format!("the skill bundles `{one}`: fix the path (names are case-sensitive on Linux)"),
                _ => format!("add `{path}` to the skill's folder, or fix the path"),
            };
            findings.push(
                Diagnostic::finding(format!("SKILL.md mentions `{path}`, which is not in the skill's folder"))
                    .in_file(&skill.file)
                    .at(Some(offset + range.start..offset + range.end))
                    .label("not bundled")
                    .help(help),
            );
        }
    }
    findings
}

/// Most folders of the project [`folders_named`] takes from one skill: its work stays bounded
/// however many paths the text holds.
const MAX_NAMED_FOLDERS: usize = 64;

/// The project folders a skill's text names: each path it writes relative to the project root
/// (`packages/db/`, `packages/web/scripts/run.sh`) and every folder on the way, in order of
/// appearance, without repeats. URLs, absolute paths and paths up from the skill are no
/// project folders.
fn folders_named(text: &str) -> Vec<&str> {
    let mut folders = Vec::new();
    let words = text.split(|c: char| !(c.is_ascii_alphanumeric() || "._@/-".contains(c)));
    for word in words.filter(|w| w.contains('/') && !w.starts_with(['/', '.']) && !w.contains("//")) {
        let word = word.trim_end_matches(['/', '.']);
        let ends = word.match_indices('/').map(|(i, _)| i).chain([word.len()]);
        for folder in ends.map(|end| &word[..end]) {
            if folders.len() == MAX_NAMED_FOLDERS {
                return folders;
            }
            if !folder.is_empty() && !folders.contains(&folder) {
                folders.push(folder);
            }
        }
    }
    folders
}

/// Whether a code line changes to a folder other than the skill's (`cd LLaVA` after a `git
/// clone`); `cd` into the skill's own folder (`cd "$CLAUDE_SKILL_DIR"`) stays in the bundle.
fn leaves_skill(line: &str) -> bool {
    let command = line.trim_start().trim_start_matches(['$', '>']).trim_start();
    command.strip_prefix("cd ").is_some_and(|dir| !dir.to_ascii_lowercase().contains("skill"))
}

/// Whether the text before a mention makes it the file a step writes: a shell redirection
/// (`… > scripts/out.md`) or an instruction to put something `into` it. A quoted line (`> see
/// scripts/x.py`) and an arrow (`->`) are not redirections.
fn is_written(before: &str) -> bool {
    let line = before.rsplit('\n').next().unwrap_or(before).trim_end_matches(['`', ' ', '\t']);
    let command = line.trim_start_matches(['>', ' ']);
    let redirect = !command.is_empty() && (line.ends_with(" >") || line.ends_with(">>"));
    let mut words = line.rsplit(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty());
    let last = words.next().unwrap_or_default().to_ascii_lowercase();
    // "save the result as `x.json`", "capture them as …", "write it to …": a step that makes the file.
    let mut makes = || words.any(|w| WRITING_VERBS.iter().any(|v| w.eq_ignore_ascii_case(v)));
    redirect || last == "into" || (matches!(last.as_str(), "as" | "to") && makes())
}

/// Verbs of a step that makes a file, before `as` or `to` and its path.
const WRITING_VERBS: [&str; 12] =
    ["save", "saves", "saved", "capture", "write", "writes", "written", "store", "export", "create", "generate", "record"];

#[cfg(test)]
mod tests {
    use super::{folders_named, is_written, leaves_skill, MAX_NAMED_FOLDERS};

    #[test]
    fn written_files_and_other_folders() {
        assert!(is_written("node scripts/gen.mjs > ") && is_written("- **SAVE**: Paste the JSON result into `"));
        assert!(!is_written("> ") && !is_written("Step -> `") && !is_written("**Reference:** See `"));
        assert!(is_written("- None yet; if lookups repeat, capture them as `") && is_written("Save the summary to "));
        assert!(!is_written("Refer to `") && !is_written("Use the template as `") && !is_written("Pass it to "));
        assert!(leaves_skill("cd LLaVA\n") && leaves_skill("$ cd ../repo\n"));
        assert!(!leaves_skill("cd \"$CLAUDE_SKILL_DIR\"\n") && !leaves_skill("python scripts/cd.py\n"));
    }

    #[test]
    fn folders_a_skill_names() {
        let text = "Migrations live in `packages/db/`; run packages/web/scripts/run.sh (see https://x.io/a/b, /etc/x, ../up/y, ./here/z).";
        assert_eq!(folders_named(text), ["packages", "packages/db", "packages/web", "packages/web/scripts", "packages/web/scripts/run.sh"]);
        // Doubling the paths a text holds never takes more than the cap.
        let many: String = (0..2 * MAX_NAMED_FOLDERS).map(|i| format!("dir{i}/file ")).collect();
        assert_eq!(folders_named(&many).len(), MAX_NAMED_FOLDERS);
    }
}
