//! The validated agent: every reference checked and every file read. Later stages work on this
//! in memory and never touch the file system.

use crate::memo::SharedText;
use std::collections::BTreeMap;
use std::sync::Arc;

use indexmap::IndexMap;
use serde::Serialize;

pub use super::raw::{AccessLevel, DisabledTools, MemoryItem, Reserve, StepKind};
use super::scenario::{Retrieval, Timestamp};
use crate::models::ModelProfile;
use crate::skills::Skill;
use crate::tools::Tool;

pub use crate::diagnostic::Origin;

/// A file read from the project. `template` files are rendered with minijinja; all others are data.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TextFile {
    /// Path relative to the project root, `/`-separated.
    pub path: String,
    #[serde(skip)]
    pub text: SharedText,
    pub template: bool,
    /// Where the template's include and import names resolve.
    #[serde(skip)]
    pub template_root: crate::templates::TemplateRoot,
}

/// An enable condition: a minijinja expression, with where it was written.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Condition {
    pub expr: String,
    #[serde(skip)]
    pub origin: Origin,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// 1-based position in the pipeline.
    pub number: usize,
    pub id: String,
    pub title: String,
    pub kind: StepKind,
    /// For module steps: the module id.
    pub module: Option<String>,
    /// For text steps: the text.
    pub text: Option<String>,
    /// Text before this step's section, instead of the pipeline separator.
    pub separator: Option<String>,
    /// The section starts a new system message (`new_message`).
    pub new_message: bool,
    pub when: Option<Condition>,
    pub budget: Option<Budget>,
}

/// A token limit with where it was set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Budget {
    pub tokens: u64,
    #[serde(skip)]
    pub origin: Origin,
}

