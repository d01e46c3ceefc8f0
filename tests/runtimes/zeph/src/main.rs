//! Prints, as JSON, the window numbers Zeph 0.22.4 computes for one agent, by calling Zeph's own
//! code: `zeph_config::Config` (the config file, its defaults and the `ZEPH_*` environment
//! overrides), `zeph_context::budget::ContextBudget` (the allocation) and
//! `zeph_context::manager::ContextManager` (the compaction tiers).
//!
//! Input on stdin, one JSON object:
//!   {"config": "path/to/config.toml" | null, "model_window": 128000 | null,
//!    "system_prompt": "...", "skills_prompt": "..."}
//! `config` null: Zeph's defaults (plus the environment overrides). `model_window`: what the
//! provider reports as its context window (null: it reports none).
//! `zeph-runtime --dump-defaults` prints Zeph's default config file instead.
//! With `"conversation"` (ctxc's `Conversation` as JSON), `"summaries"` (the texts the model
//! writes when Zeph compacts) and `"pair_summaries"` (the texts it writes when Zeph summarizes
//! one tool call with its results), it replays the conversation through Zeph's context policy and
//! prints one object per model call instead (see simulate.rs).

mod simulate;

use std::io::Read;

use serde_json::{Value, json};
use zeph_common::memory::TokenCounting;
use zeph_config::{Config, ContextStrategy};
use zeph_context::budget::{BudgetAllocation, ContextBudget};
use zeph_context::manager::{CompactionTier, ContextManager};

/// `zeph_core::agent::session_config::CONTEXT_BUDGET_RESERVE_RATIO` (zeph-core 0.22.4): a
/// constant there, not a config key. zeph-core itself is not linked (see Cargo.toml).
const CONTEXT_BUDGET_RESERVE_RATIO: f32 = 0.20;
/// `zeph-memory` 0.22.4 `token_counter.rs`: inputs longer than this (bytes) are estimated.
const MAX_INPUT_LEN: usize = 65_536;

/// zeph-memory 0.22.4's `TokenCounter::count_tokens` without its cache (zeph-memory itself pulls
/// sqlx and qdrant-client): cl100k_base with special tokens, chars/4 (Zeph's own
/// `estimate_tokens`) above 64 KiB.
/// Counts are kept by text, as zeph-memory's cache keeps them (a replay counts a text often).
struct Cl100k(tiktoken_rs::CoreBPE, std::sync::Mutex<std::collections::HashMap<String, usize>>);

impl TokenCounting for Cl100k {
    fn count_tokens(&self, text: &str) -> usize {
        if text.is_empty() {
            0
        } else if text.len() > MAX_INPUT_LEN {
            zeph_common::text::estimate_tokens(text)
        } else {
            let mut cache = self.1.lock().expect("one thread");
            *cache.entry(text.to_string()).or_insert_with(|| self.0.encode_with_special_tokens(text).len())
        }
    }

    fn count_tool_schema_tokens(&self, schema: &Value) -> usize {
        self.count_tokens(&schema.to_string())
    }
}

fn allocation(a: &BudgetAllocation) -> Value {
    json!({
        "system_prompt": a.system_prompt, "skills": a.skills, "response_reserve": a.response_reserve,
        "summaries": a.summaries, "semantic_recall": a.semantic_recall, "cross_session": a.cross_session,
        "code_context": a.code_context, "graph_facts": a.graph_facts, "recent_history": a.recent_history,
        "session_digest": a.session_digest,
    })
}

