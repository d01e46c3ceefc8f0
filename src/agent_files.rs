//! The agent files linted one by one: SKILL.md files, memory files (AGENTS.md, CLAUDE.md,
//! GEMINI.md and the files a manifest lists) and every other kind of file an agent product
//! reads ([`FileKind`]: Claude Code subagents and settings, Cursor rules, Copilot instructions,
//! OpenHands microagents…). In a manifest, skills and memory files come from what loading read;
//! without one (zero-config), and for the files no agent loads, from a walk of the directory.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::ops::{Deref, Range};
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Sources};
use crate::folders::{self, Next, Step};
use crate::hosts::{self, FileSpec, Format, Host};
use crate::memo::{Cache, Kind, SharedText};
use crate::project::{ProjectRoot, ReadError, SourceFile};
use crate::yaml::{self, Frontmatter, FrontmatterError};

/// File names zero-config linting picks up as skills and memory files.
pub const SKILL_FILE: &str = "SKILL.md";
pub const MEMORY_FILES: [&str; 5] = ["AGENTS.md", "AGENTS.override.md", "CLAUDE.md", "CLAUDE.local.md", "GEMINI.md"];

/// Every kind of agent file ctxc knows, detected by its path ([`FileKind::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    /// `SKILL.md` (Agent Skills).
    Skill,
    /// `AGENTS.md`, `AGENTS.override.md` (Codex and others), `CLAUDE.md`, `CLAUDE.local.md`, `GEMINI.md`.
    Memory,
    /// Claude Code subagent: `.claude/agents/**/*.md`.
    ClaudeAgent,
    /// Claude Code slash command: `.claude/commands/**/*.md`.
    ClaudeCommand,
    /// Claude Code settings: `.claude/settings.json`, `.claude/settings.local.json`.
    ClaudeSettings,
    /// Claude Code plugin manifest: `.claude-plugin/plugin.json`.
    ClaudePlugin,
    /// Claude Code plugin marketplace: `.claude-plugin/marketplace.json`.
    ClaudeMarketplace,
    /// Claude Code plugin hooks: `hooks/hooks.json` in a plugin (or the file plugin.json's `hooks` names).
    ClaudeHooks,
    /// Claude Code plugin LSP servers: `.lsp.json` in a plugin.
    ClaudeLsp,
    /// Claude Code output style: `.claude/output-styles/*.md`, `output-styles/*.md` in a plugin.
    ClaudeOutputStyle,
    /// MCP server configuration: `.mcp.json`, `.cursor/mcp.json`.
    McpConfig,
    /// Cursor project rule: `.cursor/rules/**/*.mdc`.
    CursorRule,
    /// Cursor's legacy rules file: `.cursorrules`.
    CursorRulesLegacy,
    /// GitHub Copilot repository instructions: `.github/copilot-instructions.md`.
    CopilotInstructions,
    /// GitHub Copilot path-specific instructions: `.github/instructions/**/*.instructions.md`.
    CopilotScopedInstructions,
    /// GitHub Copilot prompt file: `.github/prompts/**/*.prompt.md`.
    CopilotPrompt,
    /// GitHub Copilot custom agent or chat mode: `.github/agents/*.agent.md`, `.github/chatmodes/*.chatmode.md`.
    CopilotAgent,
    /// Gemini CLI settings: `.gemini/settings.json`.
    GeminiSettings,
    /// OpenHands microagent: `.openhands/microagents/**/*.md`.
    OpenHandsMicroagent,
    /// MCP or provider tool definitions (a JSON file named on the command line).
    ToolDefinitions,
    /// Codex project configuration: `.codex/config.toml`.
    CodexConfig,
    /// Kiro steering file: `.kiro/steering/*.md`.
    KiroSteering,
    /// Gemini CLI extension manifest: `gemini-extension.json` at an extension's root.
    GeminiExtension,
    /// Cline rule: a `.clinerules` file, or a Markdown file in `.clinerules/` or `.cline/rules/`
    /// (not its `workflows/` or `hooks/`).
    ClineRule,
    /// Cursor hooks: `.cursor/hooks.json`.
    CursorHooks,
    /// OpenCode agent: `.opencode/agent/**/*.md`, `.opencode/agents/**/*.md`.
    OpencodeAgent,
    /// OpenCode command: `.opencode/command/**/*.md`, `.opencode/commands/**/*.md`.
    OpencodeCommand,
    /// Windsurf workspace rule: `.windsurf/rules/*.md`.
    WindsurfRule,
    /// OpenCode project configuration: `opencode.json`, `opencode.jsonc` (JSON with comments).
    OpencodeConfig,
    /// Windsurf workflow (a slash command): `.windsurf/workflows/*.md`.
    WindsurfWorkflow,
    /// Windsurf (Cascade) hooks: `.windsurf/hooks.json`.
    WindsurfHooks,
    /// Codex custom agent (a role's configuration layer): `.codex/agents/**/*.toml`.
    CodexAgent,
    /// Kiro hooks (Kiro CLI 3, IDE 1.0): `.kiro/hooks/*.json`.
    KiroHooks,
    /// A Markdown file directly in a skills folder a host reads (`.claude/skills/x.md`, a
    /// plugin's `skills/x.md`): no host reads it, as hosts read `<folder>/SKILL.md` there. Read
    /// only to say so (SKILL031); no host model names the kind, so no host view lists it.
    FlatSkill,
}

impl FileKind {
    /// Every kind, in report order.
    pub const ALL: [FileKind; 34] = [
        FileKind::Skill,
        FileKind::Memory,
        FileKind::ClaudeAgent,
        FileKind::ClaudeCommand,
        FileKind::ClaudeSettings,
        FileKind::ClaudePlugin,
        FileKind::ClaudeMarketplace,
        FileKind::ClaudeHooks,
        FileKind::ClaudeLsp,
        FileKind::ClaudeOutputStyle,
        FileKind::McpConfig,
        FileKind::CursorRule,
        FileKind::CursorRulesLegacy,
        FileKind::CopilotInstructions,
        FileKind::CopilotScopedInstructions,
        FileKind::CopilotPrompt,
        FileKind::CopilotAgent,
        FileKind::GeminiSettings,
        FileKind::OpenHandsMicroagent,
        FileKind::ToolDefinitions,
        FileKind::CodexConfig,
        FileKind::KiroSteering,
        FileKind::GeminiExtension,
        FileKind::ClineRule,
        FileKind::CursorHooks,
        FileKind::OpencodeAgent,
        FileKind::OpencodeCommand,
        FileKind::WindsurfRule,
        FileKind::OpencodeConfig,
        FileKind::WindsurfWorkflow,
        FileKind::WindsurfHooks,
        FileKind::CodexAgent,
        FileKind::KiroHooks,
        FileKind::FlatSkill,
    ];

    /// The kind of a file by its path relative to the project root (`/`-separated), or `None`
    /// for a file no agent product reads. Tool definitions have no fixed name: a JSON file is
    /// one only when named on the command line ([`Named`]), and a plugin's files are found by
    /// where the plugin keeps them ([`Plugin::kind_of`]).
    pub fn of(rel: &str) -> Option<FileKind> {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let dir = &rel[..rel.len() - name.len()];
        let under = |folder: &str| folder_in(dir, folder).is_some();
        let kind = if name.eq_ignore_ascii_case(SKILL_FILE) {
            FileKind::Skill
        } else if MEMORY_FILES.contains(&name) {
            FileKind::Memory
        } else if name.ends_with(".md") && under(".claude/agents/") {
            FileKind::ClaudeAgent
        } else if name.ends_with(".md") && under(".claude/commands/") {
            FileKind::ClaudeCommand
        } else if matches!(name, "settings.json" | "settings.local.json") && dir.ends_with(".claude/") {
            FileKind::ClaudeSettings
        } else if name.ends_with(".md") && under(".claude/output-styles/") {
            FileKind::ClaudeOutputStyle
        } else if name == "plugin.json" && dir.ends_with(".claude-plugin/") {
            FileKind::ClaudePlugin
        } else if name == "marketplace.json" && dir.ends_with(".claude-plugin/") {
            FileKind::ClaudeMarketplace
        } else if name == ".mcp.json" || (name == "mcp.json" && dir.ends_with(".cursor/")) {
            FileKind::McpConfig
        } else if name.ends_with(".mdc") && under(".cursor/rules/") {
            FileKind::CursorRule
        } else if name == ".cursorrules" {
            FileKind::CursorRulesLegacy
        } else if name == "copilot-instructions.md" && dir.ends_with(".github/") {
            FileKind::CopilotInstructions
        } else if name.ends_with(".instructions.md") && under(".github/instructions/") {
            FileKind::CopilotScopedInstructions
        } else if name.ends_with(".prompt.md") && under(".github/prompts/") {
            FileKind::CopilotPrompt
        } else if (name.ends_with(".agent.md") && under(".github/agents/"))
            || (name.ends_with(".chatmode.md") && under(".github/chatmodes/"))
        {
            FileKind::CopilotAgent
        } else if name == "settings.json" && dir.ends_with(".gemini/") {
            FileKind::GeminiSettings
        } else if name.ends_with(".md") && under(".openhands/microagents/") {
            FileKind::OpenHandsMicroagent
        } else if name == "config.toml" && dir.ends_with(".codex/") {
            FileKind::CodexConfig
        } else if name.ends_with(".md") && dir.ends_with(".kiro/steering/") {
            FileKind::KiroSteering
        } else if name == "gemini-extension.json" {
            FileKind::GeminiExtension
        } else if name == ".clinerules" || (name.ends_with(".md") && is_cline_rule_dir(dir)) {
            FileKind::ClineRule
        } else if name == "hooks.json" && dir.ends_with(".cursor/") {
            FileKind::CursorHooks
        } else if name.ends_with(".md") && (under(".opencode/agent/") || under(".opencode/agents/")) {
            FileKind::OpencodeAgent
        } else if name.ends_with(".md") && (under(".opencode/command/") || under(".opencode/commands/")) {
            FileKind::OpencodeCommand
        } else if name.ends_with(".md") && dir.ends_with(".windsurf/rules/") {
            FileKind::WindsurfRule
        } else if matches!(name, "opencode.json" | "opencode.jsonc") {
            FileKind::OpencodeConfig
        } else if name.ends_with(".md") && dir.ends_with(".windsurf/workflows/") {
            FileKind::WindsurfWorkflow
        } else if name == "hooks.json" && dir.ends_with(".windsurf/") {
            FileKind::WindsurfHooks
        } else if name.ends_with(".toml") && under(".codex/agents/") {
            FileKind::CodexAgent
        } else if name.ends_with(".json") && dir.ends_with(".kiro/hooks/") {
            FileKind::KiroHooks
        } else if name.ends_with(".md") && skills_roots("project").iter().any(|root| directly_in(dir, root)) {
            FileKind::FlatSkill
        } else {
            return None;
        };
        Some(kind)
    }

