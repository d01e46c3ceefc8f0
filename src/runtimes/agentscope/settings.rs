//! The `[agentscope]` section as written, laid over the preset's, and its validation into
//! [`Settings`], each value with where it came from.

#[cfg(test)]
use schemars::JsonSchema;
use serde::Deserialize;

use super::window as agentscope;
use super::window::Settings;
use crate::provenance::{take, Overlay, PresetRef, Provenance, Section, Setting, Spanned};
use crate::runtimes::{AddedTool, AgentFacts};
use crate::tools::Tool;

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawAgentScope {
    /// The AgentScope release modelled: "1.0.21" (`ReActAgent`), or "2.0.6" to "2.0.11". Preset
    /// default: "2.0.11".
    #[serde(default)]
    pub version: Option<Spanned<String>>,
    /// Compress when the context exceeds this share of the model's context size (above 0, at
    /// most 0.9). Preset default: 0.8.
    #[serde(default)]
    pub trigger_ratio: Option<Spanned<f64>>,
    /// Share of the context size kept as recent messages after compression (below
    /// `trigger_ratio`). Preset default: 0.1.
    #[serde(default)]
    pub reserve_ratio: Option<Spanned<f64>>,
    /// Most tokens one tool result may take; longer results are truncated. Preset default: 50000.
    #[serde(default)]
    pub tool_result_limit: Option<Spanned<u64>>,
    /// `ContextConfig.context_buffer_ratio` (`InjectionConfig`'s before 2.0.8): must be below
    /// `trigger_ratio` when runtime state is injected. Preset default: 0.2.
    #[serde(default)]
    pub context_buffer_ratio: Option<Spanned<f64>>,
    /// `InjectionConfig.inject_runtime_state`. Preset default: true.
    #[serde(default)]
    pub inject_runtime_state: Option<Spanned<bool>>,
    /// `ContextConfig.compression_tool_enabled` (from 2.0.8): every request carries AgentScope's
    /// compression tool, read from `upstream/compression-tool.json`. Preset default: false.
    #[serde(default)]
    pub compression_tool_enabled: Option<Spanned<bool>>,
    /// The model class (e.g. `DashScopeChatModel`): its `context_size` default is the window.
    #[serde(default)]
    pub model_class: Option<Spanned<String>>,
    /// The model's `context_size`, when passed to the model class explicitly.
    #[serde(default)]
    pub context_size: Option<Spanned<u64>>,
    /// The absolute path of the project root where the agent runs: skill `<dir>` entries are
    /// this path joined with each skill's folder. Unset: the folder relative to the project root.
    #[serde(default)]
    pub project_dir: Option<Spanned<String>>,
    /// A `LocalWorkspace` offloader, whose instructions (the `workspace` step's module) follow the skills.
    #[serde(default)]
    pub workspace: Option<RawAgentScopeWorkspace>,
    /// 1.x only: `ReActAgent(compression_config=CompressionConfig(...))`. Absent: no compression.
    #[serde(default)]
    pub compression: Option<RawAgentScopeCompression>,
}

