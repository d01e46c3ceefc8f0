//! AgentScope's rows in the window table of `ctxc cost` (text and Markdown): its compression
//! point, what it keeps, and the tool-result limit.

use super::window::Window;
use crate::runtimes::{number, WindowRows};

/// The table's title and its rows (the scenario does not change them).
pub fn rows(a: &Window, _scenario: &str) -> WindowRows {
    let lines = vec![
        ("context size", number(a.context_size), a.context_size_source.clone()),
        ("compression at", number(a.compression_at), format!("trigger_ratio {}{}", a.trigger_ratio.value, a.trigger_ratio.source_note())),
        (
            "kept after",
            number(a.kept_after_compression),
            format!("reserve_ratio {}: recent messages kept after compression{}", a.reserve_ratio.value, a.reserve_ratio.source_note()),
        ),
        ("compression call", number(a.compression_call_room), "above the trigger: room for the compression call itself".to_string()),
        (
            "room before it",
            number(a.room_before_compression),
            "between the fixed context and the trigger: summary, messages, tool results".to_string(),
        ),
        (
            "tool result limit",
            number(a.tool_result_limit.value),
            format!("tokens per tool result; longer ones are truncated with a marker{}", a.tool_result_limit.source_note()),
        ),
    ];
    WindowRows { title: "agentscope context (ContextConfig)".to_string(), rows: lines }
}