    /// What the kind is called in messages and docs.
    pub fn describe(self) -> &'static str {
        match self {
            FileKind::Skill => "Agent Skills SKILL.md",
            FileKind::Memory => "memory file (AGENTS.md, CLAUDE.md, GEMINI.md)",
            FileKind::ClaudeAgent => "Claude Code subagent",
            FileKind::ClaudeCommand => "Claude Code slash command",
            FileKind::ClaudeSettings => "Claude Code settings",
            FileKind::ClaudePlugin => "Claude Code plugin manifest",
            FileKind::ClaudeMarketplace => "Claude Code plugin marketplace",
            FileKind::ClaudeHooks => "Claude Code plugin hooks",
            FileKind::ClaudeLsp => "Claude Code plugin LSP servers",
            FileKind::ClaudeOutputStyle => "Claude Code output style",
            FileKind::McpConfig => "MCP server configuration",
            FileKind::CursorRule => "Cursor project rule",
            FileKind::CursorRulesLegacy => "Cursor .cursorrules",
            FileKind::CopilotInstructions => "GitHub Copilot repository instructions",
            FileKind::CopilotScopedInstructions => "GitHub Copilot path-specific instructions",
            FileKind::CopilotPrompt => "GitHub Copilot prompt file",
            FileKind::CopilotAgent => "GitHub Copilot custom agent",
            FileKind::GeminiSettings => "Gemini CLI settings",
            FileKind::OpenHandsMicroagent => "OpenHands microagent",
            FileKind::ToolDefinitions => "tool definitions",
            FileKind::CodexConfig => "Codex configuration",
            FileKind::KiroSteering => "Kiro steering file",
            FileKind::GeminiExtension => "Gemini CLI extension manifest",
            FileKind::ClineRule => "Cline rule",
            FileKind::CursorHooks => "Cursor hooks",
            FileKind::OpencodeAgent => "OpenCode agent",
            FileKind::OpencodeCommand => "OpenCode command",
            FileKind::WindsurfRule => "Windsurf rule",
            FileKind::OpencodeConfig => "OpenCode configuration",
            FileKind::WindsurfWorkflow => "Windsurf workflow",
            FileKind::WindsurfHooks => "Windsurf hooks",
            FileKind::CodexAgent => "Codex custom agent",
            FileKind::KiroHooks => "Kiro hooks",
            FileKind::FlatSkill => "Markdown file directly in a skills folder (read by no host)",
        }
    }

    /// The kind's name in the host files (`data/hosts/*.toml`) and in JSON output.
    pub fn id(self) -> &'static str {
        match self {
            FileKind::Skill => "skill",
            FileKind::Memory => "memory",
            FileKind::ClaudeAgent => "claude-agent",
            FileKind::ClaudeCommand => "claude-command",
            FileKind::ClaudeSettings => "claude-settings",
            FileKind::ClaudePlugin => "claude-plugin",
            FileKind::ClaudeMarketplace => "claude-marketplace",
            FileKind::ClaudeHooks => "claude-hooks",
            FileKind::ClaudeLsp => "claude-lsp",
            FileKind::ClaudeOutputStyle => "claude-output-style",
            FileKind::McpConfig => "mcp-config",
            FileKind::CursorRule => "cursor-rule",
            FileKind::CursorRulesLegacy => "cursor-rules-legacy",
            FileKind::CopilotInstructions => "copilot-instructions",
            FileKind::CopilotScopedInstructions => "copilot-scoped-instructions",
            FileKind::CopilotPrompt => "copilot-prompt",
            FileKind::CopilotAgent => "copilot-agent",
            FileKind::GeminiSettings => "gemini-settings",
            FileKind::OpenHandsMicroagent => "open-hands-microagent",
            FileKind::ToolDefinitions => "tool-definitions",
            FileKind::CodexConfig => "codex-config",
            FileKind::KiroSteering => "kiro-steering",
            FileKind::GeminiExtension => "gemini-extension",
            FileKind::ClineRule => "cline-rule",
            FileKind::CursorHooks => "cursor-hooks",
            FileKind::OpencodeAgent => "opencode-agent",
            FileKind::OpencodeCommand => "opencode-command",
            FileKind::WindsurfRule => "windsurf-rule",
            FileKind::OpencodeConfig => "opencode-config",
            FileKind::WindsurfWorkflow => "windsurf-workflow",
            FileKind::WindsurfHooks => "windsurf-hooks",
            FileKind::CodexAgent => "codex-agent",
            FileKind::KiroHooks => "kiro-hooks",
            FileKind::FlatSkill => "flat-skill",
        }
    }

    /// What `host` reads in files of this kind (`None` when it does not read them).
    pub fn spec(self, host: &'static Host) -> Option<&'static FileSpec> {
        host.file(self.id())
    }

    /// What the host `host` (a file of `data/hosts/`, embedded) says of this kind, for the rules of
    /// a kind only that host reads. The pairs the rules ask for are listed in a test below.
    pub fn spec_of(self, host: &str) -> &'static FileSpec {
        let spec = hosts::host(host).and_then(|h| self.spec(h));
        spec.unwrap_or_else(|| panic!("data/hosts/{host}.toml has no `{}`", self.id()))
        // ok: embedded data, every pair a rule asks for is tested (`every_kind_a_rule_asks_a_host_for_is_in_its_file`)
    }

    /// Whether the file is Markdown, most with YAML frontmatter (the others are JSON or TOML).
    pub fn is_markdown(self) -> bool {
        !self.is_json() && !matches!(self, FileKind::CodexConfig | FileKind::CodexAgent)
    }

    /// Whether the file is JSON.
    pub fn is_json(self) -> bool {
        matches!(
            self,
            FileKind::ClaudeSettings
                | FileKind::ClaudePlugin
                | FileKind::ClaudeMarketplace
                | FileKind::ClaudeHooks
                | FileKind::ClaudeLsp
                | FileKind::McpConfig
                | FileKind::GeminiSettings
                | FileKind::GeminiExtension
                | FileKind::CursorHooks
                | FileKind::OpencodeConfig
                | FileKind::KiroHooks
                | FileKind::WindsurfHooks
                | FileKind::ToolDefinitions
        )
    }
}

/// The skills folders of a root of the host models (`project`, `plugin`), `/`-terminated: the
/// part before `*/SKILL.md` or `**/SKILL.md` of every host's skill globs and skill listings
/// (`.claude/skills/`, `.agents/skills/`, a plugin's `skills/`…). Hosts read skills there only
/// as folders holding a `SKILL.md`.
pub fn skills_roots(root: &str) -> &'static [String] {
    static PROJECT: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    static PLUGIN: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let cell = if root == "plugin" { &PLUGIN } else { &PROJECT };
    cell.get_or_init(|| {
        let skill = FileKind::Skill.id();
        let mut globs: Vec<&str> = Vec::new();
        for host in hosts::all() {
            globs.extend(host.files.iter().filter(|f| f.kind == skill).flat_map(|f| f.globs_in(root)).map(|p| p.glob.as_str()));
            if root == "project" {
                let listings = host.startup.iter().flat_map(|s| &s.listings).filter(|l| l.kinds.iter().any(|k| k == skill));
                globs.extend(listings.flat_map(|l| l.paths.iter().map(String::as_str)));
            }
        }
        let mut roots: Vec<String> = globs
            .into_iter()
            .filter_map(|glob| glob.strip_suffix("**/SKILL.md").or_else(|| glob.strip_suffix("*/SKILL.md")))
            .filter(|root| root.ends_with('/') && !root.contains('*'))
            .map(str::to_string)
            .collect();
        roots.sort();
        roots.dedup();
        roots
    })
}

