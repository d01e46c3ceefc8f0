//! The manifest exactly as written: serde types that reject unknown keys and keep spans.
//! Doc comments here become descriptions in `schemas/ctxc.schema.json`.

use std::collections::BTreeMap;

use indexmap::IndexMap;
#[cfg(test)]
use schemars::JsonSchema;
use serde::Deserialize;

use super::span::Spanned;

/// A ctxc agent manifest (`ctxc.toml` or `ctxc.yaml`).
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawManifest {
    /// Editor hint for YAML/JSON tooling; ignored by ctxc.
    #[serde(rename = "$schema", default)]
    pub schema: Option<String>,
    /// The agent: its name, description and model.
    #[serde(default)]
    pub agent: Option<RawAgent>,
    /// Which steps build the system prompt, in order.
    #[serde(default)]
    pub pipeline: Option<RawPipeline>,
    /// Prompt modules by id: one source file, or one file per variant.
    #[serde(default)]
    pub modules: IndexMap<String, RawModule>,
    /// Modes (e.g. agent, ask, plan): module variants, tool access and the mode prompt.
    #[serde(default)]
    pub modes: IndexMap<String, RawMode>,
    /// Boolean scenario flags that conditions may read (`flags.NAME`), with their defaults.
    #[serde(default)]
    pub flags: IndexMap<String, bool>,
    /// Connectors (e.g. browser, desktop) and the prompt each adds when connected.
    #[serde(default)]
    pub connectors: IndexMap<String, RawConnector>,
    /// Tool categories by name, in the order their tools are described.
    #[serde(default)]
    pub tools: IndexMap<String, RawCategory>,
    /// Where skills are found and how they are disclosed.
    #[serde(default)]
    pub skills: Option<RawSkills>,
    /// Static memory files and retrieved-memory bounds.
    #[serde(default)]
    pub memory: Option<RawMemory>,
    /// Conversation history kept in the context.
    #[serde(default)]
    pub history: Option<RawHistory>,
    /// When the conversation is summarized and what is kept.
    #[serde(default)]
    pub summarization: Option<RawSummarization>,
    /// Named scenarios: the runtime values of dynamic steps.
    #[serde(default)]
    pub scenarios: IndexMap<String, RawScenario>,
    /// Token budgets for the system prompt, tool schemas and the response reserve.
    #[serde(default)]
    pub budgets: Option<RawBudgets>,
    /// Extra string variables available to templates as `vars.NAME`.
    #[serde(default)]
    pub vars: BTreeMap<String, String>,
    /// How templates find the files they include and import.
    #[serde(default)]
    pub templates: Option<RawTemplates>,
    /// Where the project root is, when it is above the manifest's directory.
    #[serde(default)]
    pub project: Option<RawProject>,
    /// Where `ctxc snapshot` writes this agent's rendered prompts.
    #[serde(default)]
    pub snapshot: Option<RawSnapshot>,
    /// Deep Agents settings (preset `deepagents`), under Deep Agents' own parameter names.
    #[serde(default)]
    pub deepagents: Option<crate::runtimes::deepagents::settings::RawDeepAgents>,
    /// Zeph settings (preset `zeph`), under Zeph's own parameter names.
    #[serde(default)]
    pub zeph: Option<crate::runtimes::zeph::settings::RawZeph>,
    /// AgentScope `ContextConfig` settings (preset `agentscope`).
    #[serde(default)]
    pub agentscope: Option<crate::runtimes::agentscope::settings::RawAgentScope>,
    /// Google ADK: where the agent sits in its agent tree (preset `adk`).
    #[serde(default)]
    pub adk: Option<crate::runtimes::adk::settings::RawAdk>,
    /// Lint settings: rules to run or skip, severities, the Agent Skills validation level.
    #[serde(default)]
    pub lint: Option<super::lint::RawLint>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawAgent {
    /// Agent name, used in reports and snapshot file names (required).
    #[serde(default)]
    pub name: Spanned<String>,
    /// One-line description, available to templates as `agent.description`.
    #[serde(default)]
    pub description: Option<String>,
    /// Model id (e.g. `gpt-4o`, `claude-sonnet-4-5`); its profile gives the window and tokenizer.
    #[serde(default)]
    pub model: Option<Spanned<String>>,
    /// Override the model profile's max input tokens (the context window).
    #[serde(default)]
    pub context_window: Option<u64>,
    /// Override the model profile's max output tokens.
    #[serde(default)]
    pub max_output_tokens: Option<u64>,
    /// Override the tokenizer: `o200k_base`, `cl100k_base` or `estimate`; or the path (inside the
    /// project) of the model's own tokenizer file: a `tokenizer.json`, a tiktoken rank file
    /// (Llama 3/4 `tokenizer.model`, Qwen `*.tiktoken`) or a Mistral Tekken JSON.
    #[serde(default)]
    pub tokenizer: Option<Spanned<String>>,
    /// The model's chat template, to count the request as the model receives it (system prompt,
    /// tools and framing placed by the template): a `tokenizer_config.json` (its `chat_template`
    /// and special tokens) or a `chat_template.jinja` (with the special tokens of the
    /// `tokenizer_config.json` beside it, when there is one).
    #[serde(default)]
    pub chat_template: Option<Spanned<String>>,
    /// Whether the request carries `tools: []` when no tool is callable, as runtimes that always
    /// pass their tool list send it; rendered by the chat template (Llama 3.3's adds its
    /// tool-calling instructions for an empty list). Default: no `tools` at all.
    #[serde(default)]
    pub empty_tool_list: Option<Spanned<bool>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawPipeline {
    /// A built-in preset whose steps, modes, categories and settings this manifest starts from.
    #[serde(default)]
    pub preset: Option<Spanned<String>>,
    /// Text placed between sections (default: a blank line, "\n\n").
    #[serde(default)]
    pub separator: Option<String>,
    /// Steps in order. With a preset, a step with a preset step's id changes that step; a new
    /// id is inserted `after` or `before` a named step, or appended.
    #[serde(default)]
    pub steps: Vec<RawStep>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawStep {
    /// Stable step id (e.g. `core`, `time`).
    pub id: Spanned<String>,
    /// What the step contributes.
    #[serde(default)]
    pub kind: Option<Spanned<StepKind>>,
    /// Human title shown in reports.
    #[serde(default)]
    pub title: Option<String>,
    /// For `module` steps: the module id (defaults to the step id). For `middleware`,
    /// `human_in_the_loop`, `agent_memory`, `skill_locations`, `agent_skills` and `workspace` steps:
    /// the optional module whose text the step adds (defaults to the step id).
    #[serde(default)]
    pub module: Option<Spanned<String>>,
    /// For `text` steps: the literal text.
    #[serde(default)]
    pub text: Option<String>,
    /// Enable condition: a minijinja expression over `mode`, `scenario`, `flags`, `connectors`,
    /// `mcp_servers` and `oauth` (e.g. `mode != "ask" and flags.sandbox`).
    #[serde(default)]
    pub when: Option<Spanned<String>>,
    /// Token budget for this step's section (bounded dynamic steps are checked at their worst case).
    #[serde(default)]
    pub budget: Option<Spanned<u64>>,
    /// Place a new step after this step id.
    #[serde(default)]
    pub after: Option<Spanned<String>>,
    /// Place a new step before this step id.
    #[serde(default)]
    pub before: Option<Spanned<String>>,
    /// Text placed before this step's section instead of the pipeline's `separator` (AgentScope
    /// joins its first parts with one line break, e.g. `separator = "\n"`).
    #[serde(default)]
    pub separator: Option<String>,
    /// This step's section starts a new system message: the runtime sends the sections before
    /// it and the sections from it on as two system messages, nothing between them (a chat
    /// template renders each; the separator is not sent).
    #[serde(default)]
    pub new_message: Option<Spanned<bool>>,
}

/// What a pipeline step contributes to the system prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, serde::Serialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    /// A prompt module (a file, or one file per variant; `.j2` files are templates).
    Module,
    /// The current mode's prompt.
    ModePrompt,
    /// The list of enabled tools (names, descriptions, parameter schemas).
    ToolList,
    /// The skill catalogue (name and description of each skill).
    Skills,
    /// Static memory files (AGENTS.md and friends), verbatim.
    MemoryFiles,
    /// Current date, time and timezone from the scenario.
    Time,
    /// Prompts of the connectors the scenario connects.
    ConnectorPrompts,
    /// Prompts of the MCP servers the scenario enables.
    McpPrompts,
    /// The user profile from the scenario.
    Profile,
    /// Retrieved memories from the scenario, ranked and bounded.
    Memories,
    /// Resources from the scenario.
    Resources,
    /// The sandbox file list from the scenario.
    SandboxFiles,
    /// Attachments from the scenario.
    Attachments,
    /// Literal text given in the step.
    Text,
    /// Text a framework or middleware adds: the module's file when the module is declared; off
    /// when it is not.
    Middleware,
    /// Deep Agents human-in-the-loop text (the module's file), only when `[deepagents]
    /// interrupt_on` names a tool.
    HumanInTheLoop,
    /// Deep Agents memory: each memory file with its path inside `<agent_memory>`, then the
    /// module's text (memory guidelines) inside `<memory_guidelines>`.
    AgentMemory,
    /// Deep Agents skills: the skill locations, one line per skill from its frontmatter with its
    /// path, then the module's text (skill usage).
    SkillLocations,
    /// Zeph project context: the `[memory] walk_up` files found from the agent's directory up to
    /// the project root, root first, inside `<project_context>`.
    ProjectContext,
    /// Zeph matched skills: full bodies of the skills the scenario activates, inside `<available_skills>`.
    ActiveSkills,
    /// Zeph catalogue of the other skills (name and description), inside `<other_skills>`.
    OtherSkills,
    /// Zeus skills: the skills the scenario activates in full, each inside `<activated_skill>`,
    /// then the others' names and descriptions inside `<available_skills>`; `enabled: false`
    /// skills left out, the rest ordered by `priority`.
    ZeusSkills,
    /// AgentScope skills: `<agent-skills>`, the module's text (the skill instruction), then each
    /// skill's name, description and folder (absolute with `[agentscope] project_dir`).
    AgentSkills,
    /// AgentScope workspace instructions: the module's text with `{workdir}` and `{backend}` filled
    /// from `[agentscope.workspace]`; off without it.
    Workspace,
    /// Zeph budget hint: `<budget>` with the daily cost budget left (when cost tracking has a
    /// limit) and the tool calls left this turn, as Zeph appends it to the volatile end of the
    /// system prompt on every turn; off with `[zeph] budget_hint_enabled = false`.
    BudgetHint,
    /// ADK instruction (global or the agent's): the module's text as written, `{key}`
    /// placeholders filled from the scenario's `vars` (the session state).
    AdkInstruction,
    /// ADK identity: the agent's name and description, as ADK states them.
    AdkIdentity,
    /// ADK agent transfer: the module's text (ADK's transfer instruction) with the agents of
    /// `[adk]` filled in, then module `transfer_to_parent` for a sub-agent; off with no target.
    AdkTransfer,
}

impl StepKind {
    /// Steps whose content comes from the scenario (present only when it provides them).
    pub fn is_scenario_data(self) -> bool {
        matches!(
            self,
            StepKind::ConnectorPrompts
                | StepKind::McpPrompts
                | StepKind::Profile
                | StepKind::Memories
                | StepKind::Resources
                | StepKind::SandboxFiles
                | StepKind::Attachments
                | StepKind::ActiveSkills
        )
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawModule {
    /// The module's file (for modules without variants).
    #[serde(default)]
    pub source: Option<Spanned<String>>,
    /// One file per variant (e.g. full, simplified, planning); modes choose one.
    #[serde(default)]
    pub variants: IndexMap<String, Spanned<String>>,
    /// Render the file(s) as minijinja templates. Default: only files ending in `.j2`.
    #[serde(default)]
    pub template: Option<bool>,
    /// The key of a YAML, TOML or JSON file that holds the text (dotted for nesting, e.g.
    /// `agent.templates.system_template`), instead of the whole file.
    #[serde(default)]
    pub key: Option<Spanned<String>>,
    /// Where this module's include and import names resolve, instead of `[templates] root`.
    #[serde(default)]
    pub root: Option<Spanned<String>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawTemplates {
    /// The folder include and import names resolve from (like Jinja2's `FileSystemLoader`),
    /// relative to the manifest. Default: the manifest's directory.
    #[serde(default)]
    pub root: Option<Spanned<String>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawMode {
    /// One-line description of the mode.
    #[serde(default)]
    pub description: Option<String>,
    /// The mode prompt file.
    #[serde(default)]
    pub prompt: Option<Spanned<String>>,
    /// Module variant per module id (e.g. `workflow = "planning"`).
    #[serde(default)]
    pub variants: IndexMap<String, Spanned<String>>,
    /// Tool access per category: `all`, `read-only`, `disabled`, or a list of allowed tool names.
    #[serde(default)]
    pub tools: IndexMap<String, RawAccess>,
    /// What happens to tools this mode disables: omitted (default) or listed as unavailable.
    #[serde(default)]
    pub disabled_tools: Option<DisabledTools>,
    /// Token budget for this mode's fixed context: system prompt plus tool schemas.
    #[serde(default)]
    pub budget: Option<Spanned<u64>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(untagged)]
pub enum RawAccess {
    Level(AccessLevel),
    Only(Vec<String>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum AccessLevel {
    /// Every tool in the category.
    All,
    /// Only tools that do not write.
    ReadOnly,
    /// No tool in the category.
    Disabled,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, serde::Serialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DisabledTools {
    /// Disabled tools do not appear in the prompt.
    #[default]
    Omit,
    /// Disabled tools appear in the tool list marked as unavailable in this mode.
    Placeholder,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawConnector {
    /// The prompt added when this connector is connected.
    pub prompt: Spanned<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawCategory {
    /// Human title.
    #[serde(default)]
    pub title: Option<String>,
    /// Enable condition (minijinja expression); default: always.
    #[serde(default)]
    pub when: Option<Spanned<String>>,
    /// Tool files in any format ctxc recognises: MCP `tools/list` results, OpenAI, Anthropic or
    /// Gemini tool definitions, BFCL records, JSON Lines of these, SWE-agent bundles, ctxc lists.
    #[serde(default)]
    pub files: Vec<RawToolFile>,
    /// Tools written inline.
    #[serde(default)]
    pub tool: Vec<RawTool>,
    /// Names of tools in this category that only read (for formats without annotations).
    #[serde(default)]
    pub read_only: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(untagged)]
pub enum RawToolFile {
    Path(String),
    Detailed(RawToolFileDetailed),
}

#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawToolFileDetailed {
    /// The file.
    pub path: String,
    /// MCP server these tools come from; enabled only when the scenario enables the server.
    #[serde(default)]
    pub server: Option<String>,
    /// OAuth app these tools need; enabled only when the scenario authorizes the app.
    #[serde(default)]
    pub app: Option<String>,
    /// With `path` the MCP tool record (`ctxc.mcp-tools`): the configuration file `server` is
    /// recorded from (`.mcp.json`, `.codex/config.toml`…), relative to the record's folder;
    /// needed only when several record a server of that name.
    #[serde(default)]
    pub config: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawTool {
    /// Tool name as the model calls it.
    pub name: Spanned<String>,
    /// What the tool does, as shown to the model; without it the request carries no description.
    #[serde(default)]
    pub description: Option<String>,
    /// JSON Schema of the parameters.
    #[serde(default)]
    pub parameters: Option<serde_json::Value>,
    /// True when the tool never writes (files, memory, external systems).
    #[serde(default)]
    pub read_only: Option<bool>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawSkills {
    /// Directories walked for `SKILL.md`; a later directory's skill replaces an earlier one of the same name.
    #[serde(default)]
    pub dirs: Vec<Spanned<String>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawMemory {
    /// Static memory files (e.g. AGENTS.md), inserted verbatim by `memory_files` steps.
    #[serde(default)]
    pub files: Vec<Spanned<String>>,
    /// Bounds and ranking of retrieved memories.
    #[serde(default)]
    pub retrieval: Option<RawRetrieval>,
    /// File names (e.g. `ZEPH.md`) looked for in the manifest's directory and each parent up to the
    /// project root; `project_context` steps insert the ones found, root first.
    #[serde(default)]
    pub walk_up: Option<Vec<Spanned<String>>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawRetrieval {
    /// Keep at most this many memories.
    #[serde(default)]
    pub top_k: Option<usize>,
    /// Keep at most this many characters of memory text in total.
    #[serde(default)]
    pub max_chars: Option<usize>,
    /// Scopes retrieved, in priority order (first is highest).
    #[serde(default)]
    pub scopes: Option<Vec<String>>,
    /// Ranking weights: score = similarity × w.similarity + confidence × w.confidence + scope priority × w.scope.
    #[serde(default)]
    pub weights: Option<RawWeights>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawWeights {
    pub similarity: f64,
    pub confidence: f64,
    pub scope: f64,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawBudgets {
    /// Most tokens the system prompt may take, in any mode and scenario.
    #[serde(default)]
    pub system_prompt: Option<Spanned<u64>>,
    /// Most tokens the tool schemas sent beside the prompt may take.
    #[serde(default)]
    pub tool_schemas: Option<Spanned<u64>>,
    /// Tokens kept free for the model's answer: a count (e.g. 8000) or a share of the window (e.g. 0.2).
    /// Default: the model's max output tokens, capped at a quarter of the window.
    #[serde(default)]
    pub response_reserve: Option<Spanned<Reserve>>,
    /// Warn when a budget is at least this full (default 0.9).
    #[serde(default)]
    pub warn_ratio: Option<f64>,
    /// Counts of a model with a counting endpoint (Claude, Gemini) must come from `ctxc.counts`:
    /// a render counted by an estimate is a finding (BUDGET005), as with `check --require-exact`.
    /// Default: false.
    #[serde(default)]
    pub require_exact: Option<Spanned<bool>>,
}

/// A response reserve: tokens, or a share of the window.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, serde::Serialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(untagged)]
pub enum Reserve {
    Tokens(u64),
    Ratio(f64),
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawHistory {
    /// Number of most recent messages kept in the context.
    #[serde(default)]
    pub max_messages: Option<usize>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawSummarization {
    /// Summarize when the context reaches this fraction of the model's max input tokens.
    #[serde(default)]
    pub trigger_ratio: Option<Spanned<f64>>,
    /// Messages kept verbatim after summarizing.
    #[serde(default)]
    pub keep_messages: Option<usize>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    /// What this scenario represents.
    #[serde(default)]
    pub description: Option<String>,
    /// Fixed current time, RFC 3339 (e.g. `2026-03-02T09:30:00+01:00`).
    #[serde(default)]
    pub now: Option<Spanned<String>>,
    /// IANA timezone name shown beside the time.
    #[serde(default)]
    pub timezone: Option<String>,
    /// Values of the manifest's flags in this scenario.
    #[serde(default)]
    pub flags: IndexMap<String, Spanned<bool>>,
    /// Connected connectors.
    #[serde(default)]
    pub connectors: Vec<Spanned<String>>,
    /// Enabled MCP servers, each with an optional prompt (server instructions) file.
    #[serde(default)]
    pub mcp_servers: IndexMap<String, RawMcpServer>,
    /// Authorized OAuth apps.
    #[serde(default)]
    pub oauth: Vec<String>,
    /// User profile file.
    #[serde(default)]
    pub profile: Option<Spanned<String>>,
    /// Retrieved memories: a JSON file holding an array, or the items inline.
    #[serde(default)]
    pub memories: Option<RawMemories>,
    /// Resources, each a name and a file.
    #[serde(default)]
    pub resources: Vec<RawNamedFile>,
    /// Paths of files in the sandbox (listed, not read).
    #[serde(default)]
    pub sandbox_files: Vec<String>,
    /// Attachments, each a name and a file holding its text.
    #[serde(default)]
    pub attachments: Vec<RawNamedFile>,
    /// Skills activated in this scenario (e.g. Zeph's top-K matched skills), shown with their full
    /// body by `active_skills` steps.
    #[serde(default)]
    pub active_skills: Vec<Spanned<String>>,
    /// Sample values of the runtime variables templates read (`{{ cli_mode }}`), any type.
    #[serde(default)]
    pub vars: IndexMap<String, serde_json::Value>,
    /// A workload spec (docs/simulate.md) that `ctxc check` replays through the runtime's context
    /// policy in this scenario: it fails when a request exceeds the window (BUDGET006).
    #[serde(default)]
    pub workload: Option<Spanned<String>>,
    /// With `workload`: `ctxc check` also fails when the workload summarizes before this turn.
    #[serde(default)]
    pub summarize_not_before: Option<Spanned<u64>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawMcpServer {
    /// File holding the instructions this server sends.
    #[serde(default)]
    pub prompt: Option<Spanned<String>>,
}

#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(untagged)]
pub enum RawMemories {
    File(String),
    Inline(Vec<MemoryItem>),
}

/// One retrieved memory.
#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct MemoryItem {
    pub text: String,
    pub similarity: f64,
    pub confidence: f64,
    pub scope: String,
}

#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawNamedFile {
    /// Name shown in the prompt.
    pub name: String,
    /// File holding the text.
    pub source: Spanned<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawProject {
    /// The project root, relative to the manifest's directory: `.` (the default) or an ancestor
    /// such as `../..`. Files are never read outside it.
    #[serde(default)]
    pub root: Option<Spanned<String>>,
    /// The ctxc versions this manifest is written for, in Cargo's syntax (`">=0.2"`); an older
    /// ctxc stops with a clear error instead of misreading it.
    #[serde(default)]
    pub requires: Option<Spanned<String>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawSnapshot {
    /// The snapshot folder, relative to the manifest's directory and inside the project root
    /// (default `.ctxc/snapshots`). `ctxc snapshot --dir` overrides it.
    #[serde(default)]
    pub dir: Option<Spanned<String>>,
}
