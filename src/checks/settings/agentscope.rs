//! AgentScope's settings checked against the measured window (SET003, SET013–SET015).

use super::{finding, fixed_reaches_trigger, largest_fixed};
use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::measure::Measured;
use crate::systems::agentscope::{Settings, MAX_TRIGGER_RATIO};
use crate::systems::{pct, share_of};

pub fn check(s: &Settings, measured: &[Measured]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let trigger = s.trigger_ratio.value;
    if !(trigger > 0.0 && trigger <= MAX_TRIGGER_RATIO) {
        out.push(finding(
            Code::SET013,
            &s.trigger_ratio,
            format!("AgentScope's trigger_ratio {trigger} must be above 0 and at most {MAX_TRIGGER_RATIO}: the last 10 % of the window is room for the compression call"),
        ));
    }
    let reserve = s.reserve_ratio.value;
    if !(reserve > 0.0 && reserve < trigger) {
        out.push(finding(
            Code::SET014,
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
        out.push(finding(
            Code::SET015,
            &s.tool_result_limit,
            "AgentScope's tool_result_limit is 0: every tool result would be truncated to nothing".to_string(),
        ));
    } else if limit as i64 > room {
        out.push(finding(
            Code::SET015,
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