/// Whether the folder `dir` (`/`-terminated) is the folder `root` (`/`-terminated), at the project's
/// root or below another folder: files directly in it, not in its subfolders.
fn directly_in(dir: &str, root: &str) -> bool {
    dir.strip_suffix(root).is_some_and(|above| above.is_empty() || above.ends_with('/'))
}

/// Whether a folder (`/`-terminated, relative to the root) holds Cline rules: `.clinerules/` or
/// `.cline/rules/` at the root or below, but not their `workflows/` and `hooks/` folders.
fn is_cline_rule_dir(dir: &str) -> bool {
    let inside = [".clinerules/", ".cline/rules/"].iter().find_map(|folder| Some(&dir[folder_in(dir, folder)? + folder.len()..]));
    inside.is_some_and(|rest| !rest.starts_with("workflows/") && !rest.starts_with("hooks/"))
}

/// Where the first `folder` (`/`-terminated) that is whole folders of `dir` starts: at the root
/// or after a `/` (`x.clinerules/` holds no `.clinerules/`). No allocation: it runs per file.
fn folder_in(dir: &str, folder: &str) -> Option<usize> {
    dir.match_indices(folder).map(|(i, _)| i).find(|&i| i == 0 || dir.as_bytes()[i - 1] == b'/')
}

/// One agent file with its frontmatter parsed (Markdown kinds; a JSON file has none, and its
/// [`Doc::json`] is parsed on first use).
#[derive(Debug, Clone)]
pub struct Doc {
    pub kind: FileKind,
    /// Display path.
    pub file: String,
    /// Path relative to the project root.
    pub rel: String,
    pub text: SharedText,
    /// Shared by every file with the same text.
    pub front: Arc<Result<Frontmatter, FrontmatterError>>,
    /// The run's cache, where what is read from the text (its JSON, its Markdown) is memoized.
    pub cache: Arc<Cache>,
    /// The Claude Code plugin the file is a component of (its agents, commands, skills, hooks…).
    pub plugin: Option<Arc<Plugin>>,
}

/// A JSON file's value, or where and why it does not parse (a byte offset into the text).
pub type ParsedJson = Arc<Result<Value, (usize, String)>>;

/// A text parsed as JSON, memoized by content in `cache` (what [`Doc::json`] returns for it).
fn parse_json(cache: &Cache, text: &SharedText) -> ParsedJson {
    cache.get_or_insert(Kind::Json, text.hash(), || {
        let text: &str = text;
        Arc::new(serde_json::from_str::<Value>(text).map_err(|e| (crate::diagnostic::offset_of(text, e.line(), e.column()), e.to_string())))
    })
}

impl Doc {
    pub fn new(kind: FileKind, file: String, rel: String, text: SharedText, cache: &Arc<Cache>) -> Doc {
        let front = match kind.is_markdown() {
            false => Arc::new(Err(FrontmatterError::Missing)),
            true => cache.get_or_insert(Kind::Frontmatter, text.hash(), || Arc::new(yaml::frontmatter(&text))),
        };
        Doc { kind, file, rel, text, front, cache: Arc::clone(cache), plugin: None }
    }

    /// The root the host reads the file from, as the host models name them (`plugin`, `project`).
    pub fn root_kind(&self) -> &'static str {
        if self.plugin.is_some() {
            "plugin"
        } else {
            "project"
        }
    }

    /// The file parsed as JSON (memoized by content in its run).
    pub fn json(&self) -> ParsedJson {
        parse_json(&self.cache, &self.text)
    }

    /// The file's name (the last path component).
    pub fn name(&self) -> &str {
        self.rel.rsplit('/').next().unwrap_or(&self.rel)
    }

    /// The frontmatter fields, when it parsed.
    pub fn fields(&self) -> &[(String, Value)] {
        self.front.as_ref().as_ref().map_or(&[], |f| f.fields.as_slice())
    }

    pub fn field(&self, key: &str) -> Option<&Value> {
        self.fields().iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// A field's value when it is a string.
    pub fn string(&self, key: &str) -> Option<&str> {
        self.field(key).and_then(Value::as_str)
    }

    /// The Markdown after the frontmatter (the whole file when there is none).
    pub fn body(&self) -> &str {
        match &*self.front {
            Ok(front) => &self.text[front.body_offset.min(self.text.len())..],
            Err(_) => &self.text,
        }
    }

    /// Byte offset where the body starts.
    pub fn body_start(&self) -> usize {
        self.text.len() - self.body().len()
    }

    /// Where a top-level frontmatter key and its value are written (from the YAML parser's marks).
    fn field_span(&self, key: &str) -> Option<&crate::yaml::FieldSpan> {
        self.front.as_ref().as_ref().ok()?.field_span(key)
    }

    /// Byte range of a top-level frontmatter key.
    pub fn key_span(&self, key: &str) -> Option<Range<usize>> {
        self.field_span(key).map(|f| f.key_span.clone())
    }

    /// Byte range of a key's value on its line (the key itself when the value starts below it
    /// or is empty).
    pub fn value_span(&self, key: &str) -> Option<Range<usize>> {
        self.field_span(key).map(|f| f.value_span.clone())
    }

    /// Byte range of the one-line plain value of `key` in the block mapping under the top-level
    /// `parent` (`version: 1.0` under `metadata:`); `None` when it is not written so.
    pub fn plain_member_span(&self, parent: &str, key: &str) -> Option<Range<usize>> {
        self.field_span(parent)?.plain_members.iter().find(|(k, _)| k == key).map(|(_, span)| span.clone())
    }

    /// Byte range of item `index` of the sequence that is `key`'s value (see `FieldSpan::items`).
    pub fn item_span(&self, key: &str, index: usize) -> Option<Range<usize>> {
        self.field_span(key)?.items.get(index).cloned()
    }

    /// Where each item of the sequence that is `key`'s value is written (none for another value).
    pub fn item_spans(&self, key: &str) -> Vec<Range<usize>> {
        self.field_span(key).map(|f| f.items.clone()).unwrap_or_default()
    }

    /// Byte range of a top-level frontmatter entry with all its lines: from its key to the end of
    /// the line where its value ends (the newline included), what deleting the field removes.
    pub fn entry_lines(&self, key: &str) -> Option<Range<usize>> {
        let field = self.field_span(key)?;
        // A block scalar's mark runs on over the blank lines after it.
        let last = field.key_span.start + self.text.get(field.key_span.start..field.end)?.trim_end().len();
        let end = self.text[last..].find('\n').map_or(self.text.len(), |i| last + i + 1);
        Some(field.key_span.start..end.min(self.body_start()))
    }
}

/// A Claude Code plugin: a folder holding `.claude-plugin/plugin.json`, or one a marketplace
/// entry's `source` names (the `plugin` root of data/hosts/claude-code.toml).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plugin {
    /// The folder, relative to the project root (empty: the root itself).
    pub rel: String,
    /// Its name: plugin.json's `name`, else the marketplace entry's, else the folder's. What the
    /// plugin holds is named `name:item` (`plugin-dev:agent-creator`).
    pub name: String,
    /// Paths plugin.json or the marketplace entry give a component (`commands`, `agents`,
    /// `hooks`, `mcpServers`…): path relative to the project root → component.
    pub components: BTreeMap<String, String>,
}

