//! AgentScope (`agentscope` on PyPI), release by release: how `Agent._get_system_prompt` joins its
//! parts (`agent/_agent.py`), each model class's `context_size` default (`model/*/_model.py`),
//! and `ContextConfig`
//! (`agent/_config.py`): compression fires at `trigger_ratio` × context size, keeps `reserve_ratio`
//! of it as recent messages, and truncates tool results over `tool_result_limit` tokens.
//! Releases 2.0.6 and 2.0.11 are compared byte for byte with the installed runtime
//! (tests/runtimes/agentscope.rs); 2.0.7 to 2.0.10 were read and differ from them only as `Release` says.
//!
//! 1.0.21, the newest of the 1.x line, is a release of the same runtime with another agent,
//! `ReActAgent` (agent/_react_agent.py): its system prompt is `sys_prompt`, then, with skills, a
//! blank line and `Toolkit.get_agent_skill_prompt()` (tool/_toolkit.py); its request's tools are
//! `Toolkit.get_json_schemas()` as registered, none added by the agent unless asked (long-term
//! memory, meta tool, plan notebook, structured output: not modelled). Its model classes have no
//! `context_size` and it has no `ContextConfig`: its compression (`CompressionConfig`, a token
//! threshold and a count of messages kept, `[agentscope.compression]`) is `simulate`'s only.

use serde::Serialize;

use crate::runtimes::{share_of, Setting};

/// AgentScope caps `trigger_ratio` here: the rest of the window is for the compression call.
pub const MAX_TRIGGER_RATIO: f64 = 0.9;

/// What differs between the releases ctxc models. `_get_system_prompt`, the skills template and the
/// `ContextConfig` defaults (0.8 / 0.1 / 50,000) are the same in all of them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Release {
    pub version: &'static str,
    /// The release line: 1 (`ReActAgent`, the 1.x prompt and no `ContextConfig`) or 2 (`Agent`).
    pub line: u32,
    /// `trigger_ratio = Field(gt=0, le=0.9)` from 2.0.7 on; 2.0.6 has `lt=0.9`.
    pub trigger_may_equal_max: bool,
    /// `ContextConfig.context_buffer_ratio` (from 2.0.8); before, `InjectionConfig.context_buffer_ratio`.
    /// Either way it must be below `trigger_ratio` (`Agent._validate_configs`).
    pub buffer_in_context_config: bool,
    /// `ContextConfig.compression_tool_enabled` exists (from 2.0.8).
    pub compression_tool: bool,
    /// `CompressionConfig.keep_recent`'s default (1.x; 0 in 2.0.x, which has no `CompressionConfig`).
    pub keep_recent: u64,
    /// Patch number: model classes exist from the release their `since` names.
    patch: u32,
}

pub const RELEASES: [Release; 7] = [
    Release {
        version: "1.0.21",
        line: 1,
        trigger_may_equal_max: false,
        buffer_in_context_config: false,
        compression_tool: false,
        keep_recent: 3,
        patch: 21,
    },
    Release {
        version: "2.0.6",
        line: 2,
        trigger_may_equal_max: false,
        buffer_in_context_config: false,
        compression_tool: false,
        keep_recent: 0,
        patch: 6,
    },
    Release {
        version: "2.0.7",
        line: 2,
        trigger_may_equal_max: true,
        buffer_in_context_config: false,
        compression_tool: false,
        keep_recent: 0,
        patch: 7,
    },
    Release {
        version: "2.0.8",
        line: 2,
        trigger_may_equal_max: true,
        buffer_in_context_config: true,
        compression_tool: true,
        keep_recent: 0,
        patch: 8,
    },
    Release {
        version: "2.0.9",
        line: 2,
        trigger_may_equal_max: true,
        buffer_in_context_config: true,
        compression_tool: true,
        keep_recent: 0,
        patch: 9,
    },
    Release {
        version: "2.0.10",
        line: 2,
        trigger_may_equal_max: true,
        buffer_in_context_config: true,
        compression_tool: true,
        keep_recent: 0,
        patch: 10,
    },
    Release {
        version: "2.0.11",
        line: 2,
        trigger_may_equal_max: true,
        buffer_in_context_config: true,
        compression_tool: true,
        keep_recent: 0,
        patch: 11,
    },
];

