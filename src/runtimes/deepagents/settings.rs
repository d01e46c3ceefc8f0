//! The `[deepagents]` section as written, laid over the preset's, and its validation into
//! [`Settings`], each value with where it came from.

use std::ops::Range;

use indexmap::IndexMap;
#[cfg(test)]
use schemars::JsonSchema;
use serde::Deserialize;

use super::window as deepagents;
use super::window::Settings;
use crate::provenance::{overlay_opt, take, Overlay, PresetRef, Provenance, RawVersion, Section, Setting, Spanned};
use crate::runtimes::AgentFacts;

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawDeepAgents {
    /// The Deep Agents release whose prompt layout to use: `0.4` (memory after the to-do list,
    /// with the base prompt and to-do list) or `0.7` and later (memory last, no default base
    /// prompt or to-do list). Preset default: `0.4`.
    #[serde(default)]
    pub version: Option<Spanned<RawVersion>>,
    /// Tool results over this many tokens are offloaded to the filesystem (Deep Agents counts 4
    /// characters per token). Preset default: 20000.
    #[serde(default)]
    pub tool_token_limit_before_evict: Option<Spanned<u64>>,
    /// From release 0.7: human messages over this many tokens are offloaded to the filesystem.
    /// 0 switches it off. Default: 50000.
    #[serde(default)]
    pub human_message_token_limit_before_evict: Option<Spanned<u64>>,
    /// Tools that pause for human approval (`create_deep_agent(interrupt_on=...)`): tool name →
    /// `true`/`false` or `{ allowed_decisions = [...] }` (a configuration without decisions does
    /// not interrupt). Adds no prompt text: listed in the report's window.
    #[serde(default)]
    pub interrupt_on: IndexMap<String, RawInterrupt>,
    /// Where the agent's backend mounts the project directory, as paths appear in the prompt:
    /// `/` (a local FilesystemBackend, `/AGENTS.md`) or `/memories/` (the deploy template).
    /// Default: `/`.
    #[serde(default)]
    pub mount: Option<Spanned<String>>,
    /// When the conversation is summarized and how much is kept.
    #[serde(default)]
    pub summarization: Option<RawDeepAgentsSummarization>,
}

/// One `interrupt_on` entry: on/off, or an interrupt configuration (which is on).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(untagged)]
pub enum RawInterrupt {
    On(bool),
    Config(RawInterruptConfig),
}

#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawInterruptConfig {
    /// Decisions the human may take (e.g. `approve`, `edit`, `reject`).
    #[serde(default)]
    pub allowed_decisions: Vec<String>,
    /// Text shown to the human with the request.
    #[serde(default)]
    pub description: Option<String>,
    /// The JSON schema of the arguments the human may edit (LangChain `InterruptOnConfig`).
    #[serde(default)]
    pub arguments_schema: Option<serde_json::Value>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawDeepAgentsSummarization {
    /// When to summarize: `{ fraction = 0.85 }` of the model's max input tokens, `{ tokens = N }`
    /// or `{ messages = N }`. Default: `{ fraction = 0.85 }` with a model profile,
    /// `{ tokens = 170000 }` without one.
    #[serde(default)]
    pub trigger: Option<Spanned<RawContextSize>>,
    /// What to keep after summarizing, in the same units. Default: `{ fraction = 0.1 }` with a
    /// model profile, `{ messages = 6 }` without one.
    #[serde(default)]
    pub keep: Option<Spanned<RawContextSize>>,
}

/// A context size as LangChain's summarization takes it: exactly one of the three keys.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawContextSize {
    /// A share of the model's max input tokens.
    #[serde(default)]
    pub fraction: Option<f64>,
    /// A number of tokens.
    #[serde(default)]
    pub tokens: Option<u64>,
    /// A number of messages.
    #[serde(default)]
    pub messages: Option<u64>,
}