impl Plugin {
    /// The path of `rel` inside the plugin's folder, when it is inside.
    pub fn inner<'a>(&self, rel: &'a str) -> Option<&'a str> {
        match self.rel.is_empty() {
            true => Some(rel),
            false => rel.strip_prefix(self.rel.as_str())?.strip_prefix('/'),
        }
    }

    /// The path of a file in the plugin (`scripts/run.sh`) relative to the project root.
    pub fn path(&self, inner: &str) -> String {
        match self.rel.is_empty() {
            true => inner.to_string(),
            false => format!("{}/{inner}", self.rel),
        }
    }

    /// The kind of the plugin's file at `rel`, by where the host model puts each kind in a
    /// plugin, or by a component path of the manifest; `None` for another file.
    pub fn kind_of(&self, rel: &str) -> Option<FileKind> {
        let inner = self.inner(rel)?;
        let host = hosts::claude_code();
        let of = |component: &str| host.files.iter().find(|f| f.globs_in("plugin").any(|p| p.component.as_deref() == Some(component)));
        // The file a component names, or a Markdown file below a folder one names whose name is
        // the kind's file name in a plugin: a `skills` path names skill folders, and only their
        // `SKILL.md` is a skill (not a skill's README or references).
        let named = || self.components.get(rel).and_then(|c| of(c));
        let below = || {
            let component = ancestors(rel).find_map(|dir| self.components.get(dir))?;
            let spec = of(component).filter(|spec| spec.format == Format::Markdown && rel.ends_with(".md"))?;
            let name = rel.rsplit('/').next().unwrap_or(rel);
            let named_so = |glob: &str| glob.rsplit('/').next().is_some_and(|last| last.contains('*') || last == name);
            spec.globs_in("plugin").any(|p| p.component.as_deref() == Some(component.as_str()) && named_so(&p.glob)).then_some(spec)
        };
        let Some(spec) = host.kind_at("plugin", inner).or_else(named).or_else(below) else {
            // A Markdown file directly in the plugin's skills folder: a skill no host loads.
            let (dir, name) = inner.rsplit_once('/').map_or(("", inner), |(d, n)| (&inner[..d.len() + 1], n));
            let flat = name.ends_with(".md") && skills_roots("plugin").iter().any(|root| dir == root);
            return flat.then_some(FileKind::FlatSkill);
        };
        FileKind::ALL.into_iter().find(|k| k.id() == spec.kind)
    }
}

/// The fields of a plugin manifest or marketplace entry that name paths of a kind of file
/// (`agents`, `commands`, `hooks`…: the components of Claude Code's host model), with their
/// paths: (field, index when the value is an array, path).
pub fn component_paths(manifest: &Value) -> Vec<(&'static str, Option<usize>, &str)> {
    let mut out = Vec::new();
    for key in hosts::claude_code().components("plugin") {
        match manifest.get(key) {
            Some(Value::String(s)) => out.push((key, None, s.as_str())),
            Some(Value::Array(items)) => out.extend(items.iter().enumerate().filter_map(|(i, v)| Some((key, Some(i), v.as_str()?)))),
            _ => {}
        }
    }
    out
}

/// The plugins of a project from its plugin manifests and marketplaces (`manifests`: each file's
/// kind, path and text, `None` when it could not be read): the folders holding a manifest, and
/// those the marketplaces list, each with its name and component paths. Paths that climb out of
/// the root, and files that do not parse, add nothing (a plugin's folder stays one).
fn find_plugins(root: &ProjectRoot, mut manifests: Vec<(FileKind, String, Option<SourceFile>)>) -> Plugins {
    let join = |base: &str, path: &str| {
        let joined = if base.is_empty() { path.to_string() } else { format!("{base}/{path}") };
        root.normalize(&joined).ok().filter(|p| !p.starts_with(".."))
    };
    let mut plugins: HashMap<String, Plugin> = HashMap::new();
    let mut add = |dir: String, name: Option<&str>, manifest: &Value| {
        let components = component_paths(manifest).into_iter().filter_map(|(key, _, path)| Some((join(&dir, path)?, key.to_string())));
        match plugins.get_mut(&dir) {
            Some(known) => known.components.extend(components),
            None => {
                let components = components.collect();
                let folder = dir.rsplit('/').next().unwrap_or_default().to_string();
                let name = name.filter(|n| !n.is_empty()).map(str::to_string).unwrap_or_else(|| match folder.is_empty() {
                    true => root.canonical().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
                    false => folder,
                });
                plugins.insert(dir.clone(), Plugin { rel: dir, name, components });
            }
        }
    };
    // Manifests first (their names win over a marketplace entry's), each in path order.
    manifests.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    for (kind, rel, file) in &manifests {
        // Parsed once: the file's `Doc::json` finds it in the cache.
        let parsed = file.as_ref().map(|f| parse_json(root.cache(), &f.text));
        let value = parsed.as_deref().and_then(|v| v.as_ref().ok()).unwrap_or(&Value::Null);
        if *kind == FileKind::ClaudePlugin {
            let dir = rel.strip_suffix(plugin_marker()).unwrap_or_default().trim_end_matches('/').to_string();
            add(dir, value.get("name").and_then(Value::as_str), value);
            continue;
        }
        let plugin_root = value.pointer("/metadata/pluginRoot").and_then(Value::as_str).unwrap_or("");
        for entry in value.get("plugins").and_then(Value::as_array).into_iter().flatten() {
            let Some(source) = entry.get("source").and_then(Value::as_str) else { continue };
            let Some(dir) = marketplace_source(rel, plugin_root, source).and_then(|s| join("", &s)) else { continue };
            add(dir, entry.get("name").and_then(Value::as_str), entry);
        }
    }
    let read = manifests.into_iter().filter_map(|(_, rel, file)| Some((rel, file?))).collect();
    Plugins { by_dir: plugins.into_iter().map(|(rel, p)| (rel, Arc::new(p))).collect(), read }
}

/// The plugins of a project by folder, and the manifests read to find them (the walk takes their
/// texts from here, so each is read once).
#[derive(Default)]
struct Plugins {
    by_dir: HashMap<String, Arc<Plugin>>,
    read: HashMap<String, SourceFile>,
}

impl Plugins {
    /// The innermost plugin holding `rel`: its folders looked up from the deepest, so the work
    /// grows with the path's depth, not with the number of plugins.
    fn owner(&self, rel: &str) -> Option<&Arc<Plugin>> {
        ancestors(rel).find_map(|dir| self.by_dir.get(dir))
    }

    /// The plugin `rel` is a component of, when it is one of kind `kind`.
    fn of(&self, rel: &str, kind: FileKind) -> Option<Arc<Plugin>> {
        self.owner(rel).filter(|p| p.kind_of(rel) == Some(kind)).cloned()
    }

    /// The kind of `rel` when it is where a plugin holding it keeps files of that kind.
    fn kind_of(&self, rel: &str) -> Option<FileKind> {
        self.owner(rel)?.kind_of(rel)
    }
}

/// The folders holding `rel`, the deepest first, down to the root (``).
fn ancestors(rel: &str) -> impl Iterator<Item = &str> {
    rel.rmatch_indices('/').map(|(i, _)| &rel[..i]).chain(std::iter::once(""))
}

/// Where a plugin's manifest is, inside its folder (the host model's plugin marker).
fn plugin_marker() -> &'static str {
    let marker = hosts::claude_code().roots.get("plugin").and_then(|r| r.marker.as_deref());
    marker.expect("data/hosts/claude-code.toml names the plugin marker") // ok: embedded, tested (`the_plugin_files_are_the_host_models`)
}

/// Where a marketplace is, inside the folder it lists plugins of (the host model's path of it).
fn marketplace_file() -> &'static str {
    let spec = FileKind::ClaudeMarketplace.spec_of("claude-code");
    let glob = spec.paths.iter().find(|p| p.root == "project").map(|p| p.glob.as_str());
    glob.expect("data/hosts/claude-code.toml places the marketplace") // ok: embedded, tested (`the_plugin_files_are_the_host_models`)
}

/// The folder a marketplace entry's relative `source` names, relative to the project root (not
/// yet normalized): `./x` from the marketplace's root (the folder holding `.claude-plugin/`), a
/// bare name from `metadata.pluginRoot`; `None` for a remote source.
pub fn marketplace_source(marketplace: &str, plugin_root: &str, source: &str) -> Option<String> {
    if source.contains("://") || source.starts_with("git@") {
        return None;
    }
    let root =
        marketplace.trim_end_matches("marketplace.json").trim_end_matches('/').trim_end_matches(".claude-plugin").trim_end_matches('/');
    let base = if source.starts_with("./") || plugin_root.is_empty() { root.to_string() } else { [root, plugin_root].join("/") };
    Some([base.trim_matches('/'), source].iter().filter(|p| !p.is_empty()).copied().collect::<Vec<_>>().join("/"))
}

/// A SKILL.md file: its [`Doc`] and the folder holding it.
#[derive(Debug, Clone)]
pub struct SkillDoc {
    pub doc: Doc,
    /// Name of the folder holding the file.
    pub folder: String,
}

impl Deref for SkillDoc {
    type Target = Doc;

    fn deref(&self) -> &Doc {
        &self.doc
    }
}

impl SkillDoc {
    pub fn new(file: String, rel: String, text: SharedText, cache: &Arc<Cache>) -> SkillDoc {
        let folder = rel.rsplit('/').nth(1).unwrap_or_default().to_string();
        SkillDoc { doc: Doc::new(FileKind::Skill, file, rel, text, cache), folder }
    }
}

/// A static memory file.
#[derive(Debug, Clone)]
pub struct MemoryDoc {
    /// Display path.
    pub file: String,
    /// Path relative to the project root.
    pub rel: String,
    pub text: SharedText,
}

impl MemoryDoc {
    /// The file's name (the last path component).
    pub fn name(&self) -> &str {
        self.rel.rsplit('/').next().unwrap_or(&self.rel)
    }
}

