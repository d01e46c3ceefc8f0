//! Zeph's context window layout: a response reserve (a share of the budget), then proportional
//! shares of what remains (without a code index: summaries, semantic recall, recent history; with
//! one: summaries, semantic recall, code context, recent history). The system prompt and tool
//! schemas travel with the recent messages (history trimming always keeps the system prompt), so
//! ctxc charges the fixed context to the recent-history share. Compaction, tool-output pruning
//! protection and tool-output truncation are reported and checked.

use serde::Serialize;

use super::{share_of, Setting};

/// Characters per token used to estimate the tokens of a truncated tool output.
pub const CHARS_PER_TOKEN: u64 = 4;
/// The scenario flag that switches the layout to the shares with a code index.
pub const CODE_INDEX_FLAG: &str = "code_index";
/// The share the fixed context (system prompt + tool schemas) is charged to.
pub const HISTORY_SHARE: &str = "recent_history";

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Share {
    pub name: &'static str,
    pub ratio: Setting<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    pub context_budget_tokens: Setting<u64>,
    pub response_reserve_ratio: Setting<f64>,
    pub compaction_threshold: Setting<f64>,
    pub compaction_preserve_tail: Setting<u64>,
    pub prune_protect_tokens: Setting<u64>,
    pub tool_output_max_chars: Setting<u64>,
    pub shares: Vec<Share>,
    pub shares_with_code_index: Vec<Share>,
    /// `[history] max_messages`, compared with the preserved tail.
    pub history_max_messages: Option<usize>,
}

/// One share of the layout with the tokens it gets.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShareTokens {
    pub name: &'static str,
    pub ratio: f64,
    pub tokens: u64,
}

/// Zeph's window for one mode and scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Window {
    /// The budget the layout divides: `context_budget_tokens`, or the model's window when it is 0.
    pub budget: u64,
    pub context_budget_tokens: Setting<u64>,
    pub response_reserve_ratio: Setting<f64>,
    pub response_reserve: u64,
    /// What the shares divide: budget − response reserve.
    pub available: u64,
    /// Whether this scenario has the code index on (flag `code_index`), choosing the shares.
    pub code_index: bool,
    /// The shares in effect in this scenario.
    pub shares: Vec<ShareTokens>,
    pub shares_without_code_index: Vec<ShareTokens>,
    pub shares_with_code_index: Vec<ShareTokens>,
    /// System prompt + tool schemas, charged to the recent-history share.
    pub fixed: i64,
    /// The recent-history share in effect.
    pub recent_history: u64,
    /// What the recent-history share leaves for messages after the fixed context.
    pub history_after_fixed: i64,
    pub compaction_threshold: Setting<f64>,
    /// Compaction fires when messages exceed this many tokens.
    pub compaction_at: u64,
    pub compaction_preserve_tail: Setting<u64>,
    pub prune_protect_tokens: Setting<u64>,
    pub tool_output_max_chars: Setting<u64>,
    /// A cut tool output keeps this many characters from its start and from its end.
    pub tool_output_head_chars: u64,
    pub tool_output_tail_chars: u64,
}

fn tokens_of(shares: &[Share], available: u64) -> Vec<ShareTokens> {
    shares.iter().map(|s| ShareTokens { name: s.name, ratio: s.ratio.value, tokens: share_of(s.ratio.value, available) }).collect()
}

/// The budget: `context_budget_tokens`, or the model's window when it is 0.
pub fn budget(s: &Settings, max_input: u64) -> u64 {
    if s.context_budget_tokens.value == 0 {
        max_input
    } else {
        s.context_budget_tokens.value
    }
}

pub fn window(s: &Settings, max_input: u64, fixed: i64, code_index: bool) -> Window {
    let budget = budget(s, max_input);
    let response_reserve = share_of(s.response_reserve_ratio.value, budget);
    let available = budget.saturating_sub(response_reserve);
    let without = tokens_of(&s.shares, available);
    let with = tokens_of(&s.shares_with_code_index, available);
    let shares = if code_index { with.clone() } else { without.clone() };
    let recent_history = shares.iter().find(|s| s.name == HISTORY_SHARE).map_or(0, |s| s.tokens);
    let max_chars = s.tool_output_max_chars.value;
    Window {
        budget,
        context_budget_tokens: s.context_budget_tokens.clone(),
        response_reserve_ratio: s.response_reserve_ratio.clone(),
        response_reserve,
        available,
        code_index,
        shares,
        shares_without_code_index: without,
        shares_with_code_index: with,
        fixed,
        recent_history,
        history_after_fixed: recent_history as i64 - fixed,
        compaction_threshold: s.compaction_threshold.clone(),
        compaction_at: share_of(s.compaction_threshold.value, budget),
        compaction_preserve_tail: s.compaction_preserve_tail.clone(),
        prune_protect_tokens: s.prune_protect_tokens.clone(),
        tool_output_max_chars: s.tool_output_max_chars.clone(),
        tool_output_head_chars: max_chars / 2,
        tool_output_tail_chars: max_chars - max_chars / 2,
    }
}
