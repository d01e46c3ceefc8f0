//! Zeph's context window, as the code of the modelled release computes it (zeph-context 0.22.4
//! `budget.rs`, `manager.rs`; zeph-core 0.22.4 `agent/mod.rs`, `session_config.rs`): the budget
//! (`context_budget_tokens`, else the model's window under `auto_budget`, else 128,000), a
//! response reserve of 20 %, then the tokens of the system prompt and of the active-skills prompt
//! are subtracted, and what is left is split into shares (four layouts: full history or memory
//! first, each with or without graph memory). Zeph multiplies in `f32` and truncates, so ctxc
//! does too. Compaction is soft above `soft_compaction_threshold` × budget and hard above
//! `compaction_threshold` (Zeph's `hard_compaction_threshold`) × budget.

use serde::Serialize;

use crate::runtimes::Setting;

/// The releases ctxc models (`[zeph] version`) and the crate release each one is proven against.
pub const RELEASES: [(&str, &str); 1] = [("0.22.4", "zeph-context 0.22.4")];
/// Characters per token used to estimate the tokens of a truncated tool output.
pub const CHARS_PER_TOKEN: u64 = 4;
/// Scenario flags: the code index (adds the repo map), graph memory (Zeph `memory.graph.enabled`)
/// and the memory-first strategy (Zeph `memory.context_strategy = "memory_first"`).
pub const CODE_INDEX_FLAG: &str = "code_index";
pub const GRAPH_FLAG: &str = "graph_memory";
pub const MEMORY_FIRST_FLAG: &str = "memory_first";
/// The share that holds the recent messages.
pub const HISTORY_SHARE: &str = "recent_history";
/// The budget Zeph falls back to when none is configured and the model reports no window
/// (zeph-core 0.22.4 `agent/mod.rs` `resolve_context_budget_tokens`).
pub const FALLBACK_BUDGET: u64 = 128_000;
/// zeph-memory 0.22.4 `token_counter.rs`: longer texts (bytes) are estimated at 4 characters per
/// token instead of being encoded.
const MAX_ENCODED_LEN: usize = 65_536;
/// zeph-config 0.22.4 `loader.rs` `validate`: more tool iterations per turn are refused.
pub const MAX_TOOL_ITERATIONS: u64 = 100;

/// The crate release ctxc's model of `[zeph] version` follows, e.g. `zeph-context 0.22.4`.
pub fn release(version: &str) -> Result<&'static str, String> {
    let version = version.trim().trim_start_matches('v');
    RELEASES.iter().find(|(v, _)| *v == version).map(|(_, r)| *r).ok_or_else(|| {
        let known: Vec<&str> = RELEASES.iter().map(|(v, _)| *v).collect();
        format!("ctxc models Zeph release {}; `{version}` is not one of them", known.join(", "))
    })
}