/// What a zero-config walk found.
#[derive(Debug, Default)]
pub struct Found {
    pub skills: Vec<SkillDoc>,
    pub memory: Vec<MemoryDoc>,
    /// Every other kind of agent file, in path order.
    pub files: Vec<Doc>,
    pub sources: Sources,
    /// Files that could not be read (exit 2).
    pub problems: Vec<Diagnostic>,
    /// Links not followed: out of the directory, to nothing, or past the walk's budget.
    pub warnings: Vec<Diagnostic>,
    /// Files whose reading failed inside ctxc (MAN015: a bug; exit 2).
    pub failed: Vec<Diagnostic>,
}

impl Found {
    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
            && self.memory.is_empty()
            && self.files.is_empty()
            && self.problems.is_empty()
            && self.warnings.is_empty()
            && self.failed.is_empty()
    }

    fn add(&mut self, root: &ProjectRoot, kind: FileKind, rel: String, text: SharedText, plugin: Option<Arc<Plugin>>) {
        let display = root.display_path(&rel);
        self.sources.insert_shared(&display, text.clone());
        match kind {
            FileKind::Skill => {
                let mut skill = SkillDoc::new(display, rel, text, root.cache());
                skill.doc.plugin = plugin;
                if skill.folder.is_empty() {
                    // SKILL.md at the root: its folder is the root directory itself.
                    skill.folder = root.canonical().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                }
                self.skills.push(skill);
            }
            FileKind::Memory => self.memory.push(MemoryDoc { file: display, rel, text }),
            kind => self.files.push(Doc { plugin, ..Doc::new(kind, display, rel, text, root.cache()) }),
        }
    }

    /// Display paths of every file found, sorted.
    pub fn paths(&self) -> Vec<String> {
        let skills = self.skills.iter().map(|s| s.file.clone());
        let mut paths: Vec<String> =
            skills.chain(self.memory.iter().map(|m| m.file.clone())).chain(self.files.iter().map(|f| f.file.clone())).collect();
        paths.sort();
        paths
    }
}

/// What a panic said (its message when it was a string).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
        (Some(message), _) => message.to_string(),
        (_, Some(message)) => message.clone(),
        _ => "no message".to_string(),
    }
}

/// The finding for a panic (a bug in ctxc) while `during` (`rule SKILL017`, `reading the file`)
/// on a file (MAN015).
pub fn internal_error(file: &str, during: &str, message: &str) -> Diagnostic {
    let d = Diagnostic::error(format!("internal error in ctxc ({during}): {message}"))
        .code(Code::MAN015)
        .label("ctxc failed while checking this file")
        .help("this is a bug in ctxc, not in the file: please report it with this message and the file; the other files were checked");
    match file.is_empty() {
        true => d,
        false => d.in_file(file).at(Some(0..0)),
    }
}

/// The path of a display path relative to the root (`None` when it is not under the root).
pub fn rel_of<'a>(root: &ProjectRoot, display: &'a str) -> Option<&'a str> {
    let base = root.display().to_string_lossy().replace('\\', "/");
    let base = base.trim_end_matches('/');
    if base.is_empty() || base == "." {
        return Some(display);
    }
    display.strip_prefix(base).and_then(|rest| rest.strip_prefix('/'))
}

/// The SKILL.md files loading read, in path order.
pub fn skills_in(root: &ProjectRoot, sources: &Sources) -> Vec<SkillDoc> {
    sources
        .iter_shared()
        .filter(|(display, _)| FileKind::of(display) == Some(FileKind::Skill))
        .filter_map(|(display, text)| {
            let rel = rel_of(root, display)?;
            Some(SkillDoc::new(display.to_string(), rel.to_string(), text.clone(), root.cache()))
        })
        .collect()
}

/// Walks `root` for every agent file ([`FileKind::of`], and the files of the Claude Code plugins
/// in it), or reads only `only` (a file named alone). Symbolic links are followed only when they
/// lead inside the root (`walk`); a file reached twice as the same kind (e.g. CLAUDE.md linking
/// to AGENTS.md) is linted once, under its own name. Files whose canonical path is in `seen` (read
/// by an agent) are skipped.
pub fn discover(root: &ProjectRoot, only: Option<Named>, seen: HashSet<std::path::PathBuf>) -> Found {
    let mut found = Found::default();
    let mut candidates: Vec<(String, FileKind, bool)> = Vec::new();
    // Files a plugin may hold under a name no other product reads (`agents/x.md`, `hooks/hooks.json`).
    let mut loose: Vec<(String, bool)> = Vec::new();
    // A file named alone was found by no walk.
    let only_named = only.is_some();
    let mut plugins = match only {
        Some(named) => {
            candidates.push((named.rel, named.kind, false));
            named.plugins
        }
        None => {
            walk(root, &mut found, &mut candidates, &mut loose);
            walked_plugins(root, &candidates)
        }
    };
    candidates.extend(loose.into_iter().filter_map(|(rel, link)| Some((rel.clone(), plugins.kind_of(&rel)?, link))));
    let mut read = std::mem::take(&mut plugins.read);
    // Regular files first, so a link to a file already read is the one skipped.
    candidates.sort_by(|a, b| a.2.cmp(&b.2).then_with(|| a.0.cmp(&b.0)));
    // A file reached under two names is read once per kind: a Windsurf rule that links to a
    // SKILL.md is read by Windsurf as a rule, and CLAUDE.md linking to AGENTS.md is one memory file.
    let mut linted: HashSet<(std::path::PathBuf, FileKind)> = HashSet::new();
    for (rel, kind, is_link) in candidates {
        let display = root.display_path(&rel);
        // A file the walk found under no link is where its path says: no lookup for it.
        let canonical = if is_link || only_named { root.resolve(&rel) } else { Ok(root.walked(&rel)) };
        if let Ok(canonical) = canonical {
            if seen.contains(&canonical) || !linted.insert((canonical, kind)) {
                continue;
            }
        }
        let file = match read.remove(&rel).map_or_else(|| root.read(&rel), Ok) {
            Ok(file) => file,
            Err(e @ ReadError::Escapes(_)) if is_link => {
                let message = format!("{} (a link leading out of the directory is not followed)", e.message());
                found.warnings.push(Diagnostic::warning(message).code(Code::MAN003).in_file(display));
                continue;
            }
            Err(ReadError::Missing(_)) if is_link => {
                // A dangling link: the product reads nothing there either; the rest is checked.
                let message = format!("`{display}` is a symbolic link to a file that does not exist: nothing is read from it");
                let help = "point the link at an existing file, or delete it";
                found.warnings.push(Diagnostic::warning(message).code(Code::MAN002).in_file(display).help(help));
                continue;
            }
            Err(e) => {
                found.problems.push(e.into_diagnostic().in_file(display));
                continue;
            }
        };
        // A panic reading one file (a bug) costs only that file.
        // A file is a plugin's when it is where the plugin keeps files of its kind.
        let plugin = plugins.of(&rel, kind);
        let added = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| found.add(root, kind, rel, file.text, plugin)));
        if let Err(payload) = added {
            found.failed.push(internal_error(&display, "reading the file", &panic_message(&*payload)));
        }
    }
    found.skills.sort_by(|a, b| a.rel.cmp(&b.rel));
    found.memory.sort_by(|a, b| a.rel.cmp(&b.rel));
    found.files.sort_by(|a, b| a.rel.cmp(&b.rel));
    found
}

