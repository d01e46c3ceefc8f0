//! AgentScope's `ContextConfig`: compression fires when the context exceeds `trigger_ratio` of
//! the model's context size (at most 0.9: the rest is room for the compression call), keeps
//! `reserve_ratio` of it as recent messages, and truncates tool results over `tool_result_limit`
//! tokens.

use serde::Serialize;

use super::{share_of, Setting};

/// AgentScope caps `trigger_ratio` here: the rest of the window is for the compression call.
pub const MAX_TRIGGER_RATIO: f64 = 0.9;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    pub trigger_ratio: Setting<f64>,
    pub reserve_ratio: Setting<f64>,
    pub tool_result_limit: Setting<u64>,
}

/// AgentScope's window for one mode and scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Window {
    /// The model's context size (max input tokens).
    pub context_size: u64,
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

pub fn window(s: &Settings, context_size: u64, fixed: i64) -> Window {
    let compression_at = share_of(s.trigger_ratio.value, context_size);
    Window {
        context_size,
        trigger_ratio: s.trigger_ratio.clone(),
        compression_at,
        reserve_ratio: s.reserve_ratio.clone(),
        kept_after_compression: share_of(s.reserve_ratio.value, context_size),
        compression_call_room: context_size.saturating_sub(compression_at),
        tool_result_limit: s.tool_result_limit.clone(),
        room_before_compression: compression_at as i64 - fixed,
    }
}