/// Tokens of a text as Zeph's `TokenCounter` counts them: cl100k_base (`encode`, given here),
/// or characters / 4 for a text over 64 KiB.
pub fn count_tokens(text: &str, encode: impl Fn(&str) -> usize) -> u64 {
    if text.len() > MAX_ENCODED_LEN {
        (text.chars().count() / 4) as u64
    } else {
        encode(text) as u64
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Share {
    pub name: &'static str,
    pub ratio: Setting<f64>,
}

/// The four share layouts of `ContextBudget::allocate_with_opts`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Layouts {
    pub full_history: Vec<Share>,
    pub full_history_graph: Vec<Share>,
    pub memory_first: Vec<Share>,
    pub memory_first_graph: Vec<Share>,
}

impl Layouts {
    pub fn all(&self) -> [(&'static str, &[Share]); 4] {
        [
            ("shares", &self.full_history),
            ("shares_with_graph", &self.full_history_graph),
            ("shares_memory_first", &self.memory_first),
            ("shares_memory_first_with_graph", &self.memory_first_graph),
        ]
    }

    fn pick(&self, graph: bool, memory_first: bool) -> &[Share] {
        match (memory_first, graph) {
            (false, false) => &self.full_history,
            (false, true) => &self.full_history_graph,
            (true, false) => &self.memory_first,
            (true, true) => &self.memory_first_graph,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    /// The Zeph release modelled (`[zeph] version`).
    pub version: Setting<String>,
    pub context_budget_tokens: Setting<u64>,
    pub auto_budget: Setting<bool>,
    pub response_reserve_ratio: Setting<f64>,
    pub soft_compaction_threshold: Setting<f64>,
    /// Zeph's `hard_compaction_threshold` (its config also accepts `compaction_threshold`).
    pub compaction_threshold: Setting<f64>,
    pub compaction_preserve_tail: Setting<u64>,
    pub prune_protect_tokens: Setting<u64>,
    pub tool_output_max_chars: Setting<u64>,
    pub budget_hint_enabled: Setting<bool>,
    pub max_tool_iterations: Setting<u64>,
    pub cost_enabled: Setting<bool>,
    pub max_daily_cents: Setting<u64>,
    pub shares: Layouts,
    /// `[history] max_messages`, compared with the preserved tail.
    pub history_max_messages: Option<usize>,
}

impl Settings {
    /// The crate release modelled, e.g. `zeph-context 0.22.4` (for reports).
    pub fn release(&self) -> &'static str {
        release(&self.version.value).unwrap_or(RELEASES[0].1)
    }
}

/// What the window depends on in one mode and scenario, counted by the measure stage.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Inputs {
    /// Zeph's token count of the whole system prompt, and of the active-skills prompt (which the
    /// system prompt also contains: Zeph subtracts both, so those tokens count twice).
    pub system_prompt_tokens: u64,
    pub skills_tokens: u64,
    pub graph: bool,
    pub memory_first: bool,
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
    /// The budget: `context_budget_tokens`, the model's window (`auto_budget`) or 128,000.
    pub budget: u64,
    /// `configured`, `auto` (the model's window) or `fallback` (128,000).
    pub budget_source: &'static str,
    pub context_budget_tokens: Setting<u64>,
    pub response_reserve_ratio: Setting<f64>,
    pub response_reserve: u64,
    /// Zeph's count of the system prompt and of the active-skills prompt, subtracted before the shares.
    pub system_prompt_tokens: u64,
    pub skills_tokens: u64,
    /// What the shares divide: budget − reserve − system prompt − skills prompt.
    pub available: u64,
    pub graph: bool,
    pub memory_first: bool,
    /// The shares in effect in this scenario.
    pub shares: Vec<ShareTokens>,
    /// The recent-history share in effect: room for the messages.
    pub recent_history: u64,
    pub soft_compaction_threshold: Setting<f64>,
    pub compaction_threshold: Setting<f64>,
    /// Soft compaction (pruning, no LLM call) above this many tokens; hard compaction above `compaction_at`.
    pub soft_compaction_at: u64,
    pub compaction_at: u64,
    pub compaction_preserve_tail: Setting<u64>,
    pub prune_protect_tokens: Setting<u64>,
    pub tool_output_max_chars: Setting<u64>,
    /// A cut tool output keeps this many characters from its start and from its end.
    pub tool_output_head_chars: u64,
    pub tool_output_tail_chars: u64,
}

/// `(n as f32 * ratio) as usize`, as Zeph computes every share and threshold.
pub fn f32_share(ratio: f64, n: u64) -> u64 {
    (n as f32 * ratio as f32) as u64
}

/// The budget and where it comes from (zeph-core 0.22.4 `resolve_context_budget_tokens`).
pub fn budget(s: &Settings, max_input: u64) -> (u64, &'static str) {
    match (s.context_budget_tokens.value, s.auto_budget.value) {
        (0, true) if max_input > 0 => (max_input, "auto"),
        (0, _) => (FALLBACK_BUDGET, "fallback"),
        (n, _) => (n, "configured"),
    }
}

pub fn window(s: &Settings, max_input: u64, inputs: Inputs) -> Window {
    let (budget, budget_source) = budget(s, max_input);
    let response_reserve = f32_share(s.response_reserve_ratio.value, budget);
    let available = budget.saturating_sub(response_reserve).saturating_sub(inputs.system_prompt_tokens + inputs.skills_tokens);
    let shares: Vec<ShareTokens> = s
        .shares
        .pick(inputs.graph, inputs.memory_first)
        .iter()
        .map(|sh| ShareTokens { name: sh.name, ratio: sh.ratio.value, tokens: f32_share(sh.ratio.value, available) })
        .collect();
    let recent_history = shares.iter().find(|sh| sh.name == HISTORY_SHARE).map_or(0, |sh| sh.tokens);
    let max_chars = s.tool_output_max_chars.value;
    Window {
        budget,
        budget_source,
        context_budget_tokens: s.context_budget_tokens.clone(),
        response_reserve_ratio: s.response_reserve_ratio.clone(),
        response_reserve,
        system_prompt_tokens: inputs.system_prompt_tokens,
        skills_tokens: inputs.skills_tokens,
        available,
        graph: inputs.graph,
        memory_first: inputs.memory_first,
        shares,
        recent_history,
        soft_compaction_threshold: s.soft_compaction_threshold.clone(),
        compaction_threshold: s.compaction_threshold.clone(),
        soft_compaction_at: f32_share(s.soft_compaction_threshold.value, budget),
        compaction_at: f32_share(s.compaction_threshold.value, budget),
        compaction_preserve_tail: s.compaction_preserve_tail.clone(),
        prune_protect_tokens: s.prune_protect_tokens.clone(),
        tool_output_max_chars: s.tool_output_max_chars.clone(),
        tool_output_head_chars: max_chars / 2,
        tool_output_tail_chars: max_chars - max_chars / 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_are_named_and_unknown_ones_refused() {
        assert_eq!(release("0.22.4"), Ok("zeph-context 0.22.4"));
        assert_eq!(release("v0.22.4"), Ok("zeph-context 0.22.4"));
        assert!(release("0.20.0").unwrap_err().contains("0.22.4"));
    }

    #[test]
    fn shares_are_f32_products_truncated() {
        // zeph-context's own test: 10,000 budget, 20 % reserve, empty prompts: 8,000 × 0.08.
        assert_eq!(f32_share(0.08, 8_000), 640);
        // f32 rounding differs from f64 here: 0.29 × 1,000,003 is 290,000.87 in both, but
        // 0.07 × 99,999,999 is 7,000,000 in f32 and 6,999,999 in f64.
        assert_eq!(f32_share(0.07, 99_999_999), 7_000_000);
        assert_eq!((0.07_f64 * 99_999_999.0) as u64, 6_999_999);
    }

    #[test]
    fn long_texts_are_estimated_like_zeph() {
        let long = "é".repeat(40_000); // 80,000 bytes, 40,000 characters
        assert_eq!(count_tokens(&long, |_| unreachable!("not encoded above 64 KiB")), 10_000);
        assert_eq!(count_tokens("abc", |t| t.len()), 3);
    }
}
