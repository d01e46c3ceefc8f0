//! The lint stage: run the rule catalogue ([`crate::rules`]) over a loaded agent and every mode
//! and scenario rendered and measured, or (zero-config) over the SKILL.md and memory files of a
//! directory. [`check()`] is the whole of `ctxc check` as a library call: load, render, measure,
//! budgets, lint, then `[lint]` / command-line selection and suppression comments.

pub mod baseline;
pub mod check;
pub mod config;
pub mod fix;
pub mod group;

use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::memo::Kind;
pub use crate::rules::context::{AgentRun, Context, Run, Settings};
use crate::session::RuleTimes;
use std::sync::Arc;

pub use check::{check, check_beside_agents, check_text, CheckReport, Outcome};
pub use config::{Options, RawLint, SkillLevel};

/// Runs the lint rules whose code is `selected` (a rule no one asked for is not run: `--select
/// BUDGET` costs only the budget rules). Findings carry their rule's code and default severity,
/// sorted by file, position and code. A rule that panics costs only itself on the files it
/// fails on: those get an internal-error finding (MAN015), and its findings on the others are kept.
/// Each rule's time is added to `times` (the caller's, for `CTXC_TIMINGS=rules`).
pub fn lint(cx: &Context, selected: impl Fn(Code) -> bool, times: &RuleTimes) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    let mut took = Vec::new();
    let cache = cx.root.cache();
    // Only a long-lived session checks the same files again (a one-shot run's agents each have
    // files of their own paths): it alone keeps the findings of the rules that read them alone.
    let files = if cache.tracks_uses() { files_key(cx) } else { None };
    // The rules that also read the disk below the root keep their findings only while every
    // change there is reported (an editor's file watcher): the reported generation, with the
    // root, in their key.
    let disk = files.and_then(|_| cx.root.reported_generation());
    // Likewise the rules that read the agent but none of its prompt texts: an edit of a module
    // keeps their findings.
    let agent = if cache.tracks_uses() { agent_key(cx) } else { None };
    for rule in crate::rules::ALL.iter().filter(|rule| selected(rule.code)) {
        let Some(check) = rule.stage.check() else { continue };
        let start = std::time::Instant::now();
        let mut ran = true;
        let kept = match (files, disk, agent) {
            (Some(files), _, _) if FILE_TEXT_RULES.contains(&rule.code) => Some((files, None)),
            (Some(files), Some(generation), _) if FILE_DISK_RULES.contains(&rule.code) => Some((files, Some(generation))),
            (_, _, Some(agent)) if PROMPT_BLIND_RULES.contains(&rule.code) => Some((agent, None)),
            _ => None,
        };
        let found = match kept {
            Some((files, generation)) => {
                let mut key = xxhash_rust::xxh3::Xxh3::new();
                key.update(&files.to_le_bytes());
                key.update(rule.code.as_str().as_bytes());
                if let Some(generation) = generation {
                    key.update(&generation.to_le_bytes());
                    key.update(cx.root.canonical().as_os_str().as_encoded_bytes());
                    // The root is the manifest's folder this many levels up.
                    key.update(&(cx.root.depth() as u64).to_le_bytes());
                }
                let key = key.digest128();
                match cache.get::<Arc<Vec<Diagnostic>>>(Kind::FileFindings, key) {
                    Some(kept) => {
                        ran = false;
                        Vec::clone(&kept)
                    }
                    None => Vec::clone(&cache.get_or_insert(Kind::FileFindings, key, || Arc::new(run_rule(cx, rule.code, check)))),
                }
            }
            None => run_rule(cx, rule.code, check),
        };
        if ran {
            took.push((rule.code, start.elapsed()));
        }
        for mut d in found {
            if d.code != Some(Code::MAN015) {
                d.code = Some(rule.code);
                d.severity = rule.severity;
            }
            findings.push(d);
        }
    }
    times.add(&took);
    sort(&mut findings);
    findings
}

