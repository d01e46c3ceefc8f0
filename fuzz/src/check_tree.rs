//! The `check_tree` target: a small tree of agent files of every kind, built from the input, run
//! through the whole of `ctxc check` and through `--fix --unsafe-fixes` and `--diff` as the
//! library gives them.
//!
//! Input: chunks separated by NUL bytes; a chunk's first byte picks the file it becomes
//! ([`PATHS`], modulo their number), the rest is the file's text. A later chunk for the same
//! file replaces an earlier one.

use std::path::Path;
use std::sync::OnceLock;

use ctxc::codes::Code;
use ctxc::lint::{self, fix, Options};

/// A file of every kind ctxc reads without a manifest, and a skill's bundled files.
pub const PATHS: [&str; 34] = [
    "skills/fuzz/SKILL.md",
    "skills/fuzz/references/guide.md",
    "skills/fuzz/scripts/run.py",
    "AGENTS.md",
    "CLAUDE.md",
    "GEMINI.md",
    ".claude/agents/reviewer.md",
    ".claude/commands/ship.md",
    ".claude/settings.json",
    ".claude-plugin/plugin.json",
    ".claude-plugin/marketplace.json",
    ".mcp.json",
    ".cursor/rules/style.mdc",
    ".cursorrules",
    ".github/copilot-instructions.md",
    ".github/instructions/ts.instructions.md",
    ".github/prompts/review.prompt.md",
    ".github/agents/review.agent.md",
    ".gemini/settings.json",
    ".openhands/microagents/repo.md",
    "skills/other/SKILL.md",
    ".codex/config.toml",
    ".kiro/steering/tech.md",
    "gemini-extension.json",
    ".clinerules/01-style.md",
    ".cursor/hooks.json",
    ".opencode/agents/review.md",
    ".opencode/commands/test.md",
    ".windsurf/rules/style.md",
    "opencode.jsonc",
    ".windsurf/workflows/release.md",
    ".windsurf/hooks.json",
    ".codex/agents/reviewer.toml",
    ".kiro/hooks/quality.json",
];

/// The files of one input, by index into [`PATHS`].
pub fn files(data: &[u8]) -> Vec<(usize, &[u8])> {
    let mut files: Vec<(usize, &[u8])> = Vec::new();
    for chunk in data.split(|&b| b == 0).filter(|c| !c.is_empty()) {
        let index = chunk[0] as usize % PATHS.len();
        files.retain(|(i, _)| *i != index);
        files.push((index, &chunk[1..]));
    }
    files
}

pub fn run(data: &[u8]) {
    static PROJECT: OnceLock<std::path::PathBuf> = OnceLock::new();
    let project = PROJECT.get_or_init(|| crate::scratch("tree"));
    // The previous input's tree is removed (a marker `.git` makes the folder a repository's top).
    let _ = std::fs::remove_dir_all(project);
    std::fs::create_dir_all(project.join(".git")).expect("create the project");
    for (index, text) in files(data) {
        let path = project.join(PATHS[index]);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("create a folder");
        std::fs::write(&path, text).expect("write a file");
    }
    check(project);
}

/// Checks the tree, plans `--diff --unsafe-fixes`, then fixes it as `--fix --unsafe-fixes` does.
fn check(project: &Path) {
    let options = Options::default();
    // A session per input: its memos would otherwise grow with every input.
    let session = ctxc::Session::default();
    let report = lint::check(project, &options, &session);
    crate::check_report(&report.diagnostics, &report.sources);
    // A caught panic is still a bug: libFuzzer should see it.
    if let Some(d) = report.diagnostics.iter().find(|d| d.code == Some(Code::MAN015)) {
        panic!("internal error: {} in {:?}", d.message, d.file);
    }
    let read = |file: &str| std::fs::read_to_string(file).ok();
    let planned = fix::plan(&report.diagnostics, true, read);
    for (file, text) in &planned.texts {
        assert!(planned.before.contains_key(file), "a fix of `{file}` without its text before: {text:?}");
    }
    let fixing = fix::fix(
        || lint::check(project, &options, &session),
        true,
        |file, _| std::fs::read_to_string(file).ok(),
        |file, text| std::fs::write(file, text).map_err(|e| e.to_string()),
    );
    crate::check_report(&fixing.report.diagnostics, &fixing.report.sources);
    assert!(fixing.failed.is_empty(), "fixes that could not be written: {:?}", fixing.failed);
}
