//! A conversation replayed through Zeph 0.22.4's context policy, model call by model call, for
//! tests/runtimes/zeph.rs to compare with `ctxc simulate`.
//!
//! Zeph's own code, linked: `zeph_config::Config` (every threshold, the tail, the cooldown, the
//! tool-call cutoff, the overflow threshold, as Zeph loads them), `zeph_context::manager::
//! ContextManager` (`apply_budget_config`, `compaction_tier`: which tier a count is in;
//! `CompactionState` and its `advance_turn`: the cooldown and exhaustion states),
//! `zeph_llm::provider::{Message, MessagePart}` (the message shapes, `from_parts` and
//! `rebuild_content`), `zeph_context::summarization::extract_overflow_ref`.
//!
//! Transcribed here, because the crates that hold them cannot be linked (zeph-core,
//! zeph-agent-context, zeph-memory and zeph-tools pull sqlx, qdrant-client and more; see
//! docs/runtimes/zeph.md), each from the 0.22.4 source named: the per-part token count
//! (zeph-memory `token_counter.rs`), the turn's order of steps (zeph-core `agent/mod.rs`:
//! `advance_turn`, `rebuild_system_prompt` recounting, `maybe_compact`, then the user message),
//! the soft and hard tiers (zeph-agent-context `service.rs` `maybe_compact`,
//! `do_soft_compaction`, `do_hard_compaction`; `summarization/pruning.rs`
//! `prune_tool_outputs_oldest_first`; `summarization/compaction.rs` `compact_context`,
//! `adjust_compact_end_for_tool_pairs`, `finalize_compacted_messages`;
//! `summarization/scheduling.rs` `maybe_soft_compact_mid_iteration`), the tool loop's pruning
//! (zeph-core `context/summarization/pruning.rs` `prune_stale_tool_outputs`) and the tool output
//! cut (zeph-core `tool_execution/mod.rs` `maybe_summarize_tool_output`, zeph-tools
//! `truncate_tool_output_at`). This is written from Zeph's source, not from ctxc's code.

use serde_json::{Value, json};
use zeph_config::{Config, ProviderKind};
use zeph_context::manager::{CompactionState, CompactionTier, ContextManager};
use zeph_context::slot::cap_summary;
use zeph_context::summarization::{build_tool_pair_summary_prompt, extract_overflow_ref};
use zeph_llm::provider::{Message, MessageMetadata, MessagePart, MessageVisibility, Role};

use crate::Cl100k;
use zeph_common::memory::TokenCounting;

/// zeph-memory 0.22.4 `token_counter.rs` part overheads.
const TOOL_USE_OVERHEAD: usize = 20;
const TOOL_RESULT_OVERHEAD: usize = 15;
const TOOL_OUTPUT_OVERHEAD: usize = 8;

/// zeph-memory `TokenCounter::count_message_tokens`, for the parts this replay makes.
fn message_tokens(tc: &Cl100k, m: &Message) -> usize {
    if m.parts.is_empty() {
        return tc.count_tokens(&m.content);
    }
    m.parts
        .iter()
        .map(|p| match p {
            MessagePart::Text { text } | MessagePart::Summary { text } if text.trim().is_empty() => 0,
            MessagePart::Text { text } | MessagePart::Summary { text } => tc.count_tokens(text),
            MessagePart::ToolUse { id, name, input } => {
                TOOL_USE_OVERHEAD + tc.count_tokens(id) + tc.count_tokens(name) + tc.count_tokens(&input.to_string())
            }
            MessagePart::ToolResult { tool_use_id, content, .. } => {
                TOOL_RESULT_OVERHEAD + tc.count_tokens(tool_use_id) + tc.count_tokens(content)
            }
            MessagePart::ToolOutput { tool_name, body, .. } => {
                TOOL_OUTPUT_OVERHEAD + tc.count_tokens(tool_name.as_str()) + tc.count_tokens(body)
            }
            other => panic!("the replay makes no {other:?}"),
        })
        .sum()
}

