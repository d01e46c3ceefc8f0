//! `ctxc init` and `ctxc add`: the files of a small working agent, for each preset (here), and
//! the manifest edits that add one mode, module, tool or skill to an agent ([`add`]).
//!
//! The starters' texts live under `starters/` (and, for Deep Agents' middleware stand-ins and
//! tools, in the bundled example); `{{name}}` and `{{version}}` in them are filled in here. A test keeps every starter passing
//! `ctxc check` with no finding.

use std::io;
use std::path::{Component, Path};

use serde::Serialize;

pub mod add;

/// The starters `ctxc init --preset` offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Starter {
    /// ctxc's own pipeline, no preset.
    None,
    Zeus,
    Deepagents,
    Zeph,
    Agentscope,
    Adk,
}

/// Files every starter holds (a tool file and one skill).
const COMMON: &[(&str, &str)] = &[
    ("skills/release-notes/SKILL.md", include_str!("../../starters/common/skills/release-notes/SKILL.md")),
    ("tools/workspace.json", include_str!("../../starters/common/tools/workspace.json")),
];

const NONE: &[(&str, &str)] = &[
    ("ctxc.toml", include_str!("../../starters/none/ctxc.toml")),
    ("prompts/modes/build.md", include_str!("../../starters/none/prompts/modes/build.md")),
    ("prompts/modes/plan.md", include_str!("../../starters/none/prompts/modes/plan.md")),
    ("prompts/role.md", include_str!("../../starters/none/prompts/role.md")),
];

const DEEPAGENTS: &[(&str, &str)] = &[
    ("AGENTS.md", include_str!("../../starters/deepagents/AGENTS.md")),
    ("ctxc.toml", include_str!("../../starters/deepagents/ctxc.toml")),
    ("prompts/system.md", include_str!("../../starters/deepagents/prompts/system.md")),
    ("prompts/middleware/base.md", include_str!("../../examples/agents/deepagents/prompts/middleware/base.md")),
    ("prompts/middleware/todo.md", include_str!("../../examples/agents/deepagents/prompts/middleware/todo.md")),
    ("prompts/middleware/memory_guidelines.md", include_str!("../../examples/agents/deepagents/prompts/middleware/memory_guidelines.md")),
    ("prompts/middleware/skills_usage.md", include_str!("../../examples/agents/deepagents/prompts/middleware/skills_usage.md")),
    ("prompts/middleware/filesystem.md", include_str!("../../examples/agents/deepagents/prompts/middleware/filesystem.md")),
    ("prompts/middleware/subagents.md", include_str!("../../examples/agents/deepagents/prompts/middleware/subagents.md")),
    ("prompts/middleware/citation_check.md", include_str!("../../examples/agents/deepagents/prompts/middleware/citation_check.md")),
    ("tools/planning.json", include_str!("../../examples/agents/deepagents/tools/planning.json")),
    ("tools/filesystem.json", include_str!("../../examples/agents/deepagents/tools/filesystem.json")),
    ("tools/subagents.json", include_str!("../../examples/agents/deepagents/tools/subagents.json")),
];

const ZEPH: &[(&str, &str)] = &[
    ("ZEPH.md", include_str!("../../starters/zeph/ZEPH.md")),
    ("ctxc.toml", include_str!("../../starters/zeph/ctxc.toml")),
    ("prompts/base.md", include_str!("../../starters/zeph/prompts/base.md")),
    ("prompts/environment.md.j2", include_str!("../../starters/zeph/prompts/environment.md.j2")),
    ("prompts/repo_map.md", include_str!("../../starters/zeph/prompts/repo_map.md")),
];

const AGENTSCOPE: &[(&str, &str)] = &[
    ("ctxc.toml", include_str!("../../starters/agentscope/ctxc.toml")),
    ("prompts/skill-instruction.md", include_str!("../../starters/agentscope/prompts/skill-instruction.md")),
    ("prompts/system.md", include_str!("../../starters/agentscope/prompts/system.md")),
    ("prompts/workspace.md", include_str!("../../starters/agentscope/prompts/workspace.md")),
];

