//! AgentScope's settings checked against the measured window (SET003, SET013–SET015).

use super::window::{Settings, MAX_TRIGGER_RATIO};
use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::manifest::model::Agent;
use crate::measure::Measured;
use crate::systems::{pct, share_of};

/// AgentScope's checks need nothing of the agent but its settings.
pub fn check(_agent: &Agent, s: &Settings, measured: &[Measured]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let trigger = s.trigger_ratio.value;
    if !s.release.trigger_in_range(trigger) {
        let bound = if s.release.trigger_may_equal_max { "at most" } else { "below" };
        out.push(s.trigger_ratio.finding(Code::SET013, format!(
                "AgentScope {}'s trigger_ratio {trigger} must be above 0 and {bound} {MAX_TRIGGER_RATIO}: the rest of the window is room for the compression call",
                s.release.version
            )));
    }
    let reserve = s.reserve_ratio.value;
    if !(reserve > 0.0 && reserve < trigger) {
        out.push(s.reserve_ratio.finding(Code::SET014, format!("AgentScope's reserve_ratio {reserve} must be above 0 and below trigger_ratio {trigger}: compression keeps that share as recent messages, so it must leave something to compress")));
    }
    let buffer = s.context_buffer_ratio.value;
    if (s.inject_runtime_state.value || s.compression_tool_enabled.value) && buffer >= trigger {
        out.push(s.context_buffer_ratio.finding(Code::SET014, format!("AgentScope's context_buffer_ratio {buffer} must be below trigger_ratio {trigger} while runtime state is injected: the agent is told of the coming compression at trigger − buffer (Agent._validate_configs raises otherwise)")));
    }
    let Some(worst) = Measured::largest_fixed(measured) else { return out };
    let w = &worst.window;
    let context_size = w.agentscope.as_ref().map_or(w.max_input_tokens, |a| a.context_size);
    let compression_at = share_of(trigger, context_size);
    let limit = s.tool_result_limit.value;
    let room = compression_at as i64 - w.fixed;
    if limit == 0 {
        out.push(
            s.tool_result_limit
                .finding(Code::SET015, "AgentScope's tool_result_limit is 0: every tool result would be truncated to nothing".to_string()),
        );
    } else if limit as i64 > room {
        out.push(s.tool_result_limit.finding(Code::SET015, format!(
                "AgentScope's tool_result_limit ({limit} tokens) is more than the room below the compression trigger ({room} tokens = {} of {} − fixed context {}, {} mode, scenario `{}`): one tool result at the limit would trigger compression by itself",
                pct(trigger), context_size, w.fixed, worst.mode, worst.scenario
            )));
    }
    out.extend(s.trigger_ratio.fixed_reaches("AgentScope", "compression trigger", compression_at, worst.window.fixed, &worst.place()));
    out
}