/// Model classes and their `context_size` constructor default, with the 2.0.x patch each first
/// appears in (`agentscope/model/<dir>/_model.py`; `ChatModelBase` in `model/_base.py`).
const MODEL_CLASSES: [(&str, u64, u32); 12] = [
    ("ChatModelBase", 32_768, 6),
    ("OpenAIChatModel", 128_000, 6),
    ("OpenAIResponseModel", 200_000, 6),
    ("DashScopeChatModel", 131_072, 6),
    ("AnthropicChatModel", 200_000, 6),
    ("DeepSeekChatModel", 65_536, 6),
    ("GeminiChatModel", 1_048_576, 6),
    ("OllamaChatModel", 32_768, 6),
    ("MoonshotChatModel", 131_072, 6),
    ("XAIChatModel", 131_072, 6),
    ("VolcengineChatModel", 256_000, 8),
    ("MiniMaxChatModel", 1_000_000, 9),
];

/// Where the compression tool's schema is, beside the manifest (written by `ctxc upstream`).
pub const COMPRESSION_TOOL_FILE: &str = "upstream/compression-tool.json";

/// The AgentScope model class that serves a provider of ctxc's model table (`model/_<provider>/`).
pub fn model_class_for(provider: &str) -> Option<&'static str> {
    match provider {
        "openai" => Some("OpenAIChatModel"),
        "anthropic" => Some("AnthropicChatModel"),
        "gemini" => Some("GeminiChatModel"),
        "deepseek" => Some("DeepSeekChatModel"),
        "xai" => Some("XAIChatModel"),
        _ => None,
    }
}

/// Post-releases and the release whose modelled code they keep. 2.0.7.post1 against 2.0.7 (both
/// wheels from PyPI, compared file by file): it changes media handling in the formatters, Gemini's
/// and OpenAI Responses' request code and a reminder after the last ReAct iteration; the
/// prompt, tool, context-size and compression code ctxc models is the same.
const POST_RELEASES: [(&str, &str); 1] = [("2.0.7.post1", "2.0.7")];

/// The release a `[agentscope] version` names (a post-release as the release it keeps).
pub fn release(version: &str) -> Option<Release> {
    let version = POST_RELEASES.iter().find(|(post, _)| *post == version).map_or(version, |(_, base)| base);
    RELEASES.iter().copied().find(|r| r.version == version)
}

impl Release {
    /// The model classes of this release with their `context_size` default.
    pub fn model_classes(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        MODEL_CLASSES.iter().filter(|c| self.line == 2 && c.2 <= self.patch).map(|c| (c.0, c.1))
    }

    /// Whether this is a 1.x release (`ReActAgent`).
    pub fn is_react_agent(&self) -> bool {
        self.line == 1
    }

    /// Whether `trigger_ratio` passes `ContextConfig`'s bound in this release.
    pub fn trigger_in_range(&self, trigger: f64) -> bool {
        trigger > 0.0 && if self.trigger_may_equal_max { trigger <= MAX_TRIGGER_RATIO } else { trigger < MAX_TRIGGER_RATIO }
    }
}

/// A `LocalWorkspace` offloader: its instructions template is filled with these.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Workspace {
    /// `os.path.abspath(workdir)` as the agent sees it.
    pub workdir: String,
    /// `local` for `LocalWorkspace`.
    pub backend: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    pub version: Setting<String>,
    pub release: Release,
    pub trigger_ratio: Setting<f64>,
    pub reserve_ratio: Setting<f64>,
    pub tool_result_limit: Setting<u64>,
    pub context_buffer_ratio: Setting<f64>,
    /// `InjectionConfig.inject_runtime_state` (default true): the buffer is checked only with it
    /// (or with the compression tool).
    pub inject_runtime_state: Setting<bool>,
    /// `ContextConfig.compression_tool_enabled`: the compression tool is in every request.
    pub compression_tool_enabled: Setting<bool>,
    /// The model's `context_size`: set, or the named model class's default; `None`: the model
    /// profile's window.
    pub context_size: Option<Setting<u64>>,
    /// Where the project root is when AgentScope runs: skill `<dir>` entries are absolute.
    pub project_dir: Option<String>,
    pub workspace: Option<Workspace>,
    /// 1.x: `ReActAgent`'s `compression_config`; `None`: it never compresses.
    pub compression: Option<Compression>,
}

