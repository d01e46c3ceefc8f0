//! Deep Agents' rows in the window table of `ctxc cost` (text and Markdown): the model's input
//! limit, tool-result offloading, where summarization starts and what it keeps, and the
//! interrupts.

use super::window::{ContextSize, Window, BUDGET_FRACTION, CHARS_PER_TOKEN};
use crate::runtimes::{number, pct, WindowRows};

pub fn rows(d: &Window, _scenario: &str) -> WindowRows {
    let profile = if d.model_profile { "model profile known" } else { "no model profile: fallback" };
    let tokens_or = |t: Option<u64>, size: ContextSize| match (t, size) {
        (_, ContextSize::Messages(k)) => format!("{k} msgs"),
        (Some(t), _) => number(t),
        (None, _) => "-".into(),
    };
    let offload = match d.offload_chars {
        Some(chars) => format!(
            "tokens per tool result (tool_token_limit_before_evict, {} characters at {} per token); larger results go to the filesystem{}",
            number(chars),
            CHARS_PER_TOKEN,
            d.tool_token_limit_before_evict.source_note()
        ),
        None => {
            format!("tool_token_limit_before_evict is 0: tool results are never offloaded{}", d.tool_token_limit_before_evict.source_note())
        }
    };
    let m = &d.model;
    let counted = format!("counted at {} characters per token ({})", m.chars_per_token, m.chars_per_token_source);
    let trigger_note = format!("trigger: {}{}", d.trigger.value.describe(), d.trigger.source_note());
    let mut lines = vec![
        ("max input", m.max_input_tokens.map_or_else(|| "-".into(), number), m.max_input_source.clone()),
        ("offload over", number(d.tool_token_limit_before_evict.value), offload),
    ];
    let summarization_note = match (d.summarization_by, d.input_budget) {
        ("input budget", Some(_)) => {
            lines.push(("trigger at", tokens_or(d.trigger_at, d.trigger.value), format!("{trigger_note}; not reached first")));
            format!(
                "input budget: {} of max input − {} max output tokens ({}); {counted}",
                pct(BUDGET_FRACTION),
                number(m.max_tokens),
                m.max_tokens_source
            )
        }
        (_, Some(budget)) => format!("{trigger_note}; below the input budget {}; {counted}", number(budget)),
        (_, None) => format!("{trigger_note}; {counted}"),
    };
    lines.extend([
        ("summarization at", tokens_or(d.summarization_at, d.trigger.value), summarization_note),
        ("keeps", tokens_or(d.kept_tokens, d.keep.value), format!("keep: {}{}", d.keep.value.describe(), d.keep.source_note())),
    ]);
    if let Some(human) = &d.human_message_token_limit_before_evict {
        lines.push((
            "human msgs over",
            number(human.value),
            format!("tokens per human message (human_message_token_limit_before_evict) are offloaded{}", human.source_note()),
        ));
    }
    let interrupts = if d.interrupt_on.is_empty() { "none".to_string() } else { d.interrupt_on.join(", ") };
    lines.push(("interrupts", String::new(), format!("interrupt_on: {interrupts}")));
    WindowRows { title: format!("deep agents · release {} (layout {}) · {profile}", d.version, d.layout), rows: lines }
}
