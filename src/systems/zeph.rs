//! Zeph's context window layout: a response reserve (a share of the budget), then proportional
//! shares of what remains (without a code index: summaries, semantic recall, recent history; with
//! one: summaries, semantic recall, code context, recent history). The system prompt and tool
//! schemas travel with the recent messages (history trimming always keeps the system prompt), so
//! ctxc charges the fixed context to the recent-history share. Compaction, tool-output pruning
//! protection and tool-output truncation are reported and checked.

use serde::Serialize;

use super::{finding, fixed_reaches_trigger, largest_fixed, pct, share_of, Setting};
use crate::diagnostic::{Diagnostic, Severity};
use crate::manifest::model::Agent;
use crate::measure::Measured;

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

pub fn check(agent: &Agent, s: &Settings, measured: &[Measured]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let max_input = agent.profile.max_input_tokens;
    if s.context_budget_tokens.value > max_input {
        out.push(finding(
            "SET011",
            &s.context_budget_tokens,
            format!("Zeph's context_budget_tokens ({}) is larger than the model's window ({max_input} tokens): the layout would plan room the model does not have", s.context_budget_tokens.value),
        ));
    }
    let reserve = s.response_reserve_ratio.value;
    if !(0.0..1.0).contains(&reserve) {
        out.push(finding("SET012", &s.response_reserve_ratio, format!("Zeph's response reserve ratio {reserve} must be at least 0 and below 1 (a share of the budget)")));
    }
    for (label, shares) in [("without a code index", &s.shares), ("with a code index", &s.shares_with_code_index)] {
        let sum: f64 = shares.iter().map(|sh| sh.ratio.value).sum();
        let negative = shares.iter().any(|sh| sh.ratio.value < 0.0);
        if negative || (sum - 1.0).abs() > 1e-6 {
            // Point at a share the user wrote, if any: that is the one to fix.
            let Some(at) = shares.iter().find(|sh| sh.ratio.note.is_none()).or(shares.first()) else { continue };
            let parts: Vec<String> = shares.iter().map(|sh| format!("{} {}", sh.name, pct(sh.ratio.value))).collect();
            out.push(finding(
                "SET005",
                &at.ratio,
                format!("Zeph's shares {label} add up to {} ({}), not 100 %; each share must be at least 0", pct(sum), parts.join(" + ")),
            ));
        }
    }
    let threshold = s.compaction_threshold.value;
    if !(threshold > 0.0 && threshold < 1.0) {
        out.push(finding("SET007", &s.compaction_threshold, format!("Zeph's compaction_threshold {threshold} must be above 0 and below 1 (a share of the budget)")));
    } else if threshold > 1.0 - reserve {
        out.push(finding(
            "SET007",
            &s.compaction_threshold,
            format!("Zeph's compaction_threshold {threshold} lets messages grow into the response reserve ({} of the budget) before compaction fires", pct(reserve)),
        ));
    }
    let tail = s.compaction_preserve_tail.value;
    if tail == 0 {
        out.push(finding("SET008", &s.compaction_preserve_tail, "Zeph's compaction_preserve_tail is 0: compaction would keep no recent message".to_string()));
    } else if let Some(max) = s.history_max_messages.filter(|&max| tail >= max as u64) {
        out.push(finding(
            "SET008",
            &s.compaction_preserve_tail,
            format!("Zeph's compaction_preserve_tail keeps the last {tail} messages, but the history holds at most {max} (history.max_messages): compaction could never shorten it"),
        ));
    }
    let max_chars = s.tool_output_max_chars.value;
    if max_chars == 0 {
        out.push(finding("SET010", &s.tool_output_max_chars, "Zeph's tool_output_max_chars is 0: every tool output would be cut to nothing".to_string()));
    }
    let windows: Vec<(&Measured, &Window)> = measured.iter().filter_map(|m| m.window.zeph.as_ref().map(|z| (m, z))).collect();
    let where_ = |m: &Measured| format!("{} mode, scenario `{}`", m.mode, m.scenario);
    if let Some((m, z)) = windows.iter().min_by_key(|(_, z)| z.history_after_fixed) {
        let history_setting = history_share_setting(s, z.code_index);
        let severity = if z.fixed > z.recent_history as i64 {
            Some(Severity::Error)
        } else if z.fixed as f64 >= z.recent_history as f64 * agent.budgets.warn_ratio {
            Some(Severity::Warning)
        } else {
            None
        };
        if let (Some(severity), Some(setting)) = (severity, history_setting) {
            let verb = if severity == Severity::Error { "outgrows" } else { "nearly fills" };
            let mut d = finding(
                "SET006",
                setting,
                format!(
                    "the fixed context ({} tokens: system prompt + tool schemas, {}) {verb} Zeph's recent-history share ({} tokens = {} of {} available), which carries it",
                    z.fixed, where_(m), z.recent_history, pct(setting.value), z.available
                ),
            );
            d.severity = severity;
            out.push(d);
        }
        let estimate = max_chars.div_ceil(CHARS_PER_TOKEN);
        if max_chars > 0 && estimate as i64 > z.history_after_fixed {
            out.push(finding(
                "SET010",
                &s.tool_output_max_chars,
                format!(
                    "one tool output cut at {max_chars} characters (~{estimate} tokens at {CHARS_PER_TOKEN} characters per token) does not fit in what the recent-history share leaves after the fixed context ({} tokens, {})",
                    z.history_after_fixed, where_(m)
                ),
            ));
        }
    }
    if let Some(worst) = largest_fixed(measured) {
        let compaction_at = share_of(threshold, budget(s, max_input));
        let messages_at_compaction = compaction_at as i64 - worst.window.fixed;
        let protect = s.prune_protect_tokens.value;
        if protect as i64 >= messages_at_compaction {
            out.push(finding(
                "SET009",
                &s.prune_protect_tokens,
                format!(
                    "Zeph protects the last {protect} tokens from tool-output pruning, but compaction fires when messages reach {messages_at_compaction} tokens ({compaction_at} at compaction_threshold {threshold} − fixed context {}, {}): pruning could never free anything first",
                    worst.window.fixed, where_(worst)
                ),
            ));
        }
        out.extend(fixed_reaches_trigger("Zeph", "compaction threshold", &s.compaction_threshold, compaction_at, worst));
    }
    out
}

fn history_share_setting(s: &Settings, code_index: bool) -> Option<&Setting<f64>> {
    let shares = if code_index { &s.shares_with_code_index } else { &s.shares };
    shares.iter().find(|sh| sh.name == HISTORY_SHARE).map(|sh| &sh.ratio)
}
