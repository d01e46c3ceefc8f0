//! Deep Agents' settings checked against the measured window (SET001–SET004).

use super::window::{ContextSize, Settings};
use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::manifest::model::Agent;
use crate::measure::Measured;

pub fn check(agent: &Agent, s: &Settings, measured: &[Measured]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // Deep Agents' window (LangChain's profile); without one, the model's window as ctxc knows it.
    let max_input = s.model.max_input_tokens.unwrap_or(agent.profile.max_input_tokens);
    let window_note = match s.model.max_input_tokens {
        Some(_) => String::new(),
        None => " (ctxc's window: LangChain has no profile for the model)".to_string(),
    };
    let trigger_problem = match s.trigger.value {
        ContextSize::Fraction(f) if !(f > 0.0 && f <= 1.0) => Some(format!("must be above 0 and at most 1 (a share of max input tokens), not {f}")),
        ContextSize::Tokens(0) | ContextSize::Messages(0) => Some("must be above 0".to_string()),
        ContextSize::Tokens(n) if n > max_input => Some(format!(
            "is {n} tokens, beyond the model's {max_input}-token window{window_note}: summarization would never fire before the window overflows"
        )),
        _ => None,
    };
    if let Some(problem) = trigger_problem {
        out.push(s.trigger.finding(Code::SET001, format!("Deep Agents' summarization trigger {problem}")));
    }
    let keep_problem = match (s.keep.value, s.trigger.value) {
        (ContextSize::Fraction(k), _) if !(0.0..1.0).contains(&k) => Some(format!("must be at least 0 and below 1, not {k}")),
        (ContextSize::Messages(k), ContextSize::Messages(t)) if k >= t => {
            Some(format!("keeps {k} messages but summarization fires at {t}"))
        }
        (keep, trigger) => match (keep.tokens(Some(max_input)), trigger.tokens(Some(max_input))) {
            (Some(k), Some(t)) if k >= t => {
                Some(format!("keeps {} ({k} tokens), not less than the trigger {} ({t} tokens)", keep.describe(), trigger.describe()))
            }
            _ => None,
        },
    };
    if let Some(problem) = keep_problem {
        out.push(
            s.keep.finding(Code::SET002, format!("Deep Agents' summarization setting `keep` {problem}: summarizing would free nothing")),
        );
    }
    let Some(worst) = Measured::largest_fixed(measured) else { return out };
    let limit = s.tool_token_limit_before_evict.value;
    let trigger_at = s.trigger.value.tokens(Some(max_input));
    // 0 (Python's None too) switches eviction off: Deep Agents returns early ("eviction not
    // configured", filesystem.py 0.4.0 L1020-1022, 0.7.0 L2839-2841), a valid setting.
    if let Some(at) = trigger_at.filter(|&at| limit > 0 && worst.window.fixed + limit as i64 >= at as i64) {
        out.push(s.tool_token_limit_before_evict.finding(Code::SET004, format!(
                "Deep Agents keeps tool results of up to {limit} tokens (tool_token_limit_before_evict) in the context: one of them after the fixed context ({} tokens, {} mode, scenario `{}`) reaches the summarization trigger at {at} tokens",
                worst.window.fixed, worst.mode, worst.scenario
            )));
    }
    if let Some(at) = trigger_at {
        out.extend(s.trigger.fixed_reaches("Deep Agents", "summarization trigger", at, worst.window.fixed, &worst.place()));
    }
    out
}