/// Budgets that apply to the whole agent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Budgets {
    pub system_prompt: Option<Budget>,
    pub tool_schemas: Option<Budget>,
    pub response_reserve: Option<Reserve>,
    #[serde(skip)]
    pub response_reserve_origin: Option<Origin>,
    /// Warn when a budget is at least this full.
    pub warn_ratio: f64,
    /// `require_exact = true`: where the manifest asks for recorded counts (BUDGET005 points there).
    #[serde(skip)]
    pub require_exact: Option<Origin>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum ModuleFiles {
    Single(TextFile),
    Variants(IndexMap<String, TextFile>),
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mode {
    pub name: String,
    pub description: Option<String>,
    pub prompt: Option<TextFile>,
    /// Chosen variant per module id.
    pub variants: IndexMap<String, String>,
    /// Access per category; categories not listed get `all`.
    pub access: IndexMap<String, Access>,
    pub disabled_tools: DisabledTools,
    pub budget: Option<Budget>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    Level(AccessLevel),
    Only(Vec<String>),
}

/// A tool with where it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CategoryTool {
    #[serde(flatten)]
    pub tool: Arc<Tool>,
    /// File the tool was read from (or the manifest for inline tools).
    pub source: String,
    /// MCP server the tool belongs to.
    pub server: Option<String>,
    /// OAuth app the tool needs.
    pub app: Option<String>,
    /// Whether the tool writes. Tools whose source does not say are treated as writing.
    pub writes: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Category {
    pub name: String,
    pub title: String,
    pub when: Option<Condition>,
    pub tools: Vec<CategoryTool>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NamedText {
    pub name: String,
    pub file: TextFile,
}

/// A scenario's workload, which `ctxc check` simulates (BUDGET006).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScenarioWorkload {
    pub file: TextFile,
    /// Where `workload` is written.
    #[serde(skip)]
    pub origin: Origin,
    /// The first summarization must come at this turn or later.
    pub summarize_not_before: Option<u64>,
    #[serde(skip)]
    pub summarize_not_before_origin: Option<Origin>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scenario {
    pub name: String,
    /// The workload `ctxc check` replays in this scenario.
    pub workload: Option<ScenarioWorkload>,
    pub description: Option<String>,
    pub now: Timestamp,
    pub timezone: String,
    /// Every manifest flag with its value in this scenario.
    pub flags: IndexMap<String, bool>,
    pub connectors: Vec<String>,
    /// Enabled MCP servers with their prompt, in the order given.
    pub mcp_servers: IndexMap<String, Option<TextFile>>,
    pub oauth: Vec<String>,
    pub profile: Option<TextFile>,
    pub memories: Vec<MemoryItem>,
    /// Where the memories came from (a file, or the manifest).
    pub memories_source: Option<String>,
    pub resources: Vec<NamedText>,
    pub sandbox_files: Vec<String>,
    pub attachments: Vec<NamedText>,
    /// Skills activated in this scenario (names), shown in full by `active_skills` steps.
    pub active_skills: Vec<String>,
    /// Sample values of runtime template variables, read as top-level names.
    pub vars: IndexMap<String, serde_json::Value>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    pub retrieval: Retrieval,
    pub history_messages: Option<usize>,
    pub summarization_trigger: Option<f64>,
    #[serde(skip)]
    pub summarization_trigger_origin: Option<Origin>,
    pub summarization_keep: Option<usize>,
}

/// A tokenizer file named for an agent, located and checked (not read yet).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TokenizerFileRef {
    /// The file on disk, links resolved.
    pub path: std::path::PathBuf,
    /// As written.
    pub shown: String,
    /// Set by `--tokenizer` (or `--set`, a `CTXC_` variable) rather than the manifest.
    pub from_command_line: bool,
    /// Where the manifest names it (no span when the command line does).
    #[serde(skip)]
    pub origin: Origin,
}

/// A loaded, validated agent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Agent {
    pub name: String,
    pub description: Option<String>,
    pub model: Option<String>,
    /// Where `model` is written; `None` when it is not, or comes from an override.
    #[serde(skip)]
    pub model_origin: Option<Origin>,
    /// The model's profile with the manifest's overrides applied.
    pub profile: ModelProfile,
    /// The model's own tokenizer file, when `tokenizer` (or `--tokenizer`) names one: the session
    /// loads it (once per run) and counts with it.
    pub tokenizer_file: Option<TokenizerFileRef>,
    pub preset: Option<String>,
    /// Manifest path relative to the project root.
    pub manifest: String,
    /// Manifest path as shown to users.
    #[serde(skip)]
    pub manifest_display: String,
    pub separator: String,
    pub steps: Vec<Step>,
    pub modules: IndexMap<String, ModuleFiles>,
    pub modes: IndexMap<String, Mode>,
    pub connectors: IndexMap<String, TextFile>,
    pub categories: Vec<Category>,
    pub skills: Arc<[Skill]>,
    /// The skill directories, in order (later ones override earlier ones by skill name).
    pub skill_locations: Vec<String>,
    /// Those of `skill_locations` that do not exist (allowed under the `deepagents` preset, whose
    /// runtime warns about each in the prompt).
    pub missing_skill_locations: Vec<String>,
    pub memory_files: Vec<TextFile>,
    pub settings: Settings,
    pub budgets: Budgets,
    pub scenarios: IndexMap<String, Scenario>,
    pub vars: BTreeMap<String, String>,
    /// Where `ctxc snapshot` writes rendered prompts: relative to the manifest's directory, `/`
    /// separators, inside the project root (`[snapshot] dir`, default `.ctxc/snapshots`).
    pub snapshot_dir: String,
    /// Where `[snapshot] dir` is written in the manifest; `None` for the default or an override.
    #[serde(skip)]
    pub snapshot_dir_origin: Option<Origin>,
    /// Files found by walking up from the manifest's directory to the project root (`[memory]
    /// walk_up`), root first.
    pub project_context: Vec<TextFile>,
    /// The model's chat template (`[agent] chat_template`): the request is rendered through it.
    #[serde(skip)]
    pub chat_template: Option<Arc<crate::providers::chat_template::ChatTemplate>>,
    /// The request carries `tools: []` when no tool is callable (`[agent] empty_tool_list`).
    pub empty_tool_list: bool,
    /// Where each setting that only a chat template renders is set (`empty_tool_list`, a step's
    /// `new_message`, when `true`): without a template it changes nothing (MAN016).
    #[serde(skip)]
    pub template_settings: Vec<(&'static str, Origin)>,
    /// The body (text after the frontmatter) of each skill, by SKILL.md path.
    #[serde(skip)]
    pub skill_bodies: BTreeMap<String, crate::skills::SkillBody>,
    /// The reference system's own window settings (from the `deepagents`, `zeph` or `agentscope` preset).
    pub systems: crate::systems::Systems,
    /// `[lint]` as written (read by the lint stage).
    #[serde(skip)]
    pub lint: super::lint::RawLint,
}

impl Agent {
    /// The module `step` names when the agent does not declare it: a step that only adds a
    /// module's file (a middleware's text) then adds nothing.
    pub fn undeclared_module<'a>(&self, step: &'a Step) -> Option<&'a String> {
        step.module.as_ref().filter(|m| !self.modules.contains_key(*m))
    }
}
