//! The `[zeph]` section as written, laid over the preset's, and its validation into
//! [`Settings`], each value with where it came from.

#[cfg(test)]
use schemars::JsonSchema;
use serde::Deserialize;

use super::window as zeph;
use super::window::Settings;
use crate::provenance::{overlay_opt, take, Overlay, PresetRef, Provenance, RawVersion, Section, Setting, Spanned};
use crate::runtimes::AgentFacts;

/// zeph-config 0.22.4 `src/env.rs` `apply_env_overrides_core_1`: the variables Zeph reads for the
/// settings ctxc models, and the manifest key each sets (the table's `env` row: they apply to
/// agents on the `zeph` preset only). `ZEPH_MEMORY_COMPACTION_THRESHOLD` sets the hard threshold
/// (Zeph's `hard_compaction_threshold`).
pub const ENV_VARS: [(&str, &str); 6] = [
    ("ZEPH_MEMORY_AUTO_BUDGET", "zeph.auto_budget"),
    ("ZEPH_MEMORY_COMPACTION_PRESERVE_TAIL", "zeph.compaction_preserve_tail"),
    ("ZEPH_MEMORY_COMPACTION_THRESHOLD", "zeph.compaction_threshold"),
    ("ZEPH_MEMORY_CONTEXT_BUDGET_TOKENS", "zeph.context_budget_tokens"),
    ("ZEPH_MEMORY_PRUNE_PROTECT_TOKENS", "zeph.prune_protect_tokens"),
    ("ZEPH_MEMORY_SOFT_COMPACTION_THRESHOLD", "zeph.soft_compaction_threshold"),
];