/// zeph-tools `truncate_tool_output_at`.
fn truncate_at(output: &str, max_chars: usize) -> String {
    if output.len() <= max_chars {
        return output.to_string();
    }
    let half = max_chars / 2;
    let head_end = output.floor_char_boundary(half);
    let tail_start = output.ceil_char_boundary(output.len() - half);
    let truncated = output.len() - head_end - (output.len() - tail_start);
    format!(
        "{}\n\n... [truncated {truncated} chars, showing first and last ~{half} chars] ...\n\n{}",
        &output[..head_end],
        &output[tail_start..]
    )
}

/// The replay's state: Zeph's message list, and beside it the conversation's ids of each message.
struct Session<'a> {
    tc: &'a Cl100k,
    messages: Vec<Message>,
    ids: Vec<Vec<String>>,
    cached: u64,
    manager: ContextManager,
    cutoff: usize,
    /// The summaries the model writes, in order (the test gives them: a summary is the model's).
    summaries: std::vec::IntoIter<String>,
    /// The summaries the model writes of single tool pairs (Zeph's compaction provider, which
    /// is the main one unless `[memory] compaction_provider` names another), in order.
    pair_summaries: std::vec::IntoIter<String>,
    /// Whether the provider leaves hidden messages out of the request (zeph-llm's Claude
    /// provider, `claude/request.rs`; the OpenAI, Ollama, Gemini and compatible ones send every
    /// message they are given).
    drops_hidden: bool,
}