impl Overlay for RawDeepAgents {
    fn overlay(&mut self, over: Self) {
        let Self { version, tool_token_limit_before_evict, human_message_token_limit_before_evict, mount, interrupt_on, summarization } =
            over;
        take(&mut self.version, version);
        take(&mut self.tool_token_limit_before_evict, tool_token_limit_before_evict);
        take(&mut self.human_message_token_limit_before_evict, human_message_token_limit_before_evict);
        take(&mut self.mount, mount);
        self.interrupt_on.overlay(interrupt_on);
        overlay_opt(&mut self.summarization, summarization);
    }
}

impl Overlay for RawDeepAgentsSummarization {
    fn overlay(&mut self, over: Self) {
        let Self { trigger, keep } = over;
        take(&mut self.trigger, trigger);
        take(&mut self.keep, keep);
    }
}

impl Overlay for RawInterrupt {
    fn overlay(&mut self, over: Self) {
        *self = over;
    }
}

/// `[deepagents]` validated. Deep Agents sizes its summarization from LangChain's profile of
/// the model (the provider prefix of `provider:model` dropped), not from ctxc's table.
pub fn validate(m: &mut Provenance, section: Section<'_, RawDeepAgents>, agent: &AgentFacts) -> Settings {
    let from = section.from;
    let (u, p) = (section.user.cloned().unwrap_or_default(), section.preset.cloned().unwrap_or_default());
    let model = &deepagents::ModelWindow::of(
        agent.model.split_once(':').map_or(agent.model, |(_, m)| m),
        agent.provider,
        agent.context_window,
        agent.max_output_tokens,
    );
    let version = match m.pick("deepagents.version", u.version.as_ref(), p.version.as_ref(), from) {
        Some(v) => v.map(v.value.text()),
        None => m.required("deepagents.version", None, None, from),
    };
    // An unknown release was reported while the preset was laid out.
    let layout = deepagents::layout(&version.value).unwrap_or(deepagents::LAYOUT_0_4);
    let limit = m.required(
        "deepagents.tool_token_limit_before_evict",
        u.tool_token_limit_before_evict.as_ref(),
        p.tool_token_limit_before_evict.as_ref(),
        from,
    );
    let (trigger, keep) = summarization(m, u.summarization.unwrap_or_default(), p.summarization.unwrap_or_default(), from, model);
    let interrupt_on = interrupt_on(m, section.merged);
    let human_limit = (layout != deepagents::LAYOUT_0_4).then(|| {
        m.pick(
            "deepagents.human_message_token_limit_before_evict",
            u.human_message_token_limit_before_evict.as_ref(),
            p.human_message_token_limit_before_evict.as_ref(),
            from,
        )
        .unwrap_or_else(|| Setting {
            value: deepagents::HUMAN_MESSAGE_TOKEN_LIMIT,
            source: "Deep Agents 0.7 default".into(),
            key: "deepagents.human_message_token_limit_before_evict".into(),
            origin: from.origin.clone(),
            note: Some("Deep Agents' 0.7 default; set `deepagents.human_message_token_limit_before_evict` to change it".into()),
        })
    });
    let mount = m
        .pick("deepagents.mount", u.mount.as_ref(), p.mount.as_ref(), from)
        .map_or_else(|| deepagents::DEFAULT_MOUNT.to_string(), |m| m.value);
    Settings {
        version,
        layout,
        tool_token_limit_before_evict: limit,
        human_message_token_limit_before_evict: human_limit,
        trigger,
        keep,
        model: model.clone(),
        interrupt_on,
        mount,
        memory: agent.memory,
    }
}

/// The step layout of the release `[deepagents] version` names (the user's, else the
/// preset's); `None` without a version, or for a release with no layout (reported).
pub fn layout(m: &mut Provenance, user: Option<&RawDeepAgents>, preset: Option<&RawDeepAgents>) -> Option<&'static str> {
    let version = user.and_then(|d| d.version.as_ref()).or_else(|| preset.and_then(|d| d.version.as_ref()))?;
    match deepagents::layout(&version.value.text()) {
        Ok(layout) => Some(layout),
        Err(message) => {
            let span = m.span(version, "version");
            m.error(message, span).help = Some("set `[deepagents] version` to \"0.4\" or \"0.7\" (or a later release)".into());
            None
        }
    }
}