/// The rules whose findings follow from the texts and paths of the context's agent files alone
/// (its skills, memory files and other files), with the tokenizer and the `[lint]` settings:
/// they read no agent, no render and nothing on the disk. A check whose files are those of an
/// earlier check of the session (an edit of a module, in the editor) takes their findings from it.
const FILE_TEXT_RULES: &[Code] = &[
    Code::SKILL001,
    Code::SKILL002,
    Code::SKILL003,
    Code::SKILL004,
    Code::SKILL005,
    Code::SKILL006,
    Code::SKILL007,
    Code::SKILL008,
    Code::SKILL009,
    Code::SKILL010,
    Code::SKILL012,
    Code::SKILL013,
    Code::SKILL014,
    Code::SKILL015,
    Code::SKILL022,
    Code::SKILL024,
    Code::SKILL025,
    Code::SKILL030,
    Code::SKILL031,
    Code::INSTR001,
    Code::INSTR002,
    Code::INSTR003,
    Code::INSTR004,
    Code::INSTR005,
    Code::INSTR009,
    Code::INSTR010,
    Code::INSTR011,
    Code::LINK003,
    Code::LINK007,
    Code::LINK008,
];

/// The rules whose findings follow from what the [`FILE_TEXT_RULES`] read and from the disk below
/// the project root alone: which files exist there, the listings and texts of skill folders
/// (`refs::Bundle`, kept by the SKILL.md's text). An edit of a module keeps their findings while
/// every change of the disk is reported, and no file of a skill folder is edited in the editor
/// (`editor::Workspace::set_text` reports such an edit as a change of the disk).
const FILE_DISK_RULES: &[Code] = &[Code::SKILL017, Code::SKILL018, Code::SKILL019, Code::SKILL020, Code::SKILL021, Code::SKILL023];

/// The rules whose findings follow from the agent's manifest, tool files and the tools each
/// render enables, with the tokenizer and the `[lint]` settings: they read no module, mode prompt
/// or other prompt text, and nothing on the disk that is not among the agent's sources
/// ([`agent_key`]). An edit of a module (in the editor) keeps their findings.
const PROMPT_BLIND_RULES: &[Code] =
    &[Code::TOOL002, Code::TOOL003, Code::TOOL004, Code::TOOL005, Code::TOOL006, Code::TOOL007, Code::TOOL008, Code::TOOL009];

/// What the [`PROMPT_BLIND_RULES`] read of a context: every source the agent read (path and
/// text) but the texts of its modules and mode prompts, the tokenizer, the settings and the
/// root. `None` without an agent. A prompt file that is also a tool's source keeps its text in
/// the key. Everything the agent is made of comes from its sources (and the session's
/// overrides, the same for every check of the session), so equal keys give equal tools and
/// equal enabled tools per render.
fn agent_key(cx: &Context) -> Option<u128> {
    let agent = &cx.agent?.loaded.agent;
    let tools: std::collections::BTreeSet<&str> = agent.categories.iter().flat_map(|c| c.tools.iter().map(|t| t.source.as_str())).collect();
    let modules = agent.modules.values().flat_map(|files| match files {
        crate::manifest::model::ModuleFiles::Single(file) => vec![file],
        crate::manifest::model::ModuleFiles::Variants(variants) => variants.values().collect(),
    });
    let prompts: std::collections::BTreeSet<String> = modules
        .chain(agent.modes.values().filter_map(|mode| mode.prompt.as_ref()))
        .filter(|file| !tools.contains(file.path.as_str()))
        .map(|file| cx.root.display_path(&file.path))
        .collect();
    let mut key = xxhash_rust::xxh3::Xxh3::new();
    key.update(cx.tokenizer.name().as_bytes());
    key.update(&[0, u8::from(cx.tokenizer.is_exact())]);
    key.update(format!("{:?}", cx.settings).as_bytes());
    key.update(cx.root.canonical().as_os_str().as_encoded_bytes());
    key.update(&(cx.root.depth() as u64).to_le_bytes());
    for (path, text) in cx.sources.iter_shared() {
        key.update(&(path.len() as u64).to_le_bytes());
        key.update(path.as_bytes());
        let text = if prompts.contains(path) { 0 } else { text.hash() };
        key.update(&text.to_le_bytes());
    }
    Some(key.digest128())
}