/// The candidates of a walk of `root`: `(path, kind, reached through a link)` for every file of a
/// kind, and `(path, through a link)` for the other `.md` and `.json` files (a plugin may hold
/// them). Hosts follow links to folders (OpenCode scans its agent and command folders with
/// `symlink: true`, see `data/hosts/opencode.toml`), so a link to a folder inside the root is
/// walked under the link's name. One that leads out of the root is never followed, and one that
/// leads nowhere is skipped; both are reported where a host reads a folder ([`host_folder`]).
/// Returns how many entries were walked through links: at most [`LINKED_WALKS`] times what the
/// root's own walk holds, so links (a loop, a chain, many links to one big folder) keep the work
/// linear.
fn walk(root: &ProjectRoot, found: &mut Found, candidates: &mut Vec<(String, FileKind, bool)>, loose: &mut Vec<(String, bool)>) -> usize {
    let base = root.display();
    let mut links = std::collections::VecDeque::new();
    // The targets walked through links.
    let mut walked = BTreeSet::new();
    let (mut own, mut through_links, mut walking) = (0usize, 0usize, None::<FolderLink>);
    loop {
        let start = walking.as_ref().map_or_else(|| base.to_path_buf(), |link| base.join(&link.rel));
        let key = walking.as_ref().map_or_else(|| root.canonical().to_path_buf(), |link| link.target.clone());
        // A link walked is followed at its start, never below it.
        let flow = folders::walk(root.listings(), &start, &key, usize::MAX, &mut |step| {
            if let Step::Entry { name, depth, file_type, .. } = step {
                if depth > 0 && file_type.is_dir() && matches!(name.to_str(), Some(".git" | "node_modules" | "target")) {
                    return Next::Skip;
                }
            }
            match &walking {
                None => own += 1,
                Some(_) if through_links >= LINKED_WALKS * own => {
                    let message = "links to folders lead to more files than the project holds: the rest are not followed";
                    found.warnings.push(Diagnostic::warning(message).code(Code::MAN003));
                    return Next::Stop;
                }
                Some(_) => through_links += 1,
            }
            let (path, file_type) = match step {
                Step::Entry { path, file_type, .. } => (path, file_type),
                Step::Unreadable { path, error } => {
                    // A folder the walk cannot enter (permissions, a path too long for the
                    // system) is named, never skipped in silence.
                    found.problems.push(walk_error(root, base, path, error));
                    return Next::Enter;
                }
            };
            if file_type.is_dir() {
                return Next::Enter;
            }
            let Ok(rel) = path.strip_prefix(base) else { return Next::Enter };
            let utf8 = rel.to_str().is_some();
            let rel = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            let is_link = walking.is_some() || file_type.is_symlink();
            let kind = FileKind::of(&rel);
            // Only a link costs more than the walk's own reads: where it leads.
            if file_type.is_symlink() && kind.is_none() && utf8 && folder_link(root, &rel, walking.as_ref(), found, &mut links) {
                return Next::Enter;
            }
            match (kind, utf8) {
                (Some(kind), true) => candidates.push((rel, kind, is_link)),
                (Some(_), false) => found.problems.push(ReadError::NameNotUtf8(root.display_path(&rel)).into_diagnostic()),
                (None, true) if rel.ends_with(".md") || rel.ends_with(".json") => loose.push((rel, is_link)),
                (None, _) => {}
            }
            Next::Enter
        });
        if flow.is_break() {
            return through_links;
        }
        // A link found through another link is walked only to a folder not walked yet, so links
        // that lead into each other end.
        walking = loop {
            match links.pop_front() {
                None => return through_links,
                Some(link) if link.nested && walked.contains(&link.target) => {}
                Some(link) => {
                    walked.insert(link.target.clone());
                    break Some(link);
                }
            }
        };
    }
}

/// Whether the link at `rel` (found by the walk of the link `walking`, or of the root) is a link to a folder, or a link a host would read a folder through: one leading to a
/// folder inside the root is queued in `links` unless it leads back up to a folder holding it (a
/// loop); one leading out of the root or nowhere is reported where a host reads a folder.
fn folder_link(
    root: &ProjectRoot,
    rel: &str,
    walking: Option<&FolderLink>,
    found: &mut Found,
    links: &mut std::collections::VecDeque<FolderLink>,
) -> bool {
    let display = root.display_path(rel);
    let target = match root.resolve(rel) {
        Ok(target) if target.is_dir() => target,
        Ok(_) => return false,
        Err(e @ ReadError::Escapes(_)) if host_folder(rel) => {
            let message = format!("{} (a link leading out of the directory is not followed)", e.message());
            found.warnings.push(Diagnostic::warning(message).code(Code::MAN003).in_file(display));
            return true;
        }
        Err(e) if host_folder(rel) => {
            let why = match e {
                ReadError::Missing(_) => "does not exist".to_string(),
                e => format!("cannot be followed: {}", e.message()),
            };
            let message = format!("`{display}` is a symbolic link to a folder that {why}: the host reads nothing there");
            let help = "point the link at an existing folder inside the project, or delete it";
            found.warnings.push(Diagnostic::warning(message).code(Code::MAN002).in_file(display).help(help));
            return true;
        }
        Err(_) => return false,
    };
    // Where the link itself is: below its walk's target, or below the root.
    let place = match walking {
        Some(link) => link.target.join(rel.strip_prefix(link.rel.as_str()).unwrap_or(rel).trim_start_matches('/')),
        None => root.canonical().join(rel),
    };
    if !place.starts_with(&target) {
        links.push_back(FolderLink { rel: rel.to_string(), target, nested: walking.is_some() });
    }
    true
}

/// How many times its own entries a walk may visit again through links to folders: room for
/// several hosts' folders linked to one shared folder (Fisherk2's workspace, in the fifth
/// precision sample, links `skills/` from two hosts and `commands/` from two).
const LINKED_WALKS: usize = 4;

/// A link to a folder inside the root that [`walk`] follows.
struct FolderLink {
    /// The link's path, relative to the root.
    rel: String,
    /// Where it leads (canonical).
    target: std::path::PathBuf,
    /// Whether the walk found it through another link.
    nested: bool,
}

