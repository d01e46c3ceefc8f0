//! The reference systems' window numbers in `ctxc cost` text and Markdown: Deep Agents'
//! offloading and summarization, Zeph's window layout table, and the rows a runtime gives
//! (AgentScope's compression: `src/runtimes/agentscope/report.rs`).

use super::table::{num, table_row};
use crate::measure::{Count, Measured};
use crate::runtimes::deepagents::window as deepagents;
use crate::runtimes::zeph::window as zeph;
use crate::systems::pct;

/// A configured number (not a tokenizer count): no `~`, thousands separated.
fn n(value: impl TryInto<i64>) -> String {
    num(Count { tokens: value.try_into().unwrap_or(i64::MAX), tokenizer: "", exact: true })
}

/// Rows of label, tokens and note, as the window table prints them.
fn rows(md: bool, title: String, lines: Vec<(&str, String, String)>) -> String {
    let mut out = format!("\n{title}\n");
    if md {
        out.push_str("\n| | tokens | |\n|---|---:|---|\n");
    }
    for (label, tokens, note) in lines {
        out.push_str(&table_row(md, &[format!("{label:<18}"), format!("{tokens:>9}"), note]));
    }
    out
}

pub fn report(m: &Measured, md: bool) -> String {
    let mut out = String::new();
    if let Some(d) = &m.window.deepagents {
        out.push_str(&deep_agents(d, md));
    }
    if let Some(z) = &m.window.zeph {
        out.push_str(&zeph_layout(z, m, md));
    }
    if let Some(a) = &m.window.agentscope {
        let (title, lines) = crate::runtimes::agentscope::report::rows(a);
        out.push_str(&rows(md, title.to_string(), lines.into_iter().map(|(label, tokens, note)| (label, n(tokens), note)).collect()));
    }
    out
}

fn deep_agents(d: &deepagents::Window, md: bool) -> String {
    let profile = if d.model_profile { "model profile known" } else { "no model profile: fallback" };
    let tokens_or = |t: Option<u64>, size: deepagents::ContextSize| match (t, size) {
        (_, deepagents::ContextSize::Messages(k)) => format!("{k} msgs"),
        (Some(t), _) => n(t),
        (None, _) => "-".into(),
    };
    let offload = match d.offload_chars {
        Some(chars) => format!(
            "tokens per tool result (tool_token_limit_before_evict, {} characters at {} per token); larger results go to the filesystem{}",
            n(chars),
            deepagents::CHARS_PER_TOKEN,
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
        ("max input", m.max_input_tokens.map_or_else(|| "-".into(), n), m.max_input_source.clone()),
        ("offload over", n(d.tool_token_limit_before_evict.value), offload),
    ];
    let summarization_note = match (d.summarization_by, d.input_budget) {
        ("input budget", Some(_)) => {
            lines.push(("trigger at", tokens_or(d.trigger_at, d.trigger.value), format!("{trigger_note}; not reached first")));
            format!(
                "input budget: {} of max input − {} max output tokens ({}); {counted}",
                crate::systems::pct(deepagents::BUDGET_FRACTION),
                n(m.max_tokens),
                m.max_tokens_source
            )
        }
        (_, Some(budget)) => format!("{trigger_note}; below the input budget {}; {counted}", n(budget)),
        (_, None) => format!("{trigger_note}; {counted}"),
    };
    lines.extend([
        ("summarization at", tokens_or(d.summarization_at, d.trigger.value), summarization_note),
        ("keeps", tokens_or(d.kept_tokens, d.keep.value), format!("keep: {}{}", d.keep.value.describe(), d.keep.source_note())),
    ]);
    if let Some(human) = &d.human_message_token_limit_before_evict {
        lines.push((
            "human msgs over",
            n(human.value),
            format!("tokens per human message (human_message_token_limit_before_evict) are offloaded{}", human.source_note()),
        ));
    }
    let interrupts = if d.interrupt_on.is_empty() { "none".to_string() } else { d.interrupt_on.join(", ") };
    lines.push(("interrupts", String::new(), format!("interrupt_on: {interrupts}")));
    rows(md, format!("deep agents · release {} (layout {}) · {profile}", d.version, d.layout), lines)
}

fn zeph_layout(z: &zeph::Window, m: &Measured, md: bool) -> String {
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
            n(z.response_reserve),
            format!(
                "{} of the budget (response_reserve_ratio{})",
                pct(z.response_reserve_ratio.value),
                z.response_reserve_ratio.source_note()
            ),
        ),
        ("system prompt", n(z.system_prompt_tokens), "subtracted before the shares (Zeph counts cl100k_base)".to_string()),
        ("skills prompt", n(z.skills_tokens), "the active skills, subtracted again (they are in the system prompt too)".to_string()),
        ("shares divide", n(z.available), "budget − reserve − system prompt − skills prompt".to_string()),
    ];
    for share in &z.shares {
        lines.push((share.name, n(share.tokens), format!("{} of what the shares divide", pct(share.ratio))));
    }
    let tail = z.compaction_preserve_tail.value;
    lines.extend([
        (
            "soft compaction at",
            n(z.soft_compaction_at),
            format!(
                "soft_compaction_threshold {} of the budget{}: prunes tool output",
                z.soft_compaction_threshold.value,
                z.soft_compaction_threshold.source_note()
            ),
        ),
        (
            "hard compaction at",
            n(z.compaction_at),
            format!(
                "compaction_threshold {} of the budget{}: LLM summary; keeps the last {tail} messages (compaction_preserve_tail{})",
                z.compaction_threshold.value,
                z.compaction_threshold.source_note(),
                z.compaction_preserve_tail.source_note()
            ),
        ),
        (
            "prune protection",
            n(z.prune_protect_tokens.value),
            format!("recent tokens never pruned of tool output (prune_protect_tokens{})", z.prune_protect_tokens.source_note()),
        ),
        (
            "tool output cut at",
            n(z.tool_output_max_chars.value),
            format!(
                "characters: the first {} and last {} are kept (tool_output_max_chars{})",
                n(z.tool_output_head_chars),
                n(z.tool_output_tail_chars),
                z.tool_output_max_chars.source_note()
            ),
        ),
    ]);
    rows(
        md,
        format!(
            "zeph window · budget {} = {budget_note} · layout: {layout} (flags graph_memory, memory_first in scenario {})",
            n(z.budget),
            m.scenario
        ),
        lines,
    )
}