/// What the [`FILE_TEXT_RULES`] read of a context: every agent file's kind, paths and text (in
/// order), the tokenizer and the settings. `None` when there is no file, or when a file belongs
/// to a Claude Code plugin (what a rule reads of the plugin is not in the key).
fn files_key(cx: &Context) -> Option<u128> {
    if cx.skills.is_empty() && cx.memory.is_empty() && cx.files.is_empty() {
        return None;
    }
    if cx.skills.iter().any(|s| s.plugin.is_some()) || cx.files.iter().any(|f| f.plugin.is_some()) {
        return None;
    }
    let mut key = xxhash_rust::xxh3::Xxh3::new();
    key.update(cx.tokenizer.name().as_bytes());
    key.update(&[0, u8::from(cx.tokenizer.is_exact())]);
    key.update(format!("{:?}", cx.settings).as_bytes());
    let mut add = |kind: Option<crate::agent_files::FileKind>, parts: [&str; 3], text: u128| {
        key.update(&[kind.map_or(u8::MAX, |kind| kind as u8)]);
        for part in parts {
            key.update(&(part.len() as u64).to_le_bytes());
            key.update(part.as_bytes());
        }
        key.update(&text.to_le_bytes());
    };
    for skill in cx.skills {
        add(Some(skill.kind), [&skill.file, &skill.rel, &skill.folder], skill.text.hash());
    }
    // Each list apart: a file of one is never taken for a file of another.
    add(None, ["", "", ""], 0);
    for memory in cx.memory {
        add(None, [&memory.file, &memory.rel, ""], memory.text.hash());
    }
    add(None, ["", "", ""], 0);
    for file in cx.files {
        add(Some(file.kind), [&file.file, &file.rel, ""], file.text.hash());
    }
    Some(key.digest128())
}

/// One rule's findings; when it panics, its findings file by file (see [`isolate`]).
fn run_rule(cx: &Context, code: Code, check: fn(&Context) -> Vec<Diagnostic>) -> Vec<Diagnostic> {
    guarded(|| check(cx)).unwrap_or_else(|message| isolate(cx, code, check, &message))
}

/// Runs `work`, turning a panic into its message.
pub fn guarded<T>(work: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).map_err(|payload| crate::agent_files::panic_message(&*payload))
}

/// After `check` panicked on the whole context: runs it on each file alone, keeping its findings
/// on the files it passes and reporting an internal error on each file it fails on (on the
/// manifest, or the first file, when it fails only on the files together).
fn isolate(cx: &Context, code: Code, check: fn(&Context) -> Vec<Diagnostic>, message: &str) -> Vec<Diagnostic> {
    let during = format!("rule {code}");
    let mut found = Vec::new();
    let mut failed = false;
    let mut alone = |one: Context, file: &str| match guarded(|| check(&one)) {
        Ok(findings) => found.extend(findings),
        Err(message) => {
            failed = true;
            found.push(crate::agent_files::internal_error(file, &during, &message));
        }
    };
    let empty = Context { skills: &[], memory: &[], files: &[], ..*cx };
    for (i, skill) in cx.skills.iter().enumerate() {
        alone(Context { skills: &cx.skills[i..=i], ..empty }, &skill.file);
    }
    for (i, memory) in cx.memory.iter().enumerate() {
        alone(Context { memory: &cx.memory[i..=i], ..empty }, &memory.file);
    }
    for (i, file) in cx.files.iter().enumerate() {
        alone(Context { files: &cx.files[i..=i], ..empty }, &file.file);
    }
    if !failed {
        let manifest = cx.agent.as_ref().map(|a| a.loaded.agent.manifest_display.clone());
        let first = cx.skills.first().map(|s| s.file.clone()).or_else(|| cx.memory.first().map(|m| m.file.clone()));
        let file = manifest.or(first).or_else(|| cx.files.first().map(|f| f.file.clone())).unwrap_or_default();
        found.push(crate::agent_files::internal_error(&file, &during, message));
    }
    found
}

/// Orders findings by file, position, code and message, so output is stable.
pub fn sort(findings: &mut [Diagnostic]) {
    findings.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
}