/// Whether a host reads files in a folder at `rel`: a file in it, or in its `agents`, `commands`
/// or `rules` folder, has a kind, or it is a `skills` folder in a product's dot-folder
/// (`.claude/skills`, `.opencode/skills`).
fn host_folder(rel: &str) -> bool {
    let (parent, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    let dot_parent = parent.rsplit('/').next().is_some_and(|p| p.starts_with('.'));
    (name == "skills" && dot_parent)
        || ["x.md", "x.mdc", "agents/x.md", "commands/x.md", "rules/x.md"].iter().any(|p| FileKind::of(&format!("{rel}/{p}")).is_some())
}

/// The plugins of the files a walk found: the folders of its plugin manifests and those its
/// marketplaces list (links aside: a link's target is read under its own name).
fn walked_plugins(root: &ProjectRoot, candidates: &[(String, FileKind, bool)]) -> Plugins {
    let manifests = candidates
        .iter()
        .filter(|(_, kind, link)| matches!(kind, FileKind::ClaudePlugin | FileKind::ClaudeMarketplace) && !link)
        .map(|(rel, kind, _)| (*kind, rel.clone(), root.read(rel).ok()))
        .collect();
    find_plugins(root, manifests)
}

/// A file named alone (`ctxc check FILE`, or a text given as `--stdin-filename FILE`) with its
/// kind as a walk of the root finds it: by its path, else by where the Claude Code plugin holding
/// it keeps files of that kind; any other JSON file named alone is read as tool definitions.
pub struct Named {
    /// Path relative to the root.
    pub rel: String,
    pub kind: FileKind,
    /// The plugins of the folders holding it.
    plugins: Plugins,
}

impl Named {
    /// The file at `rel` under `root` (`text`: its text when it is given rather than read), or
    /// `None` when it is no agent file ctxc knows. The plugins are those whose manifest or
    /// marketplace is in one of its folders, each manifest read once.
    pub fn find(root: &ProjectRoot, rel: &str, text: Option<&str>) -> Option<Named> {
        let mut manifests = Vec::new();
        for dir in ancestors(rel) {
            for (kind, name) in [(FileKind::ClaudePlugin, plugin_marker()), (FileKind::ClaudeMarketplace, marketplace_file())] {
                let path = if dir.is_empty() { name.to_string() } else { format!("{dir}/{name}") };
                let read = match text.filter(|_| path == rel) {
                    Some(text) => Ok(SourceFile { display: root.display_path(rel), rel: path.clone(), text: SharedText::new(text) }),
                    None => root.read(&path),
                };
                let file = match read {
                    Ok(file) => Some(file),
                    Err(ReadError::Missing(_) | ReadError::NotAFile(_) | ReadError::Escapes(_)) => continue,
                    // There, but unreadable: its folder is a plugin all the same.
                    Err(_) => None,
                };
                manifests.push((kind, path, file));
            }
        }
        let plugins = find_plugins(root, manifests);
        let kind =
            FileKind::of(rel).or_else(|| plugins.kind_of(rel)).or_else(|| rel.ends_with(".json").then_some(FileKind::ToolDefinitions))?;
        Some(Named { rel: rel.to_string(), kind, plugins })
    }
}

/// The folder to check a file named on the command line from, and the file's path there: the
/// outermost folder above it holding a Claude Code plugin manifest or marketplace (no higher
/// than a search for its agent climbs, [`crate::project::levels_up_within_project`], nor above
/// the path as written), so that the file is read as a check of that folder reads it; else the
/// file's own folder.
pub fn checked_from(file: &std::path::Path) -> (std::path::PathBuf, String) {
    use std::path::Path;
    let parent = file.parent().unwrap_or(Path::new(""));
    let levels = crate::project::levels_up_within_project(if parent.as_os_str().is_empty() { Path::new(".") } else { parent });
    let holds = |dir: &Path| {
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        [plugin_marker(), marketplace_file()].iter().any(|m| dir.join(m).is_file())
    };
    let dirs = parent.ancestors().take(levels + 1).take_while(|d| !d.ends_with(".."));
    let dir = dirs.filter(|d| holds(d)).last().unwrap_or(parent);
    let rel = file.strip_prefix(dir).unwrap_or(file).to_string_lossy().replace('\\', "/");
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    (dir.to_path_buf(), rel)
}

/// The problem for a part of the tree a walk could not read, at the deepest path it names.
fn walk_error(root: &ProjectRoot, base: &std::path::Path, path: &std::path::Path, error: &std::io::Error) -> Diagnostic {
    let path = path.strip_prefix(base).unwrap_or(path);
    let rel = path.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
    let reason = error.to_string();
    let display = root.display_path(&rel);
    ReadError::Unreadable { path: display.clone(), reason: format!("{reason}; the files below it were not checked") }
        .into_diagnostic()
        .in_file(display)
}

/// One file whose text is given rather than read (`ctxc check -` reads it from stdin), as if
/// found at its path under the root.
pub fn given(root: &ProjectRoot, named: Named, text: &str) -> Found {
    let mut found = Found::default();
    let plugin = named.plugins.of(&named.rel, named.kind);
    found.add(root, named.kind, named.rel, SharedText::new(text), plugin);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_of_keys_and_values() {
        let text = "---\nname: pdf-tools\ndescription: >-\n  Folded.\nname2: x\n---\nname: in the body\n";
        let doc = SkillDoc::new("s/pdf/SKILL.md".into(), "s/pdf/SKILL.md".into(), SharedText::new(text), &Arc::default());
        assert_eq!(doc.folder, "pdf");
        assert_eq!(doc.key_span("name").map(|r| &text[r]), Some("name"));
        assert_eq!(doc.value_span("name").map(|r| &text[r]), Some("pdf-tools"));
        assert_eq!(doc.value_span("description").map(|r| &text[r]), Some("description"));
        assert_eq!(doc.key_span("missing"), None);
        // The shapes that crashed `value_span`: an empty value followed by a space.
        for key in ["globs", "description", "applyTo"] {
            let text = format!("---\n{key}: \nname: x\n---\nBody\n");
            let doc = Doc::new(FileKind::CursorRule, "r.mdc".into(), "r.mdc".into(), SharedText::new(&text), &Arc::default());
            assert_eq!(doc.value_span(key).map(|r| &text[r]), Some(key));
        }
        assert_eq!(doc.body(), "name: in the body\n");
    }

    #[test]
    fn ids_are_the_json_names_and_every_host_file_kind_is_one() {
        for kind in FileKind::ALL {
            assert_eq!(serde_json::to_value(kind).expect("a name"), Value::String(kind.id().into()));
        }
        for host in crate::hosts::all() {
            for spec in &host.files {
                assert!(FileKind::ALL.iter().any(|k| k.id() == spec.kind), "{}: kind `{}` is no FileKind", host.id, spec.kind);
            }
            for v in &host.variables {
                for kind in &v.kinds {
                    assert!(FileKind::ALL.iter().any(|k| k.id() == kind), "{}: variable {} in kind `{kind}`", host.id, v.name);
                }
            }
        }
    }

    #[test]
    fn every_kind_a_rule_asks_a_host_for_is_in_its_file() {
        // The `spec_of` calls of src/rules.
        for (kind, host) in [
            (FileKind::ClineRule, "cline"),
            (FileKind::CodexConfig, "codex"),
            (FileKind::CodexAgent, "codex"),
            (FileKind::KiroHooks, "kiro"),
            (FileKind::GeminiExtension, "gemini-cli"),
            (FileKind::KiroSteering, "kiro"),
            (FileKind::OpencodeAgent, "opencode"),
            (FileKind::WindsurfWorkflow, "windsurf"),
            (FileKind::OpencodeCommand, "opencode"),
            (FileKind::WindsurfRule, "windsurf"),
            (FileKind::ClaudePlugin, "claude-code"),
            (FileKind::ClaudeAgent, "claude-code"),
            (FileKind::ClaudeSettings, "claude-code"),
            (FileKind::ClaudeCommand, "claude-code"),
        ] {
            assert_eq!(kind.spec_of(host).kind, kind.id());
        }
    }

    #[test]
    fn opencode_agents_and_commands_are_found_where_its_model_says() {
        let opencode = crate::hosts::host("opencode").expect("embedded");
        let cases = [
            (".opencode/agents/review.md", Some(FileKind::OpencodeAgent)),
            (".opencode/agent/team/plan.md", Some(FileKind::OpencodeAgent)),
            ("web/.opencode/agents/docs.md", Some(FileKind::OpencodeAgent)),
            (".opencode/commands/test.md", Some(FileKind::OpencodeCommand)),
            (".opencode/command/git/ship.md", Some(FileKind::OpencodeCommand)),
            (".opencode/tools/search.ts", None),
            (".opencode/agents/notes.txt", None),
            ("opencode.jsonc", Some(FileKind::OpencodeConfig)),
            ("opencode.json", Some(FileKind::OpencodeConfig)),
            (".opencode/opencode.jsonc", Some(FileKind::OpencodeConfig)),
            ("web/opencode.json", Some(FileKind::OpencodeConfig)),
            ("opencode.headless.json", None),
        ];
        for (rel, kind) in cases {
            assert_eq!(FileKind::of(rel), kind, "{rel}");
            // The host model's project globs say the same (nested projects aside).
            if !rel.starts_with("web/") {
                assert_eq!(opencode.kind_at("project", rel).map(|s| s.kind.as_str()), kind.map(FileKind::id), "{rel}");
            }
        }
    }

    #[test]
    fn cline_and_claude_folders_are_whole_folders_and_their_exclusions_hold() {
        for (rel, kind) in [
            (".clinerules/style.md", Some(FileKind::ClineRule)),
            ("web/.clinerules/style.md", Some(FileKind::ClineRule)),
            (".cline/rules/x.md", Some(FileKind::ClineRule)),
            (".clinerules", Some(FileKind::ClineRule)),
            // Cline's workflows and hooks are not rules.
            (".clinerules/workflows/x.md", None),
            (".clinerules/hooks/x.md", None),
            ("web/.cline/rules/workflows/x.md", None),
            // A folder whose name only ends so is another folder.
            ("x.clinerules/style.md", None),
            ("my.claude/agents/a.md", None),
            (".claude/output-styles/x.md", Some(FileKind::ClaudeOutputStyle)),
            ("app/.claude/agents/a.md", Some(FileKind::ClaudeAgent)),
        ] {
            assert_eq!(FileKind::of(rel), kind, "{rel}");
        }
    }

    #[test]
    fn windsurf_rules_are_found_where_its_model_says() {
        let windsurf = crate::hosts::host("windsurf").expect("embedded");
        for (rel, kind) in [
            (".windsurf/rules/style.md", Some(FileKind::WindsurfRule)),
            ("api/.windsurf/rules/sql.md", Some(FileKind::WindsurfRule)),
            (".windsurf/workflows/release.md", Some(FileKind::WindsurfWorkflow)),
            ("api/.windsurf/workflows/deploy.md", Some(FileKind::WindsurfWorkflow)),
            (".windsurf/workflows/notes.txt", None),
            (".windsurf/hooks.json", Some(FileKind::WindsurfHooks)),
            (".windsurf/rules/hooks.json", None),
        ] {
            assert_eq!(FileKind::of(rel), kind, "{rel}");
            assert_eq!(windsurf.kind_at("project", rel).map(|s| s.kind.as_str()), kind.map(FileKind::id), "{rel}");
        }
        // Windsurf reads the folder's own files, not its subfolders' (the model's globs let `*`
        // cross `/`, as every host file's do).
        assert_eq!(FileKind::of(".windsurf/rules/nested/deep.md"), None);
        assert_eq!(FileKind::of(".windsurf/workflows/nested/deep.md"), None);
    }

    #[test]
    fn codex_agents_are_found_where_its_model_says() {
        let codex = crate::hosts::host("codex").expect("embedded");
        for (rel, kind) in [
            (".codex/agents/reviewer.toml", Some(FileKind::CodexAgent)),
            (".codex/agents/team/planner.toml", Some(FileKind::CodexAgent)),
            ("app/.codex/agents/reviewer.toml", Some(FileKind::CodexAgent)),
            (".codex/agents/reviewer.md", None),
            (".codex/config.toml", Some(FileKind::CodexConfig)),
            ("my.codex/agents/reviewer.toml", None),
        ] {
            assert_eq!(FileKind::of(rel), kind, "{rel}");
        }
        for rel in [".codex/agents/reviewer.toml", ".codex/agents/team/planner.toml"] {
            assert_eq!(codex.kind_at("project", rel).map(|s| s.kind.as_str()), Some("codex-agent"), "{rel}");
        }
    }

    #[test]
    fn kiro_hooks_are_found_where_its_model_says() {
        let kiro = crate::hosts::host("kiro").expect("embedded");
        for (rel, kind) in [
            (".kiro/hooks/lint.json", Some(FileKind::KiroHooks)),
            ("web/.kiro/hooks/lint.json", Some(FileKind::KiroHooks)),
            (".kiro/hooks/lint.kiro.hook", None),
            (".kiro/hooks/sub/lint.json", None),
            (".kiro/settings/mcp.json", None),
        ] {
            assert_eq!(FileKind::of(rel), kind, "{rel}");
        }
        assert_eq!(kiro.kind_at("project", ".kiro/hooks/lint.json").map(|s| s.kind.as_str()), Some("kiro-hooks"));
    }

    #[test]
    fn flat_files_in_the_host_models_skills_folders_are_their_own_kind() {
        // The folders come from the host models' skill paths, not from a list here.
        assert_eq!(skills_roots("project"), [".agents/skills/", ".claude/skills/", ".codex/skills/", ".gemini/skills/"]);
        assert_eq!(skills_roots("plugin"), ["skills/"]);
        for (rel, kind) in [
            (".claude/skills/build.md", Some(FileKind::FlatSkill)),
            ("web/.claude/skills/build.md", Some(FileKind::FlatSkill)),
            (".agents/skills/triage.md", Some(FileKind::FlatSkill)),
            (".codex/skills/triage.md", Some(FileKind::FlatSkill)),
            (".claude/skills/build/SKILL.md", Some(FileKind::Skill)),
            (".claude/skills/CLAUDE.md", Some(FileKind::Memory)),
            // A skill's own files, another folder, a folder only named alike, another extension.
            (".claude/skills/build/notes.md", None),
            (".claude/skill/build.md", None),
            ("x.claude/skills/build.md", None),
            (".claude/skills/build.txt", None),
            // A plugin's skills folder is known by its plugin, not by its path alone.
            ("skills/build.md", None),
        ] {
            assert_eq!(FileKind::of(rel), kind, "{rel}");
        }
        let project = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(project.path().join("plug/.claude-plugin")).expect("mkdir");
        std::fs::create_dir_all(project.path().join("plug/skills/deploy")).expect("mkdir");
        std::fs::write(project.path().join("plug/.claude-plugin/plugin.json"), "{\"name\": \"plug\"}\n").expect("write");
        std::fs::write(project.path().join("plug/skills/deploy.md"), "---\nname: deploy\n---\nDeploy.\n").expect("write");
        std::fs::write(project.path().join("plug/skills/deploy/SKILL.md"), "---\nname: deploy\n---\nDeploy.\n").expect("write");
        std::fs::write(project.path().join("plug/skills/deploy/notes.md"), "Notes.\n").expect("write");
        let root = ProjectRoot::new(project.path()).expect("root");
        let found = discover(&root, None, HashSet::new());
        let flat: Vec<(&str, bool)> =
            found.files.iter().filter(|d| d.kind == FileKind::FlatSkill).map(|d| (d.rel.as_str(), d.plugin.is_some())).collect();
        assert_eq!(flat, [("plug/skills/deploy.md", true)]);
        assert_eq!(found.skills.iter().map(|s| s.rel.as_str()).collect::<Vec<_>>(), ["plug/skills/deploy/SKILL.md"]);
    }

    #[test]
    fn the_plugin_files_are_the_host_models() {
        assert_eq!(FileKind::of(plugin_marker()), Some(FileKind::ClaudePlugin));
        assert_eq!(FileKind::of(marketplace_file()), Some(FileKind::ClaudeMarketplace));
    }

    /// Finding the plugins parses each manifest once, into the run's cache, where the manifest's
    /// own `Doc::json` finds it.
    #[test]
    fn plugin_manifests_are_parsed_once_into_the_cache() {
        let project = tempfile::tempdir().expect("tempdir");
        let manifest = "{\"name\": \"plug\", \"agents\": \"./team\"}\n";
        std::fs::create_dir_all(project.path().join("plug/.claude-plugin")).expect("mkdir");
        std::fs::create_dir_all(project.path().join("plug/team")).expect("mkdir");
        std::fs::write(project.path().join("plug/.claude-plugin/plugin.json"), manifest).expect("write");
        std::fs::write(project.path().join("plug/team/a.md"), "---\nname: a\n---\nA.\n").expect("write");
        for alone in [false, true] {
            // A root of its own: a cache of its own.
            let root = ProjectRoot::new(project.path()).expect("root");
            let only = alone.then(|| Named::find(&root, "plug/team/a.md", None)).flatten();
            let found = discover(&root, only, HashSet::new());
            let parsed: Option<ParsedJson> = root.cache().get(Kind::Json, crate::memo::content_hash(manifest));
            assert!(parsed.is_some_and(|p| p.is_ok()), "the manifest was parsed into the cache");
            let agent = found.files.iter().find(|d| d.rel == "plug/team/a.md").expect("the plugin's agent is found");
            assert_eq!((agent.kind, agent.plugin.as_ref().map(|p| p.name.as_str())), (FileKind::ClaudeAgent, Some("plug")));
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_walk_names_a_path_that_is_not_utf8() {
        use std::os::unix::ffi::OsStrExt;
        let project = tempfile::tempdir().expect("tempdir");
        let dir = project.path().join(std::ffi::OsStr::from_bytes(b"d\xffx"));
        std::fs::create_dir(&dir).expect("mkdir");
        std::fs::write(dir.join("AGENTS.md"), "Notes.").expect("write");
        let found = discover(&ProjectRoot::new(project.path()).expect("root"), None, HashSet::new());
        assert!(found.memory.is_empty());
        let messages: Vec<&str> = found.problems.iter().map(|d| d.message.as_str()).collect();
        assert!(matches!(messages[..], [m] if m.contains("d\u{FFFD}x/AGENTS.md` is not valid UTF-8")), "{messages:?}");
    }

    /// The entries a walk visits through links to folders, and the files it finds: a loop, a
    /// chain of links, links that lead into each other and many links to one folder cost a bounded
    /// number of entries, counted (not timed).
    #[cfg(unix)]
    #[test]
    fn links_to_folders_are_walked_with_bounded_work() {
        use std::os::unix::fs::symlink;
        let walked = |build: &dyn Fn(&std::path::Path)| {
            let project = tempfile::tempdir().expect("tempdir");
            let agents = project.path().join("shared/agents");
            std::fs::create_dir_all(&agents).expect("mkdir");
            for i in 0..10 {
                std::fs::write(agents.join(format!("a{i}.md")), "---\ndescription: x\n---\nBody.\n").expect("write");
            }
            build(project.path());
            let root = ProjectRoot::new(project.path()).expect("root");
            let (mut found, mut candidates, mut loose) = (Found::default(), Vec::new(), Vec::new());
            let through = walk(&root, &mut found, &mut candidates, &mut loose);
            let agents = candidates.iter().filter(|c| c.1 == FileKind::OpencodeAgent).count();
            (through, agents, found.warnings.len())
        };
        let mkdir = |p: &std::path::Path| std::fs::create_dir_all(p).expect("mkdir");
        // One link: its folder and its ten files are walked once.
        let one = |p: &std::path::Path| {
            mkdir(&p.join(".opencode"));
            symlink("../shared/agents", p.join(".opencode/agents")).expect("link");
        };
        assert_eq!(walked(&one), (11, 10, 0));
        // A loop back up to the root, and a link to the folder holding it: seen, never followed.
        let loops = |p: &std::path::Path| {
            one(p);
            symlink("../..", p.join("shared/agents/up")).expect("link");
            symlink(".", p.join("shared/agents/here")).expect("link");
        };
        assert_eq!(walked(&loops), (13, 10, 0));
        // A chain of 30 links to the folder: followed once, to its end.
        let chain = |p: &std::path::Path| {
            mkdir(&p.join(".opencode"));
            for i in 0..30 {
                symlink(format!("l{}", i + 1), p.join(format!("l{i}"))).expect("link");
            }
            symlink("shared/agents", p.join("l30")).expect("link");
            symlink("../l0", p.join(".opencode/agents")).expect("link");
        };
        let (through, agents, _) = walked(&chain);
        assert_eq!(agents, 10);
        assert!(through <= 32 * 11, "{through}");
        // Two folders linking into each other, below a host folder: each walked once through links.
        let mutual = |p: &std::path::Path| {
            one(p);
            mkdir(&p.join("x"));
            symlink("../../x", p.join("shared/agents/to-x")).expect("link");
            symlink("../shared/agents", p.join("x/to-agents")).expect("link");
        };
        let (through, agents, warnings) = walked(&mutual);
        assert_eq!((agents, warnings), (10, 0));
        assert!(through <= 2 * 14, "{through}");
        // 20 links to one folder of 110 files: the walk stops at its budget, with a warning.
        let fan = |p: &std::path::Path| {
            for i in 0..100 {
                std::fs::write(p.join(format!("shared/agents/b{i}.md")), "B.\n").expect("write");
            }
            for i in 0..20 {
                mkdir(&p.join(format!("h{i}/.opencode")));
                symlink("../../shared/agents", p.join(format!("h{i}/.opencode/agents"))).expect("link");
            }
        };
        let (through, _, warnings) = walked(&fan);
        // The root, shared/, agents/ and its 110 files; each h{i}, its .opencode and its link.
        let own = 3 + 110 + 20 * 3;
        assert_eq!((through, warnings), (LINKED_WALKS * own, 1));
    }
}