/// The token counters `[agentscope.compression] token_counter` names that ctxc models.
pub const TOKEN_COUNTERS: [&str; 1] = ["openai"];

/// `ReActAgent.CompressionConfig` (1.x).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Compression {
    pub enable: Setting<bool>,
    pub trigger_threshold: Setting<u64>,
    pub keep_recent: Setting<u64>,
    pub token_counter: Setting<String>,
}

/// The exact release modelled, e.g. `agentscope 2.0.11`.
pub fn modelled_release(s: &Settings) -> String {
    format!("agentscope {}", s.release.version)
}

/// AgentScope's window for one mode and scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Window {
    /// The model's `context_size`.
    pub context_size: u64,
    /// Where it came from: `agentscope.context_size`, the model class's default, or the model profile.
    pub context_size_source: String,
    pub trigger_ratio: Setting<f64>,
    /// Compression fires when the context exceeds this many tokens.
    pub compression_at: u64,
    pub reserve_ratio: Setting<f64>,
    /// Tokens of recent messages kept after a compression.
    pub kept_after_compression: u64,
    /// Tokens above the trigger, left for the compression call itself.
    pub compression_call_room: u64,
    pub tool_result_limit: Setting<u64>,
    /// Tokens between the fixed context and the trigger: room for summary, messages and tool results.
    pub room_before_compression: i64,
}

/// The window, with `profile_window` (the model profile's max input tokens) when neither
/// `context_size` nor a model class is set; `None` for a 1.x release, which has no `ContextConfig`
/// (its `CompressionConfig` is not modelled): no figure of 2.0's policy is shown for it.
pub fn window(s: &Settings, profile_window: u64, fixed: i64) -> Option<Window> {
    if s.release.is_react_agent() {
        return None;
    }
    let (context_size, context_size_source) = match &s.context_size {
        Some(size) => (size.value, size.source.clone()),
        None => {
            (profile_window, "the model's max input tokens (set agentscope.model_class or context_size for AgentScope's own)".to_string())
        }
    };
    let compression_at = share_of(s.trigger_ratio.value, context_size);
    Some(Window {
        context_size,
        context_size_source,
        trigger_ratio: s.trigger_ratio.clone(),
        compression_at,
        reserve_ratio: s.reserve_ratio.clone(),
        kept_after_compression: share_of(s.reserve_ratio.value, context_size),
        compression_call_room: context_size.saturating_sub(compression_at),
        tool_result_limit: s.tool_result_limit.clone(),
        room_before_compression: compression_at as i64 - fixed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_post_release_is_the_release_it_keeps() {
        assert_eq!(release("2.0.7.post1").map(|r| r.version), Some("2.0.7"));
        assert!(release("2.0.4.post1").is_none(), "not modelled");
        assert!(release("2.0.7.post2").is_none(), "not compared");
    }

    #[test]
    fn releases_differ_in_the_trigger_bound_and_model_classes() {
        let (old, new) = (release("2.0.6").unwrap(), release("2.0.11").unwrap());
        assert!(!old.trigger_in_range(0.9) && new.trigger_in_range(0.9));
        assert!(old.trigger_in_range(0.89) && !new.trigger_in_range(0.0));
        assert!(!old.model_classes().any(|c| c.0 == "MiniMaxChatModel"));
        assert_eq!(new.model_classes().find(|c| c.0 == "MiniMaxChatModel"), Some(("MiniMaxChatModel", 1_000_000)));
        assert!(release("2.1.0").is_none());
        let line_1 = release("1.0.21").unwrap();
        assert!(line_1.is_react_agent() && !new.is_react_agent());
        assert_eq!(line_1.model_classes().count(), 0, "1.x model classes take no context_size");
    }
}