/// When Deep Agents summarizes and what it keeps: as set, else its default with a model
/// profile (fractions of the window) or its fallback without one.
fn summarization(
    m: &mut Provenance,
    us: RawDeepAgentsSummarization,
    ps: RawDeepAgentsSummarization,
    from: &PresetRef,
    model: &deepagents::ModelWindow,
) -> (Setting<deepagents::ContextSize>, Setting<deepagents::ContextSize>) {
    let (default_trigger, default_keep, why) = if model.max_input_tokens.is_some() {
        (
            deepagents::ContextSize::Fraction(deepagents::TRIGGER_FRACTION),
            deepagents::ContextSize::Fraction(deepagents::KEEP_FRACTION),
            "Deep Agents' default with a model profile",
        )
    } else {
        (
            deepagents::ContextSize::Tokens(deepagents::FALLBACK_TRIGGER_TOKENS),
            deepagents::ContextSize::Messages(deepagents::FALLBACK_KEEP_MESSAGES),
            "Deep Agents' fallback without a model profile",
        )
    };
    let mut size =
        |key: &str, user: Option<&Spanned<RawContextSize>>, preset: Option<&Spanned<RawContextSize>>, default: deepagents::ContextSize| {
            match m.pick(key, user, preset, from) {
                Some(setting) => {
                    let value = context_size(m, key, &setting.value, setting.origin.span.clone()).unwrap_or(default);
                    setting.map(value)
                }
                None => Setting {
                    value: default,
                    source: why.to_string(),
                    key: key.into(),
                    origin: from.origin.clone(),
                    note: Some(format!("{why}; set `{key}` to change it")),
                },
            }
        };
    let trigger = size("deepagents.summarization.trigger", us.trigger.as_ref(), ps.trigger.as_ref(), default_trigger);
    let keep = size("deepagents.summarization.keep", us.keep.as_ref(), ps.keep.as_ref(), default_keep);
    (trigger, keep)
}

/// The tools Deep Agents interrupts before. HumanInTheLoopMiddleware interrupts for `True`
/// and for a configuration with allowed decisions; it raises ValueError for a configuration
/// without any (langchain 1.4.7 agents/middleware/human_in_the_loop.py `__init__`).
fn interrupt_on(m: &mut Provenance, merged: Option<&RawDeepAgents>) -> Vec<String> {
    let mut interrupt_on = Vec::new();
    for (tool, on) in merged.iter().flat_map(|d| &d.interrupt_on) {
        match on {
            RawInterrupt::On(on) => {
                if *on {
                    interrupt_on.push(tool.clone());
                }
            }
            RawInterrupt::Config(config) if config.allowed_decisions.is_empty() => {
                let span = m.locate_path(&["deepagents", "interrupt_on", tool]);
                m.error(format!("`deepagents.interrupt_on.{tool}` has no `allowed_decisions`: Deep Agents refuses to start"), span).help =
                    Some("list the decisions, e.g. `allowed_decisions = [\"approve\", \"reject\"]`, or write `true` or `false`".into());
            }
            RawInterrupt::Config(_) => interrupt_on.push(tool.clone()),
        }
    }
    interrupt_on
}

/// A context size must name exactly one of fraction, tokens and messages.
fn context_size(m: &mut Provenance, key: &str, raw: &RawContextSize, span: Option<Range<usize>>) -> Option<deepagents::ContextSize> {
    match (raw.fraction, raw.tokens, raw.messages) {
        (Some(f), None, None) => Some(deepagents::ContextSize::Fraction(f)),
        (None, Some(n), None) => Some(deepagents::ContextSize::Tokens(n)),
        (None, None, Some(n)) => Some(deepagents::ContextSize::Messages(n)),
        _ => {
            m.error(format!("`{key}` needs exactly one of `fraction`, `tokens` and `messages`"), span).help =
                Some("e.g. `{ fraction = 0.85 }`, `{ tokens = 170000 }` or `{ messages = 6 }`".into());
            None
        }
    }
}