impl Session<'_> {
    /// `push_message`: the running count grows by the message's tokens.
    fn push(&mut self, m: Message, ids: Vec<String>) {
        self.cached += message_tokens(self.tc, &m) as u64;
        self.messages.push(m);
        self.ids.push(ids);
    }

    fn recount(&self) -> u64 {
        self.messages.iter().map(|m| message_tokens(self.tc, m) as u64).sum()
    }

    /// The messages the provider sends, with their ids.
    fn sent(&self) -> impl Iterator<Item = (&Message, &Vec<String>)> {
        self.messages.iter().zip(&self.ids).filter(|(m, _)| !self.drops_hidden || m.metadata.visibility.is_agent_visible())
    }

    /// zeph-agent-context `summarization/deferred.rs` `unsummarized_pairs`: a visible tool call
    /// followed by its visible results, which have no deferred summary yet.
    fn unsummarized_pairs(&self) -> Vec<(usize, usize)> {
        let m = &self.messages;
        let mut pairs = Vec::new();
        let mut i = 1;
        while i < m.len() {
            let visible = |j: usize| m[j].metadata.visibility.is_agent_visible();
            let request = m[i].role == Role::Assistant && m[i].parts.iter().any(|p| matches!(p, MessagePart::ToolUse { .. }));
            if visible(i)
                && request
                && i + 1 < m.len()
                && visible(i + 1)
                && m[i + 1].role == Role::User
                && m[i + 1].parts.iter().any(|p| matches!(p, MessagePart::ToolResult { .. } | MessagePart::ToolOutput { .. }))
                && m[i + 1].metadata.deferred_summary.is_none()
            {
                pairs.push((i, i + 1));
                i += 2;
            } else {
                i += 1;
            }
        }
        pairs
    }

    /// zeph-agent-context `maybe_summarize_tool_pair`: while more than `tool_call_cutoff` pairs
    /// have no summary, the model summarizes the oldest whose results are not all pruned, and
    /// the summary waits on the results message (`deferred_summary`).
    fn summarize_tool_pairs(&mut self, events: &mut Vec<Value>) {
        let mut summarized = Vec::new();
        loop {
            let pairs = self.unsummarized_pairs();
            if pairs.len() <= self.cutoff {
                break;
            }
            let all_pruned = |m: &Message| {
                m.parts.iter().all(|p| match p {
                    MessagePart::ToolOutput { body, .. } => body.is_empty(),
                    MessagePart::ToolResult { content, .. } => content.trim() == "[pruned]" || content.is_empty(),
                    _ => true,
                })
            };
            let Some(&(request, results)) = pairs.iter().find(|(_, results)| !all_pruned(&self.messages[*results])) else {
                break;
            };
            // The prompt the compaction provider receives; the scripted model answers it with
            // the next text the test gave.
            let prompt = build_tool_pair_summary_prompt(&self.messages[request], &self.messages[results]);
            assert!(prompt.contains("<tool_response>"), "Zeph's tool-pair prompt");
            let summary = cap_summary(self.pair_summaries.next().expect("a summary for each tool pair"), 8_000);
            self.messages[results].metadata.deferred_summary = Some(summary);
            summarized.push(self.ids[request][0].clone());
        }
        if !summarized.is_empty() {
            events.push(json!({"kind": "tool_pairs_summarized", "messages": summarized}));
        }
    }

    /// zeph-agent-context `apply_deferred_summaries`: each pair with a waiting summary is hidden
    /// from the model (`UserOnly`, still in the list and in the count) and followed by an
    /// assistant message holding the summary; the running count is taken afresh over the whole
    /// list.
    fn apply_deferred(&mut self, events: &mut Vec<Value>) {
        let mut targets = Vec::new();
        for i in 1..self.messages.len() {
            let Some(summary) = self.messages[i].metadata.deferred_summary.clone() else { continue };
            let (req, resp) = (&self.messages[i - 1], &self.messages[i]);
            assert!(
                resp.role == Role::User
                    && resp.metadata.visibility.is_agent_visible()
                    && req.role == Role::Assistant
                    && req.metadata.visibility.is_agent_visible()
                    && req.parts.iter().any(|p| matches!(p, MessagePart::ToolUse { .. })),
                "a summary waits only on the results of the call before them"
            );
            targets.push((i, summary));
        }
        if targets.is_empty() {
            return;
        }
        let hidden: Vec<String> = targets.iter().flat_map(|(i, _)| self.ids[i - 1].iter().chain(&self.ids[*i]).cloned()).collect();
        for (resp, summary) in targets.into_iter().rev() {
            self.messages[resp - 1].metadata.visibility = MessageVisibility::UserOnly;
            self.messages[resp].metadata.visibility = MessageVisibility::UserOnly;
            self.messages[resp].metadata.deferred_summary = None;
            let message = Message {
                role: Role::Assistant,
                content: format!("[tool summary] {summary}"),
                parts: vec![MessagePart::Summary { text: summary }],
                metadata: MessageMetadata::agent_only(),
            };
            let id = format!("tool-summary-{}", self.ids[resp - 1][0]);
            self.messages.insert(resp + 1, message);
            self.ids.insert(resp + 1, vec![id]);
        }
        self.cached = self.recount();
        events.push(json!({"kind": "tool_summaries_applied", "messages": hidden, "count": self.cached}));
    }

    /// zeph-agent-context `maybe_apply_deferred_summaries` (tier 0): applied when the count is
    /// in the soft or hard tier, or when `tool_call_cutoff` summaries wait.
    fn maybe_apply_deferred(&mut self, events: &mut Vec<Value>) {
        let pending = self.messages.iter().filter(|m| m.metadata.deferred_summary.is_some()).count();
        if pending == 0 {
            return;
        }
        let pressure = matches!(self.manager.compaction_tier(self.cached), CompactionTier::Soft | CompactionTier::Hard);
        if pressure || pending >= self.cutoff {
            self.apply_deferred(events);
        }
    }

    fn budget(&self) -> usize {
        self.manager.budget.as_ref().map_or(0, |b| b.max_tokens())
    }

    fn at(&self, ratio: f32) -> u64 {
        (self.budget() as f32 * ratio) as usize as u64
    }

    /// `prune_tool_outputs_oldest_first`: only `ToolOutput` parts outside the protected tail.
    fn prune_tool_outputs(&mut self, min_to_free: usize) -> usize {
        let protect = self.manager.prune_protect_tokens;
        let mut tail = 0;
        let mut boundary = self.messages.len();
        if protect > 0 {
            for (i, m) in self.messages.iter().enumerate().rev() {
                tail += message_tokens(self.tc, m);
                if tail >= protect {
                    boundary = i;
                    break;
                }
                if i == 0 {
                    boundary = 0;
                }
            }
        }
        let mut freed = 0;
        for m in &mut self.messages[..boundary] {
            if freed >= min_to_free {
                break;
            }
            let mut modified = false;
            for part in &mut m.parts {
                if let MessagePart::ToolOutput { body, compacted_at, .. } = part
                    && compacted_at.is_none()
                    && !body.is_empty()
                    && !body.starts_with("[archived:")
                {
                    freed += self.tc.count_tokens(body);
                    let notice = extract_overflow_ref(body)
                        .map(|p| format!("[tool output pruned; use read_overflow {p} to retrieve]"))
                        .unwrap_or_default();
                    freed -= self.tc.count_tokens(&notice);
                    *compacted_at = Some(0);
                    *body = notice;
                    modified = true;
                }
            }
            if modified {
                m.rebuild_content();
            }
        }
        self.cached = self.cached.saturating_sub(freed as u64);
        freed
    }

    fn state(&self) -> CompactionState {
        self.manager.compaction_state()
    }

    /// `maybe_compact` with its soft and hard tiers (no server compaction, no fidelity regrade);
    /// both tiers first apply the waiting tool-pair summaries.
    fn maybe_compact(&mut self, events: &mut Vec<Value>) {
        if let CompactionState::Exhausted { warned: false } = self.state() {
            self.manager.set_compaction_state(CompactionState::Exhausted { warned: true });
        }
        if self.state().is_exhausted() || self.state().is_compacted_this_turn() {
            return;
        }
        let in_cooldown = self.state().cooldown_remaining() > 0;
        if let CompactionState::Cooling { turns_remaining } = self.state() {
            let next = turns_remaining - 1;
            self.manager.set_compaction_state(if next == 0 {
                CompactionState::Ready
            } else {
                CompactionState::Cooling { turns_remaining: next }
            });
        }
        let count = self.cached;
        let soft_at = self.at(self.manager.soft_compaction_threshold);
        let hard_at = self.at(self.manager.hard_compaction_threshold);
        match self.manager.compaction_tier(count) {
            CompactionTier::Soft => {
                // do_soft_compaction: the summaries, then pruning down to the threshold from
                // the count they leave.
                self.apply_deferred(events);
                let min = (self.cached as usize).saturating_sub(soft_at as usize);
                let freed = if min > 0 { self.prune_tool_outputs(min) } else { 0 };
                events.push(json!({"kind": "soft_compaction", "count": count, "threshold": soft_at, "freed": freed}));
            }
            CompactionTier::Hard => {
                if in_cooldown {
                    events.push(json!({"kind": "compaction_skipped", "count": count, "threshold": hard_at}));
                    return;
                }
                let min = (count as usize).saturating_sub(hard_at as usize);
                self.apply_deferred(events);
                let before = self.cached;
                let freed = self.prune_tool_outputs(min);
                let cooldown = self.manager.compaction_cooldown_turns();
                if freed >= min {
                    self.manager.set_compaction_state(CompactionState::CompactedThisTurn { cooldown });
                    return;
                }
                let tail = self.manager.compaction_preserve_tail;
                let exhausted = |s: &mut Self, events: &mut Vec<Value>| {
                    s.manager.set_compaction_state(CompactionState::Exhausted { warned: false });
                    events.push(json!({"kind": "compaction_exhausted", "count": count, "threshold": hard_at}));
                };
                if self.messages.len().saturating_sub(tail + 1) <= 1 {
                    return exhausted(self, events);
                }
                // compact_context
                let mut end = self.messages.len() - tail;
                while end > 1 && self.messages[end - 1].parts.iter().any(|p| matches!(p, MessagePart::ToolUse { .. })) {
                    end -= 1;
                }
                if end <= 1 {
                    return exhausted(self, events);
                }
                let compacted = end - 1;
                let summary = self.summaries.next().expect("a summary for each compaction");
                let content = format!("[conversation summary — {compacted} messages compacted]\n{summary}");
                self.messages.drain(1..end);
                self.ids.drain(1..end);
                self.messages.insert(1, Message { role: Role::System, content, parts: vec![], metadata: MessageMetadata::agent_only() });
                self.ids.insert(1, vec!["summary".to_string()]);
                self.cached = self.recount();
                let kept_from = self.ids.get(2).and_then(|ids| ids.first()).cloned();
                events.push(json!({
                    "kind": "summarized", "by": "hard compaction", "count": count, "threshold": hard_at,
                    "summarized": compacted, "kept_from": kept_from, "kept": self.messages.len() - 2,
                }));
                if before.saturating_sub(self.cached) == 0 || self.manager.compaction_tier(self.cached) == CompactionTier::Hard {
                    return exhausted(self, events);
                }
                self.manager.set_compaction_state(CompactionState::CompactedThisTurn { cooldown });
            }
            _ => {}
        }
    }

    /// `prune_stale_tool_outputs(2 × tool_call_cutoff + 2)`: the running count is not lowered.
    fn prune_stale(&mut self, events: &mut Vec<Value>) {
        let keep_recent = 2 * self.cutoff + 2;
        if self.messages.len() <= keep_recent + 1 {
            return;
        }
        let boundary = self.messages.len() - keep_recent;
        let mut freed = 0;
        let mut pruned = Vec::new();
        for (m, ids) in self.messages[1..boundary].iter_mut().zip(&self.ids[1..boundary]) {
            let mut modified = false;
            for part in &mut m.parts {
                if let MessagePart::ToolResult { tool_use_id, content, .. } = part {
                    let tokens = self.tc.count_tokens(content);
                    if tokens > 20 {
                        let notice = extract_overflow_ref(content)
                            .map_or_else(|| "[pruned]".to_string(), |p| format!("[tool output pruned; use read_overflow {p} to retrieve]"));
                        freed += tokens - self.tc.count_tokens(&notice);
                        *content = notice;
                        modified = true;
                        assert!(ids.contains(tool_use_id), "ids follow the messages");
                        pruned.push(tool_use_id.clone());
                    }
                }
            }
            if modified {
                m.rebuild_content();
            }
        }
        if !pruned.is_empty() {
            events.push(json!({"kind": "tool_results_pruned", "messages": pruned, "freed": freed}));
        }
    }

    /// `maybe_soft_compact_mid_iteration`.
    fn soft_mid_iteration(&mut self, events: &mut Vec<Value>) {
        if self.state().is_compacted_this_turn() {
            return;
        }
        if !matches!(self.manager.compaction_tier(self.cached), CompactionTier::Soft | CompactionTier::Hard) {
            return;
        }
        let count = self.cached;
        let soft_at = self.at(self.manager.soft_compaction_threshold);
        // The minimum to free is taken before the summaries are applied.
        self.apply_deferred(events);
        let min = (count as usize).saturating_sub(soft_at as usize);
        let freed = if min > 0 { self.prune_tool_outputs(min) } else { 0 };
        events.push(json!({"kind": "soft_compaction", "count": count, "threshold": soft_at, "freed": freed}));
    }

    fn sent_ids(&self) -> Vec<String> {
        self.sent().skip(1).flat_map(|(_, ids)| ids.iter().cloned()).collect()
    }

    fn sent_tokens(&self) -> u64 {
        self.sent().map(|(m, _)| message_tokens(self.tc, m) as u64).sum()
    }
}