/// `ReActAgent.CompressionConfig` (agentscope 1.x), as `simulate` replays it.
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawAgentScopeCompression {
    /// `enable`: whether the agent compresses (required, as in `CompressionConfig`).
    #[serde(default)]
    pub enable: Option<Spanned<bool>>,
    /// `trigger_threshold`: compress when the messages older than the kept ones, with the system
    /// prompt, count more than this many tokens (required).
    #[serde(default)]
    pub trigger_threshold: Option<Spanned<u64>>,
    /// `keep_recent`: how many recent messages stay uncompressed. Default: `CompressionConfig`'s, 3.
    #[serde(default)]
    pub keep_recent: Option<Spanned<u64>>,
    /// `agent_token_counter`: `"openai"` (`OpenAITokenCounter`, tiktoken's encoding of the
    /// agent's model), the counter ctxc models (required).
    #[serde(default)]
    pub token_counter: Option<Spanned<String>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawAgentScopeWorkspace {
    /// The workspace's absolute path (`{workdir}` in the instructions).
    #[serde(default)]
    pub workdir: Option<Spanned<String>>,
    /// `{backend}` in the instructions. Default: "local" (`LocalWorkspace`).
    #[serde(default)]
    pub backend: Option<Spanned<String>>,
}

impl Overlay for RawAgentScope {
    fn overlay(&mut self, over: Self) {
        let Self {
            trigger_ratio,
            reserve_ratio,
            tool_result_limit,
            version,
            context_buffer_ratio,
            inject_runtime_state,
            compression_tool_enabled,
            model_class,
            context_size,
            project_dir,
            workspace,
            compression,
        } = over;
        take(&mut self.trigger_ratio, trigger_ratio);
        take(&mut self.reserve_ratio, reserve_ratio);
        take(&mut self.tool_result_limit, tool_result_limit);
        take(&mut self.version, version);
        take(&mut self.context_buffer_ratio, context_buffer_ratio);
        take(&mut self.inject_runtime_state, inject_runtime_state);
        take(&mut self.compression_tool_enabled, compression_tool_enabled);
        take(&mut self.model_class, model_class);
        take(&mut self.context_size, context_size);
        take(&mut self.project_dir, project_dir);
        take(&mut self.workspace, workspace);
        take(&mut self.compression, compression);
    }
}

/// AgentScope adds its compression tool to the toolkit on every reply, after the agent's tools,
/// when `compression_tool_enabled`.
pub fn added_tool(settings: &Settings) -> Option<AddedTool> {
    settings.compression_tool_enabled.value.then_some(AddedTool {
        category: "agentscope_compression",
        title: "AgentScope's compression tool",
        file: agentscope::COMPRESSION_TOOL_FILE,
        first: false,
    })
}

/// The compression tool as its file declares it.
pub fn shape_tool(_settings: &Settings, tool: &std::sync::Arc<Tool>) -> std::sync::Arc<Tool> {
    tool.clone()
}

/// `[agentscope]` validated.
pub fn validate(m: &mut Provenance, section: Section<'_, RawAgentScope>, agent: &AgentFacts) -> Settings {
    let from = section.from;
    let (u, p) = (section.user.cloned().unwrap_or_default(), section.preset.cloned().unwrap_or_default());
    let version = m.required("agentscope.version", u.version.as_ref(), p.version.as_ref(), from);
    let release = agentscope::release(&version.value).unwrap_or_else(|| {
        let span = u.version.as_ref().and_then(|v| m.span(v, &v.value));
        let known: Vec<&str> = agentscope::RELEASES.iter().map(|r| r.version).collect();
        m.error(format!("AgentScope release `{}` is not modelled", version.value), span).help =
            Some(format!("set `[agentscope] version` to one of {}", known.join(", ")));
        agentscope::RELEASES[agentscope::RELEASES.len() - 1]
    });
    if release.is_react_agent() {
        react_agent_refusals(m, &u, release);
    }
    let context_size = context_size(m, &u, &p, agent, release, from);
    let workspace = u.workspace.as_ref().map(|w| agentscope::Workspace {
        workdir: w.workdir.as_ref().map(|d| d.value.clone()).unwrap_or_default(),
        backend: w.backend.as_ref().map_or_else(|| "local".to_string(), |b| b.value.clone()),
    });
    if u.workspace.as_ref().is_some_and(|w| w.workdir.is_none()) {
        let span = m.locate_key(&["agentscope", "workspace"]);
        m.error("`[agentscope.workspace]` needs `workdir`, the workspace's absolute path".to_string(), span);
    }
    let compression_tool_enabled =
        m.required("agentscope.compression_tool_enabled", u.compression_tool_enabled.as_ref(), p.compression_tool_enabled.as_ref(), from);
    if compression_tool_enabled.value && !release.compression_tool {
        let span = u.compression_tool_enabled.as_ref().and_then(|c| m.span(c, &c.value.to_string()));
        m.error(format!("`compression_tool_enabled` is not in agentscope {} (ContextConfig has it from 2.0.8)", release.version), span)
            .help = Some("set `[agentscope] version` to 2.0.8 or later, or remove `compression_tool_enabled`".into());
    }
    let compression = compression(m, &u, release, from);
    Settings {
        compression,
        compression_tool_enabled,
        version,
        release,
        trigger_ratio: m.required("agentscope.trigger_ratio", u.trigger_ratio.as_ref(), p.trigger_ratio.as_ref(), from),
        reserve_ratio: m.required("agentscope.reserve_ratio", u.reserve_ratio.as_ref(), p.reserve_ratio.as_ref(), from),
        tool_result_limit: m.required("agentscope.tool_result_limit", u.tool_result_limit.as_ref(), p.tool_result_limit.as_ref(), from),
        context_buffer_ratio: m.required(
            "agentscope.context_buffer_ratio",
            u.context_buffer_ratio.as_ref(),
            p.context_buffer_ratio.as_ref(),
            from,
        ),
        inject_runtime_state: m.required(
            "agentscope.inject_runtime_state",
            u.inject_runtime_state.as_ref(),
            p.inject_runtime_state.as_ref(),
            from,
        ),
        context_size,
        project_dir: u.project_dir.as_ref().map(|d| d.value.clone()),
        workspace,
    }
}

/// What a 1.x `ReActAgent` has no counterpart for: a workspace offloader, and a model class whose
/// `context_size` default would be the window (1.x model classes have no `context_size`).
fn react_agent_refusals(m: &mut Provenance, u: &RawAgentScope, release: agentscope::Release) {
    if u.workspace.is_some() {
        let span = m.locate_key(&["agentscope", "workspace"]);
        m.error(format!("`[agentscope.workspace]` is not in agentscope {} (ReActAgent has no offloader)", release.version), span).help =
            Some("remove `[agentscope.workspace]`, or set `[agentscope] version` to a 2.0.x release".into());
    }
    if let Some(class) = &u.model_class {
        let span = m.span(class, &class.value);
        m.error(format!("agentscope {}'s model classes have no `context_size`, so `model_class` sets no window", release.version), span)
            .help = Some("remove `model_class` (the window is the model's max input tokens), or set `context_size`".into());
    }
}

/// `[agentscope.compression]`: 1.x's `CompressionConfig`, each required field written.
fn compression(m: &mut Provenance, u: &RawAgentScope, release: agentscope::Release, from: &PresetRef) -> Option<agentscope::Compression> {
    let raw = u.compression.as_ref()?;
    // The table: its first value written (a header after other tables is not found by its key).
    let written = [raw.enable.as_ref().and_then(|v| v.span.clone()), raw.trigger_threshold.as_ref().and_then(|v| v.span.clone())];
    let more = [raw.keep_recent.as_ref().and_then(|v| v.span.clone()), raw.token_counter.as_ref().and_then(|v| v.span.clone())];
    let at = written.into_iter().chain(more).flatten().min_by_key(|r| r.start).or_else(|| m.locate_key(&["agentscope", "compression"]));
    if !release.is_react_agent() {
        m.error(format!("`[agentscope.compression]` is ReActAgent's CompressionConfig, not in agentscope {}", release.version), at).help =
            Some("agentscope 2.0.x compresses at `trigger_ratio` of the context size: remove `[agentscope.compression]`".into());
        return None;
    }
    let missing = |m: &mut Provenance, key: &str, what: &str| {
        m.error(format!("`[agentscope.compression]` needs `{key}` ({what}), as CompressionConfig does"), at.clone()).help =
            Some(format!("add `{key} = ...` under `[agentscope.compression]`"));
    };
    let enable = m.pick("agentscope.compression.enable", raw.enable.as_ref(), None, from);
    let trigger_threshold = m.pick("agentscope.compression.trigger_threshold", raw.trigger_threshold.as_ref(), None, from);
    let token_counter = m.pick("agentscope.compression.token_counter", raw.token_counter.as_ref(), None, from);
    if enable.is_none() {
        missing(m, "enable", "true to compress");
    }
    if trigger_threshold.is_none() {
        missing(m, "trigger_threshold", "the token count that triggers it");
    }
    if token_counter.is_none() {
        missing(m, "token_counter", "\"openai\" for OpenAITokenCounter");
    }
    if let Some(counter) = raw.token_counter.as_ref().filter(|c| !agentscope::TOKEN_COUNTERS.contains(&c.value.as_str())) {
        let span = m.span(counter, &counter.value);
        m.unknown_in("AgentScope token counter", " that ctxc models", &counter.value, span, &agentscope::TOKEN_COUNTERS);
        return None;
    }
    let keep_recent = m.pick("agentscope.compression.keep_recent", raw.keep_recent.as_ref(), None, from).unwrap_or_else(|| Setting {
        value: release.keep_recent,
        source: format!("CompressionConfig.keep_recent's default (agentscope {})", release.version),
        key: "agentscope.compression.keep_recent".into(),
        origin: from.origin.clone(),
        note: None,
    });
    Some(agentscope::Compression { enable: enable?, trigger_threshold: trigger_threshold?, keep_recent, token_counter: token_counter? })
}

/// The model's context size: set, else the default of the model class set (or, with
/// `--model`, of that model's provider's class).
fn context_size(
    m: &mut Provenance,
    u: &RawAgentScope,
    p: &RawAgentScope,
    agent: &AgentFacts,
    release: agentscope::Release,
    from: &PresetRef,
) -> Option<Setting<u64>> {
    let mut model_class = m.pick("agentscope.model_class", u.model_class.as_ref(), p.model_class.as_ref(), from);
    let mut explicit = m.pick("agentscope.context_size", u.context_size.as_ref(), p.context_size.as_ref(), from);
    // `--model` (an override of `agent.model`) costs the agent on another model: its provider's
    // model class, with that class's default, unless the class or size is overridden too.
    if m.overridden("agent.model") && !m.overridden("agentscope.model_class") && !m.overridden("agentscope.context_size") {
        let model = agent.model;
        let class = agentscope::model_class_for(agent.provider);
        explicit = None;
        model_class = class.map(|class| Setting {
            value: class.to_string(),
            source: format!("the model class of `{model}` (--model)"),
            key: "agentscope.model_class".into(),
            origin: from.origin.clone(),
            note: None,
        });
    }
    match (explicit, model_class) {
        (Some(size), _) => Some(size),
        (None, Some(class)) => match release.model_classes().find(|c| c.0 == class.value) {
            Some((name, size)) => {
                Some(Setting { source: format!("{name}'s context_size default (agentscope {})", release.version), ..class.map(size) })
            }
            None => {
                let span = u.model_class.as_ref().and_then(|c| m.span(c, &c.value));
                let known: Vec<&str> = release.model_classes().map(|c| c.0).collect();
                m.unknown_in("AgentScope model class", &format!(" in agentscope {}", release.version), &class.value, span, &known);
                None
            }
        },
        (None, None) => None,
    }
}