/// What to do when one of [`ENV_VARS`] holds a value that does not fit its setting.
pub const ENV_HELP: &str =
    "Zeph's variables set the [zeph] settings of agents on the zeph preset; the value must fit the setting (a number, or true/false)";

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawZeph {
    /// The Zeph release whose code ctxc follows. Preset default: `0.22.4` (zeph-context 0.22.4).
    #[serde(default)]
    pub version: Option<Spanned<RawVersion>>,
    /// The context budget in tokens (Zeph `memory.context_budget_tokens`). 0 or unset: the
    /// model's window when `auto_budget` is on, else 128000.
    #[serde(default)]
    pub context_budget_tokens: Option<Spanned<u64>>,
    /// With `context_budget_tokens` 0, use the model's window (Zeph `memory.auto_budget`). Preset
    /// default: true.
    #[serde(default)]
    pub auto_budget: Option<Spanned<bool>>,
    /// Share of the budget reserved for the response (a constant in Zeph). Preset default: 0.2.
    #[serde(default)]
    pub response_reserve_ratio: Option<Spanned<f64>>,
    /// Soft compaction (tool-output pruning, no LLM call) above this fraction of the budget (Zeph
    /// `memory.soft_compaction_threshold`). Preset default: 0.6.
    #[serde(default)]
    pub soft_compaction_threshold: Option<Spanned<f64>>,
    /// Hard compaction (LLM summary) above this fraction of the budget (Zeph
    /// `memory.hard_compaction_threshold`, alias `compaction_threshold`). Preset default: 0.9.
    #[serde(default)]
    pub compaction_threshold: Option<Spanned<f64>>,
    /// Messages always kept by compaction. Preset default: 6.
    #[serde(default)]
    pub compaction_preserve_tail: Option<Spanned<u64>>,
    /// Recent tokens never touched by tool-output pruning. Preset default: 40000.
    #[serde(default)]
    pub prune_protect_tokens: Option<Spanned<u64>>,
    /// Tool output longer than this many characters is cut to its head and tail halves. Preset
    /// default: 30000.
    #[serde(default)]
    pub tool_output_max_chars: Option<Spanned<u64>>,
    /// Append the `<budget>` hint to the system prompt (Zeph `agent.budget_hint_enabled`).
    /// Preset default: true.
    #[serde(default)]
    pub budget_hint_enabled: Option<Spanned<bool>>,
    /// Tool-call iterations per turn, at most 100 (Zeph `agent.max_tool_iterations`): the hint's
    /// `max_tool_calls`, and its `remaining_tool_calls` at a turn's first call. Preset default: 10.
    #[serde(default)]
    pub max_tool_iterations: Option<Spanned<u64>>,
    /// Cost tracking (Zeph `cost.enabled`): with a daily limit, the hint carries the budget left.
    /// Preset default: true.
    #[serde(default)]
    pub cost_enabled: Option<Spanned<bool>>,
    /// Daily spending cap in US cents, 0 for none (Zeph `cost.max_daily_cents`); a fresh day's
    /// whole cap is what the hint shows as left. Preset default: 2500.
    #[serde(default)]
    pub max_daily_cents: Option<Spanned<u64>>,
    /// Shares of what is left after the reserve, the system prompt and the skills prompt (full
    /// history). Preset defaults: summaries 0.08, semantic_recall 0.08, cross_session 0.04,
    /// code_context 0.3, recent_history 0.5.
    #[serde(default)]
    pub shares: Option<RawZephShares>,
    /// Shares with graph memory (scenario flag `graph_memory`). Preset defaults: 0.07, 0.07,
    /// 0.03, 0.29, graph_facts 0.04, 0.5.
    #[serde(default)]
    pub shares_with_graph: Option<RawZephShares>,
    /// Shares of the memory-first strategy (scenario flag `memory_first`): no recent history.
    /// Preset defaults: 0.25, 0.25, 0.15, 0.35.
    #[serde(default)]
    pub shares_memory_first: Option<RawZephShares>,
    /// Memory-first shares with graph memory. Preset defaults: 0.22, 0.22, 0.12, 0.38, 0.06.
    #[serde(default)]
    pub shares_memory_first_with_graph: Option<RawZephShares>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawZephShares {
    /// Conversation summaries.
    #[serde(default)]
    pub summaries: Option<Spanned<f64>>,
    /// Relevant messages from past conversations.
    #[serde(default)]
    pub semantic_recall: Option<Spanned<f64>>,
    /// Memories recalled from other sessions.
    #[serde(default)]
    pub cross_session: Option<Spanned<f64>>,
    /// Retrieved code chunks.
    #[serde(default)]
    pub code_context: Option<Spanned<f64>>,
    /// Facts from graph memory.
    #[serde(default)]
    pub graph_facts: Option<Spanned<f64>>,
    /// The most recent messages of the conversation.
    #[serde(default)]
    pub recent_history: Option<Spanned<f64>>,
}

impl Overlay for RawZeph {
    fn overlay(&mut self, over: Self) {
        let Self {
            version,
            context_budget_tokens,
            auto_budget,
            response_reserve_ratio,
            soft_compaction_threshold,
            compaction_threshold,
            compaction_preserve_tail,
            prune_protect_tokens,
            tool_output_max_chars,
            shares,
            shares_with_graph,
            shares_memory_first,
            shares_memory_first_with_graph,
            budget_hint_enabled,
            max_tool_iterations,
            cost_enabled,
            max_daily_cents,
        } = over;
        take(&mut self.version, version);
        take(&mut self.context_budget_tokens, context_budget_tokens);
        take(&mut self.auto_budget, auto_budget);
        take(&mut self.response_reserve_ratio, response_reserve_ratio);
        take(&mut self.soft_compaction_threshold, soft_compaction_threshold);
        take(&mut self.compaction_threshold, compaction_threshold);
        take(&mut self.compaction_preserve_tail, compaction_preserve_tail);
        take(&mut self.prune_protect_tokens, prune_protect_tokens);
        take(&mut self.tool_output_max_chars, tool_output_max_chars);
        take(&mut self.budget_hint_enabled, budget_hint_enabled);
        take(&mut self.max_tool_iterations, max_tool_iterations);
        take(&mut self.cost_enabled, cost_enabled);
        take(&mut self.max_daily_cents, max_daily_cents);
        overlay_opt(&mut self.shares, shares);
        overlay_opt(&mut self.shares_with_graph, shares_with_graph);
        overlay_opt(&mut self.shares_memory_first, shares_memory_first);
        overlay_opt(&mut self.shares_memory_first_with_graph, shares_memory_first_with_graph);
    }
}

impl Overlay for RawZephShares {
    fn overlay(&mut self, over: Self) {
        let Self { summaries, semantic_recall, cross_session, code_context, graph_facts, recent_history } = over;
        take(&mut self.summaries, summaries);
        take(&mut self.semantic_recall, semantic_recall);
        take(&mut self.cross_session, cross_session);
        take(&mut self.code_context, code_context);
        take(&mut self.graph_facts, graph_facts);
        take(&mut self.recent_history, recent_history);
    }
}

/// `[zeph]` validated.
pub fn validate(m: &mut Provenance, section: Section<'_, RawZeph>, agent: &AgentFacts) -> Settings {
    let from = section.from;
    let (u, p) = (section.user.cloned().unwrap_or_default(), section.preset.cloned().unwrap_or_default());
    // A setting Zeph requires: the user's, else the preset's.
    macro_rules! required {
        ($field:ident) => {
            m.required(concat!("zeph.", stringify!($field)), u.$field.as_ref(), p.$field.as_ref(), from)
        };
    }
    let version = match m.pick("zeph.version", u.version.as_ref(), p.version.as_ref(), from) {
        Some(v) => v.map(v.value.text()),
        None => m.required("zeph.version", None, None, from),
    };
    if let Err(message) = zeph::release(&version.value) {
        let span = u.version.as_ref().and_then(|v| m.span(v, &version.value));
        let known: Vec<String> = zeph::RELEASES.iter().map(|(v, _)| format!("\"{v}\"")).collect();
        m.error(message, span).help = Some(format!("set `[zeph] version` to {}", known.join(" or ")));
    }
    let context_budget_tokens = m
        .pick("zeph.context_budget_tokens", u.context_budget_tokens.as_ref(), p.context_budget_tokens.as_ref(), from)
        .unwrap_or_else(|| Setting {
            value: 0,
            source: "Zeph default (0: the model's window)".into(),
            key: "zeph.context_budget_tokens".into(),
            origin: from.origin.clone(),
            note: Some("not set: the model's window; set `zeph.context_budget_tokens` to change it".into()),
        });
    let auto_budget = required!(auto_budget);
    let response_reserve_ratio = required!(response_reserve_ratio);
    let soft_compaction_threshold = required!(soft_compaction_threshold);
    let compaction_threshold = required!(compaction_threshold);
    let compaction_preserve_tail = required!(compaction_preserve_tail);
    let prune_protect_tokens = required!(prune_protect_tokens);
    let tool_output_max_chars = required!(tool_output_max_chars);
    let budget_hint_enabled = required!(budget_hint_enabled);
    let max_tool_iterations = required!(max_tool_iterations);
    if max_tool_iterations.value > zeph::MAX_TOOL_ITERATIONS {
        let span = u.max_tool_iterations.as_ref().and_then(|v| v.span.clone());
        m.error(
            format!("`zeph.max_tool_iterations` is {}; Zeph refuses more than {}", max_tool_iterations.value, zeph::MAX_TOOL_ITERATIONS),
            span,
        );
    }
    let cost_enabled = required!(cost_enabled);
    let max_daily_cents = required!(max_daily_cents);
    let shares = zeph::Layouts {
        full_history: shares(m, "zeph.shares", u.shares.as_ref(), p.shares.as_ref(), from),
        full_history_graph: shares(m, "zeph.shares_with_graph", u.shares_with_graph.as_ref(), p.shares_with_graph.as_ref(), from),
        memory_first: shares(m, "zeph.shares_memory_first", u.shares_memory_first.as_ref(), p.shares_memory_first.as_ref(), from),
        memory_first_graph: shares(
            m,
            "zeph.shares_memory_first_with_graph",
            u.shares_memory_first_with_graph.as_ref(),
            p.shares_memory_first_with_graph.as_ref(),
            from,
        ),
    };
    Settings {
        version,
        context_budget_tokens,
        auto_budget,
        response_reserve_ratio,
        soft_compaction_threshold,
        compaction_threshold,
        compaction_preserve_tail,
        prune_protect_tokens,
        tool_output_max_chars,
        budget_hint_enabled,
        max_tool_iterations,
        cost_enabled,
        max_daily_cents,
        shares,
        history_max_messages: agent.history_max_messages,
    }
}

fn shares(m: &Provenance, key: &str, user: Option<&RawZephShares>, preset: Option<&RawZephShares>, from: &PresetRef) -> Vec<zeph::Share> {
    let field = |s: Option<&RawZephShares>, name: &str| -> Option<Spanned<f64>> {
        let s = s?;
        match name {
            "summaries" => s.summaries.clone(),
            "semantic_recall" => s.semantic_recall.clone(),
            "cross_session" => s.cross_session.clone(),
            "code_context" => s.code_context.clone(),
            "graph_facts" => s.graph_facts.clone(),
            _ => s.recent_history.clone(),
        }
    };
    ["summaries", "semantic_recall", "cross_session", "code_context", "graph_facts", "recent_history"]
        .into_iter()
        .filter_map(|name| {
            let ratio = m.pick(&format!("{key}.{name}"), field(user, name).as_ref(), field(preset, name).as_ref(), from)?;
            Some(zeph::Share { name, ratio })
        })
        .collect()
}
