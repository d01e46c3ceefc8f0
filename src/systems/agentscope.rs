//! AgentScope's `ContextConfig`: compression fires when the context exceeds `trigger_ratio` of
//! the model's context size (at most 0.9: the rest is room for the compression call), keeps
//! `reserve_ratio` of it as recent messages, and truncates tool results over `tool_result_limit`
//! tokens.

use serde::Serialize;

use super::{finding, fixed_reaches_trigger, largest_fixed, pct, share_of, Setting};
use crate::diagnostic::Diagnostic;
use crate::measure::Measured;

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

pub fn check(s: &Settings, measured: &[Measured]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let trigger = s.trigger_ratio.value;
    if !(trigger > 0.0 && trigger <= MAX_TRIGGER_RATIO) {
        out.push(finding(
            "SET013",
            &s.trigger_ratio,
            format!("AgentScope's trigger_ratio {trigger} must be above 0 and at most {MAX_TRIGGER_RATIO}: the last 10 % of the window is room for the compression call"),
        ));
    }
    let reserve = s.reserve_ratio.value;
    if !(reserve > 0.0 && reserve < trigger) {
        out.push(finding(
            "SET014",
            &s.reserve_ratio,
            format!("AgentScope's reserve_ratio {reserve} must be above 0 and below trigger_ratio {trigger}: compression keeps that share as recent messages, so it must leave something to compress"),
        ));
    }
    let Some(worst) = largest_fixed(measured) else { return out };
    let w = &worst.window;
    let compression_at = share_of(trigger, w.max_input_tokens);
    let limit = s.tool_result_limit.value;
    let room = compression_at as i64 - w.fixed;
    if limit == 0 {
        out.push(finding("SET015", &s.tool_result_limit, "AgentScope's tool_result_limit is 0: every tool result would be truncated to nothing".to_string()));
    } else if limit as i64 > room {
        out.push(finding(
            "SET015",
            &s.tool_result_limit,
            format!(
                "AgentScope's tool_result_limit ({limit} tokens) is more than the room below the compression trigger ({room} tokens = {} of {} − fixed context {}, {} mode, scenario `{}`): one tool result at the limit would trigger compression by itself",
                pct(trigger), w.max_input_tokens, w.fixed, worst.mode, worst.scenario
            ),
        ));
    }
    out.extend(fixed_reaches_trigger("AgentScope", "compression trigger", &s.trigger_ratio, compression_at, worst));
    out
}
