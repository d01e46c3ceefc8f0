//! AgentScope's rows in the window table of `ctxc cost` (text and Markdown): its compression
//! point, what it keeps, and the tool-result limit.

use super::window::Window;

/// The table's title and its rows: label, tokens (a configured number; `i128` holds every
/// `u64` and `i64` of the window as it is) and note.
pub fn rows(a: &Window) -> (&'static str, Vec<(&'static str, i128, String)>) {
    let lines = vec![
        ("context size", i128::from(a.context_size), a.context_size_source.clone()),
        (
            "compression at",
            i128::from(a.compression_at),
            format!("trigger_ratio {}{}", a.trigger_ratio.value, a.trigger_ratio.source_note()),
        ),
        (
            "kept after",
            i128::from(a.kept_after_compression),
            format!("reserve_ratio {}: recent messages kept after compression{}", a.reserve_ratio.value, a.reserve_ratio.source_note()),
        ),
        ("compression call", i128::from(a.compression_call_room), "above the trigger: room for the compression call itself".to_string()),
        (
            "room before it",
            i128::from(a.room_before_compression),
            "between the fixed context and the trigger: summary, messages, tool results".to_string(),
        ),
        (
            "tool result limit",
            i128::from(a.tool_result_limit.value),
            format!("tokens per tool result; longer ones are truncated with a marker{}", a.tool_result_limit.source_note()),
        ),
    ];
    ("agentscope context (ContextConfig)", lines)
}
