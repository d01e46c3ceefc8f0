//! Zeph's rows in the window table of `ctxc cost` (text and Markdown): its budget, the
//! reserve and prompts taken off it, the shares of the rest, and where compaction starts.

use super::window::Window;
use crate::runtimes::{number, pct, WindowRows};

pub fn rows(z: &Window, scenario: &str) -> WindowRows {
    let budget_note = match z.budget_source {
        "configured" => format!("context_budget_tokens{}", z.context_budget_tokens.source_note()),
        "auto" => "the model's window (context_budget_tokens 0, auto_budget)".to_string(),
        _ => "Zeph's fallback (context_budget_tokens 0, auto_budget off)".to_string(),
    };
    let layout = match (z.memory_first, z.graph) {
        (false, false) => "full history",
        (false, true) => "full history with graph memory",
        (true, false) => "memory first",
        (true, true) => "memory first with graph memory",
    };
    let mut lines = vec![
        (
            "response reserve",
            number(z.response_reserve),
            format!(
                "{} of the budget (response_reserve_ratio{})",
                pct(z.response_reserve_ratio.value),
                z.response_reserve_ratio.source_note()
            ),
        ),
        ("system prompt", number(z.system_prompt_tokens), "subtracted before the shares (Zeph counts cl100k_base)".to_string()),
        ("skills prompt", number(z.skills_tokens), "the active skills, subtracted again (they are in the system prompt too)".to_string()),
        ("shares divide", number(z.available), "budget − reserve − system prompt − skills prompt".to_string()),
    ];
    for share in &z.shares {
        lines.push((share.name, number(share.tokens), format!("{} of what the shares divide", pct(share.ratio))));
    }
    let tail = z.compaction_preserve_tail.value;
    lines.extend([
        (
            "soft compaction at",
            number(z.soft_compaction_at),
            format!(
                "soft_compaction_threshold {} of the budget{}: prunes tool output",
                z.soft_compaction_threshold.value,
                z.soft_compaction_threshold.source_note()
            ),
        ),
        (
            "hard compaction at",
            number(z.compaction_at),
            format!(
                "compaction_threshold {} of the budget{}: LLM summary; keeps the last {tail} messages (compaction_preserve_tail{})",
                z.compaction_threshold.value,
                z.compaction_threshold.source_note(),
                z.compaction_preserve_tail.source_note()
            ),
        ),
        (
            "prune protection",
            number(z.prune_protect_tokens.value),
            format!("recent tokens never pruned of tool output (prune_protect_tokens{})", z.prune_protect_tokens.source_note()),
        ),
        (
            "tool output cut at",
            number(z.tool_output_max_chars.value),
            format!(
                "characters: the first {} and last {} are kept (tool_output_max_chars{})",
                number(z.tool_output_head_chars),
                number(z.tool_output_tail_chars),
                z.tool_output_max_chars.source_note()
            ),
        ),
    ]);
    let title = format!(
        "zeph window · budget {} = {budget_note} · layout: {layout} (flags graph_memory, memory_first in scenario {scenario})",
        number(z.budget)
    );
    WindowRows { title, rows: lines }
}