/// The largest token count `compaction_tier` still puts below `tier`: Zeph compacts above it.
fn last_below(manager: &ContextManager, budget: usize, tier: CompactionTier) -> u64 {
    let reaches = |n: u64| {
        let t = manager.compaction_tier(n);
        t == tier || (tier == CompactionTier::Soft && t == CompactionTier::Hard)
    };
    let (mut lo, mut hi) = (0u64, budget as u64 * 2 + 1);
    if reaches(lo) {
        return 0;
    }
    // Invariant: !reaches(lo), reaches(hi).
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if reaches(mid) { hi = mid } else { lo = mid }
    }
    lo
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--dump-defaults") {
        print!("{}", Config::dump_defaults().expect("defaults serialize"));
        return;
    }
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("read stdin");
    let input: Value = serde_json::from_str(&input).expect("stdin is one JSON object");
    let config = match input["config"].as_str() {
        Some(path) => Config::load(std::path::Path::new(path)).unwrap_or_else(|e| {
            println!("{}", json!({ "error": e.to_string() }));
            std::process::exit(3)
        }),
        None => {
            let mut config = Config::default();
            config.apply_env_overrides();
            config
        }
    };
    let memory = &config.memory;
    let window = input["model_window"].as_u64().map(|n| n as usize);
    // zeph-core 0.22.4 `agent/mod.rs` `resolve_context_budget_tokens` (not linkable, see above).
    let (budget, source) = if memory.auto_budget && memory.context_budget_tokens == 0 {
        match window {
            Some(n) if n > 0 => (n, "auto"),
            _ => (128_000, "fallback"),
        }
    } else if memory.context_budget_tokens == 0 {
        (128_000, "fallback")
    } else {
        (memory.context_budget_tokens, "configured")
    };

    let tc = Cl100k(tiktoken_rs::cl100k_base().expect("bundled cl100k_base"), Default::default());
    let system_prompt = input["system_prompt"].as_str().unwrap_or("");
    if input["conversation"].is_object() {
        let summaries = input["summaries"].as_array().expect("summaries").iter().map(|s| s.as_str().expect("text").to_string()).collect();
        let pair_summaries =
            input["pair_summaries"].as_array().expect("pair_summaries").iter().map(|s| s.as_str().expect("text").to_string()).collect();
        let calls = simulate::run(
            &config,
            budget,
            CONTEXT_BUDGET_RESERVE_RATIO,
            system_prompt,
            &input["conversation"],
            &tc,
            summaries,
            pair_summaries,
        );
        println!("{}", serde_json::to_string_pretty(&json!({ "release": "zeph-context 0.22.4", "calls": calls })).expect("json"));
        return;
    }
    let skills_prompt = input["skills_prompt"].as_str().unwrap_or("");
    let graph = memory.graph.enabled;
    let context_budget = ContextBudget::new(budget, CONTEXT_BUDGET_RESERVE_RATIO).with_graph_enabled(graph);
    let allocate =
        |graph, memory_first| allocation(&context_budget.allocate_with_opts(system_prompt, skills_prompt, &tc, graph, 0, memory_first));
    // `Adaptive` starts as full history (zeph-context `assembler.rs` `resolve_effective_strategy`).
    let memory_first = memory.context_strategy == ContextStrategy::MemoryFirst;

    let mut manager = ContextManager::new();
    manager.apply_budget_config(
        budget,
        CONTEXT_BUDGET_RESERVE_RATIO,
        memory.hard_compaction_threshold,
        memory.compaction_preserve_tail,
        memory.prune_protect_tokens,
        memory.soft_compaction_threshold,
        memory.compaction_cooldown_turns,
    );
    let out = json!({
        "release": "zeph-context 0.22.4",
        "budget": budget,
        "budget_source": source,
        "context_budget_tokens": memory.context_budget_tokens,
        "auto_budget": memory.auto_budget,
        "graph_enabled": graph,
        "memory_first": memory_first,
        "allocation": allocate(graph, memory_first),
        "allocations": {
            "full_history": allocate(false, false),
            "full_history_graph": allocate(true, false),
            "memory_first": allocate(false, true),
            "memory_first_graph": allocate(true, true),
        },
        "soft_compaction_threshold": memory.soft_compaction_threshold,
        "hard_compaction_threshold": memory.hard_compaction_threshold,
        "soft_compaction_at": last_below(&manager, budget, CompactionTier::Soft),
        "hard_compaction_at": last_below(&manager, budget, CompactionTier::Hard),
        "compaction_preserve_tail": manager.compaction_preserve_tail,
        "prune_protect_tokens": manager.prune_protect_tokens,
        "cross_session_score_threshold": memory.cross_session_score_threshold,
        "recall_limit": memory.semantic.recall_limit,
        "summarize_output": config.tools.summarize_output,
        "tool_overflow_threshold": config.tools.overflow.threshold,
        "index_enabled": config.index.enabled,
        "repo_map_tokens": config.index.repo_map_tokens,
        // What zeph-core's `<budget>` hint is made of at a turn's first call (see tests/runtimes/zeph.rs).
        "budget_hint_enabled": config.agent.budget_hint_enabled,
        "max_tool_iterations": config.agent.max_tool_iterations,
        "cost_enabled": config.cost.enabled,
        "max_daily_cents": config.cost.max_daily_cents,
    });
    println!("{}", serde_json::to_string_pretty(&out).expect("json"));
}