/// A finding's place in the report, borrowed: comparing two allocates nothing.
fn sort_key(d: &Diagnostic) -> (Option<&str>, usize, Option<Code>, &str) {
    (d.file.as_deref(), d.span.as_ref().map_or(0, |s| s.start), d.code, d.message.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent_files::discover;
    use crate::project::ProjectRoot;
    use crate::tokens::TokenCounter;

    /// A rule with a bug: it fails on any memory file that says "boom".
    fn fails_on_boom(cx: &Context) -> Vec<Diagnostic> {
        let seen = |m: &crate::agent_files::MemoryDoc| {
            assert!(!m.text.contains("boom"), "index out of range");
            Diagnostic::warning("seen").in_file(&m.file)
        };
        cx.memory.iter().map(seen).collect()
    }

    /// The rules whose findings the editor keeps by the agent files' texts read nothing else: no
    /// agent, render, tool, source or file on the disk. A rule that starts reading one must leave
    /// [`FILE_TEXT_RULES`], or an edit elsewhere would show its old findings.
    #[test]
    fn rules_kept_by_file_texts_read_only_those_texts() {
        const READS_MORE: [&str; 12] = [
            "cx.agent",
            "cx.runs",
            "cx.tools",
            "cx.has_step",
            "cx.sources",
            "cx.root.read",
            "cx.root.resolve",
            "cx.root.list",
            "Bundle::of",
            "refs::resolve",
            "case_variant(cx",
            "std::fs",
        ];
        for code in FILE_TEXT_RULES {
            let rule = crate::rules::get(code.as_str()).expect("registered");
            let file = format!("src/rules/{}/{}_{}.rs", rule.family.name(), code.as_str().to_lowercase(), rule.name.replace('-', "_"));
            let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&file)).expect("the rule's file");
            for read in READS_MORE {
                assert!(!text.contains(read), "{code} ({file}) reads `{read}`: take it out of FILE_TEXT_RULES");
            }
        }
    }

    /// The rules whose findings an edit of a module keeps read no prompt text and nothing on
    /// the disk: a rule that starts reading one must leave [`PROMPT_BLIND_RULES`], or an edit of
    /// a module would show its old findings.
    #[test]
    fn rules_kept_across_an_edit_of_a_module_read_no_prompt() {
        const READS_PROMPTS: [&str; 17] = [
            ".modules",
            ".prompt",
            ".sections",
            ".measured",
            ".memory",
            "connectors",
            "project_context",
            "skill_bodies",
            "cx.skills",
            "cx.files",
            "cx.root.read",
            "cx.root.resolve",
            "cx.root.list",
            "Bundle::of",
            "refs::",
            "std::fs",
            "cx.sources",
        ];
        let rules = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
        for code in PROMPT_BLIND_RULES {
            let rule = crate::rules::get(code.as_str()).expect("registered");
            let family = rules.join(rule.family.name());
            let file = family.join(format!("{}_{}.rs", code.as_str().to_lowercase(), rule.name.replace('-', "_")));
            // The family's shared helpers too (the schema walk of TOOL007 and TOOL008).
            for file in [file, family.join("mod.rs")] {
                let text = std::fs::read_to_string(&file).expect("the rule's file");
                for read in READS_PROMPTS {
                    assert!(!text.contains(read), "{code} ({}) reads `{read}`: take it out of PROMPT_BLIND_RULES", file.display());
                }
            }
        }
    }

    #[test]
    fn a_panicking_rule_costs_only_the_files_it_fails_on() {
        let project = tempfile::tempdir().expect("tempdir");
        for (dir, text) in [("a", "fine"), ("b", "boom"), ("c", "fine")] {
            std::fs::create_dir(project.path().join(dir)).expect("mkdir");
            std::fs::write(project.path().join(dir).join("AGENTS.md"), text).expect("write");
        }
        let root = ProjectRoot::new(project.path()).expect("root");
        let found = discover(&root, None, Default::default());
        let counter = TokenCounter::new();
        let cx = Context {
            agent: None,
            skills: &found.skills,
            memory: &found.memory,
            files: &found.files,
            sources: &found.sources,
            root: &root,
            counter: &counter,
            tokenizer: crate::models::Tokenizer::O200kBase,
            settings: Default::default(),
        };
        let findings = run_rule(&cx, Code::MEM001, fails_on_boom);
        let found: Vec<(Option<Code>, &str, &str)> =
            findings.iter().map(|d| (d.code, d.file.as_deref().unwrap_or(""), d.message.as_str())).collect();
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].1.ends_with("a/AGENTS.md") && found[0].2 == "seen", "{found:?}");
        assert_eq!(found[1].0, Some(Code::MAN015));
        assert!(found[1].1.ends_with("b/AGENTS.md") && found[1].2.contains("rule MEM001") && found[1].2.contains("index out of range"));
        assert_eq!(findings[1].span, Some(0..0), "located at the start of the file");
        assert!(found[2].1.ends_with("c/AGENTS.md") && found[2].2 == "seen", "{found:?}");
    }
}