impl Starter {
    pub const ALL: [Starter; 6] = [Starter::None, Starter::Zeus, Starter::Deepagents, Starter::Zeph, Starter::Agentscope, Starter::Adk];

    fn own_files(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Starter::None => NONE,
            Starter::Zeus => crate::runtimes::zeus::starter::FILES,
            Starter::Deepagents => DEEPAGENTS,
            Starter::Zeph => ZEPH,
            Starter::Agentscope => AGENTSCOPE,
            Starter::Adk => crate::runtimes::adk::starter::FILES,
        }
    }

    /// The starter's files (relative paths, `/`-separated, sorted) with `name` filled in (as a
    /// Python identifier where the runtime needs one).
    pub fn files(self, name: &str) -> Vec<(&'static str, String)> {
        let identifier = identifier(name);
        let fill = |text: &str| {
            text.replace("{{name}}", name).replace("{{identifier}}", &identifier).replace("{{version}}", env!("CARGO_PKG_VERSION"))
        };
        let mut files: Vec<(&str, String)> = COMMON.iter().chain(self.own_files()).map(|(path, text)| (*path, fill(text))).collect();
        files.sort_by_key(|(path, _)| *path);
        files
    }
}

/// An agent name from a folder name: lower case, runs of other characters as one `-`.
pub fn agent_name(folder: &str) -> String {
    let mut name = String::new();
    for c in folder.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_lowercase());
        } else if !name.is_empty() && !name.ends_with('-') {
            name.push('-');
        }
    }
    let name = name.trim_end_matches('-');
    if name.is_empty() {
        "agent".to_string()
    } else {
        name.to_string()
    }
}

/// `name` as a Python identifier (ADK's agent names): every other character an `_`, and `agent_`
/// before a leading digit.
fn identifier(name: &str) -> String {
    let name: String = name.chars().map(|c| if c.is_alphanumeric() || c == '_' { c } else { '_' }).collect();
    match name.chars().next() {
        Some(c) if c.is_alphabetic() || c == '_' => name,
        _ => format!("agent_{name}"),
    }
}

/// Writes new files below `dir` (paths relative to it), for `ctxc init` and `ctxc add`. Every
/// path is checked before anything is written: no `..` or absolute part, and every folder on the
/// way either missing (it is created) or a real folder, never a link, so nothing can lead a write
/// outside `dir`. Each file is created new ([`crate::review::atomic::create`]): an entry already
/// there fails with `AlreadyExists`.
pub fn write_new_files(dir: &Path, files: &[(String, String)]) -> io::Result<()> {
    for (rel, _) in files {
        let rel = Path::new(rel);
        if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(io::Error::other(format!("`{}` is not a plain relative path", rel.display())));
        }
        let mut folder = dir.to_path_buf();
        for part in rel.parent().into_iter().flat_map(Path::components) {
            folder.push(part);
            match folder.symlink_metadata() {
                Ok(meta) if meta.is_dir() => {}
                Ok(_) => return Err(io::Error::other(format!("`{}` is a link or a file, not a folder", folder.display()))),
                Err(e) if e.kind() == io::ErrorKind::NotFound => break,
                Err(e) => return Err(e),
            }
        }
    }
    for (rel, text) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        crate::review::atomic::create(&path, text.as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adk_starter_names_are_identifiers_whatever_the_folder() {
        for (name, want) in [("demo", "demo"), ("my-agent", "my_agent"), ("2024 bot!", "agent_2024_bot_"), ("", "agent_")] {
            let files = Starter::Adk.files(name);
            let manifest = &files.iter().find(|(rel, _)| *rel == "ctxc.toml").expect("a manifest").1;
            assert!(manifest.contains(&format!("name = \"{want}\"")), "{name}: {manifest}");
            assert!(crate::runtimes::adk::settings::is_identifier(want));
        }
    }
}