/// Replays `conversation` (ctxc's `Conversation` as JSON) with the model writing `summaries`, and
/// returns one object per model call.
pub fn run(
    config: &Config,
    budget: usize,
    reserve_ratio: f32,
    system_prompt: &str,
    conversation: &Value,
    tc: &Cl100k,
    summaries: Vec<String>,
    pair_summaries: Vec<String>,
) -> Value {
    let memory = &config.memory;
    let mut manager = ContextManager::new();
    manager.apply_budget_config(
        budget,
        reserve_ratio,
        memory.hard_compaction_threshold,
        memory.compaction_preserve_tail,
        memory.prune_protect_tokens,
        memory.soft_compaction_threshold,
        memory.compaction_cooldown_turns,
    );
    let overflow = config.tools.overflow.threshold;
    let mut s = Session {
        tc,
        messages: Vec::new(),
        ids: Vec::new(),
        cached: 0,
        manager,
        cutoff: memory.tool_call_cutoff,
        summaries: summaries.into_iter(),
        pair_summaries: pair_summaries.into_iter(),
        drops_hidden: config.llm.providers.first().is_some_and(|p| p.provider_type == ProviderKind::Claude),
    };
    s.push(Message::from_legacy(Role::System, system_prompt), vec![]);
    let mut calls = Vec::new();
    let str_of = |v: &Value, key: &str| v[key].as_str().unwrap_or_default().to_string();
    // What happened before the next model call (a turn whose tool loop stopped hands its events
    // to the next turn's first call).
    let mut events = Vec::new();
    for (t, turn) in conversation["turns"].as_array().expect("turns").iter().enumerate() {
        // Turn start: advance_turn, the system prompt rebuilt and recounted, maybe_compact.
        s.manager.advance_turn();
        s.cached = s.recount();
        s.maybe_apply_deferred(&mut events);
        s.maybe_compact(&mut events);
        let user = &turn["user"];
        s.push(Message::from_legacy(Role::User, str_of(user, "content")), vec![str_of(user, "id")]);
        let mut step = 0;
        let mut results: Vec<(MessagePart, String)> = Vec::new();
        for m in turn["steps"].as_array().expect("steps") {
            if m["role"] == "tool" {
                let output = str_of(m, "content");
                // maybe_summarize_tool_output with summarize_output off and no memory backend.
                let content = if output.len() <= overflow {
                    output
                } else {
                    events.push(json!({"kind": "tool_result_truncated", "message": str_of(m, "id"), "bytes": output.len()}));
                    format!(
                        "{}\n[warning: full output ({} bytes) could not be saved — no memory backend or conversation available]",
                        truncate_at(&output, overflow),
                        output.len()
                    )
                };
                results
                    .push((MessagePart::ToolResult { tool_use_id: str_of(m, "tool_call_id"), content, is_error: false }, str_of(m, "id")));
                continue;
            }
            if !results.is_empty() {
                // The step's results as one user message, then the tool loop's pruning.
                let (parts, ids): (Vec<MessagePart>, Vec<String>) = std::mem::take(&mut results).into_iter().unzip();
                s.push(Message::from_parts(Role::User, parts), ids);
                // zeph-core `tier_loop.rs`: summarize, prune, apply, then the mid-iteration soft tier.
                s.summarize_tool_pairs(&mut events);
                s.prune_stale(&mut events);
                s.maybe_apply_deferred(&mut events);
                s.soft_mid_iteration(&mut events);
            }
            // zeph-core `tier_loop.rs` `process_single_native_turn`: before each model call, a
            // running count at or above four fifths of the budget ends the turn's tool loop (the
            // user is told the window is nearly full; nothing is added to the history, and the
            // turn's remaining steps never happen). Without a budget there is no such stop.
            let limit = s.manager.budget.as_ref().map(|b| (b.max_tokens() * 4 / 5) as u64);
            if let Some(limit) = limit.filter(|&limit| s.cached >= limit) {
                events.push(json!({"kind": "tool_loop_stopped", "count": s.cached, "threshold": limit}));
                break;
            }
            step += 1;
            calls.push(json!({
                "turn": t + 1, "step": step, "count": s.cached, "sent": s.sent_tokens(),
                "messages": s.sent_ids(), "events": std::mem::take(&mut events),
            }));
            let calls_of = m["tool_calls"].as_array().cloned().unwrap_or_default();
            let text = str_of(m, "content");
            let answer = if calls_of.is_empty() {
                Message::from_legacy(Role::Assistant, text)
            } else {
                let mut parts = Vec::new();
                if !text.is_empty() {
                    parts.push(MessagePart::Text { text });
                }
                parts.extend(calls_of.iter().map(|c| MessagePart::ToolUse {
                    id: str_of(c, "id"),
                    name: str_of(c, "name"),
                    input: c["args"].clone(),
                }));
                Message::from_parts(Role::Assistant, parts)
            };
            s.push(answer, vec![str_of(m, "id")]);
        }
    }
    Value::Array(calls)
}
