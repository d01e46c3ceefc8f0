//! What rule checks read: the agent with every mode × scenario rendered and measured (when a
//! manifest was loaded), the SKILL.md and memory files, every source read, and the settings of
//! `[lint]` that change what rules look for.

use crate::agent_files::{Doc, FileKind, MemoryDoc, SkillDoc};
use crate::diagnostic::Sources;
use crate::manifest::lint::SkillLevel;
use crate::manifest::model::{Agent, Category, CategoryTool, StepKind};
use crate::manifest::Loaded;
use crate::models::Tokenizer;
use crate::project::ProjectRoot;
pub use crate::session::Run;
use crate::tokens::TokenCounter;

/// Default token limit of one memory file (MEM002): about 32 KiB of English text, the size at
/// which Codex stops reading project docs (`project_doc_max_bytes`).
pub const DEFAULT_MEMORY_MAX_TOKENS: u64 = 8_000;

/// Values rules read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub skills: SkillLevel,
    pub memory_max_tokens: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { skills: SkillLevel::Lenient, memory_max_tokens: DEFAULT_MEMORY_MAX_TOKENS }
    }
}

/// A loaded agent and every mode × scenario that rendered.
#[derive(Debug, Clone, Copy)]
pub struct AgentRun<'a> {
    pub loaded: &'a Loaded,
    pub runs: &'a [Run],
}

/// What rule checks read.
pub struct Context<'a> {
    /// The agent, when a manifest was loaded (`None` in zero-config linting).
    pub agent: Option<AgentRun<'a>>,
    pub skills: &'a [SkillDoc],
    pub memory: &'a [MemoryDoc],
    /// The other agent files ([`FileKind`]) linted zero-config, in path order.
    pub files: &'a [Doc],
    /// Every file read, by display path.
    pub sources: &'a Sources,
    pub root: &'a ProjectRoot,
    pub counter: &'a TokenCounter,
    /// The tokenizer counts are made with (o200k_base in zero-config linting).
    pub tokenizer: Tokenizer,
    pub settings: Settings,
}

impl<'a> Context<'a> {
    pub fn count(&self, text: &str) -> usize {
        self.counter.count(self.tokenizer, text)
    }

    /// The agent files of one kind.
    pub fn files_of(&self, kind: FileKind) -> impl Iterator<Item = &'a Doc> {
        self.files.iter().filter(move |f| f.kind == kind)
    }

    /// The loaded agent, when there is one.
    pub fn agent(&self) -> Option<&Agent> {
        self.agent.map(|a| &a.loaded.agent)
    }

    /// Every mode × scenario that rendered (empty in zero-config linting).
    pub fn runs(&self) -> &[Run] {
        self.agent.map_or(&[], |a| a.runs)
    }

    /// Every tool of the agent with its category, in declaration order (none without an agent).
    pub fn tools(&self) -> Vec<(&Category, &CategoryTool)> {
        self.agent().map_or_else(Vec::new, |a| a.categories.iter().flat_map(|c| c.tools.iter().map(move |t| (c, t))).collect())
    }

    /// Whether the agent's pipeline has a step of this kind.
    pub fn has_step(&self, kind: StepKind) -> bool {
        self.agent().is_some_and(|a| a.steps.iter().any(|s| s.kind == kind))
    }

    /// The display path of a path relative to the project root.
    pub fn display(&self, rel: &str) -> String {
        self.root.display_path(rel)
    }

    /// "~" before estimated counts, as everywhere else.
    pub fn approx(&self) -> &'static str {
        if self.tokenizer.is_exact() {
            ""
        } else {
            "~"
        }
    }
}
