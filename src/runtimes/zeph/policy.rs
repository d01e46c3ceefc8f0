//! Zeph's context policy, as zeph-core and zeph-agent-context 0.22.4 run it over zeph-context's
//! `ContextManager` (the crates that decide are cited per rule; docs/runtimes/zeph.md says which
//! the differential test links):
//! - Zeph counts with zeph-memory's `TokenCounter`: cl100k_base (characters / 4 over 64 KiB) per
//!   message part, plus 20 tokens per tool call (with its id, name and JSON input) and 15 per
//!   tool result (with its call id); a message without parts counts its text. The tools are
//!   not part of the count, the system prompt is (`cached_prompt_tokens`).
//! - A tool output longer than `[tools.overflow] threshold` bytes is cut to its first and last
//!   halves with a marker (zeph-tools `truncate_tool_output_at`), then a notice that it could
//!   not be saved (no memory backend offline; zeph-core `maybe_summarize_tool_output`).
//! - At each turn, before the user message is added, the count is taken afresh and
//!   `maybe_compact` runs (zeph-agent-context `service.rs`): above `soft_compaction_threshold` ×
//!   budget the soft tier prunes tool outputs outside the last `prune_protect_tokens`; above
//!   `compaction_threshold` × budget the hard tier first prunes, then replaces every message
//!   between the system prompt and the last `compaction_preserve_tail` (never starting the tail
//!   between a tool call and its results) by one summary message. After a hard compaction, hard
//!   compaction waits `compaction_cooldown_turns` turns; when it cannot help (too few messages,
//!   nothing freed, still above the threshold) it stops for the session.
//! - After each tool step, the tool loop replaces every tool result of more than 20 tokens
//!   outside the last 2 × `tool_call_cutoff` + 2 messages by `[pruned]` (zeph-core
//!   `prune_stale_tool_outputs`) without lowering its running count, then runs the soft tier
//!   again (`maybe_soft_compact_mid_iteration`).
//! - Deferred tool-pair summaries (zeph-agent-context `summarization/deferred.rs`): after each
//!   tool step, while more than `tool_call_cutoff` visible tool calls with their results have no
//!   summary, the model summarizes the oldest whose results are not all `[pruned]`, and the
//!   summary waits. Waiting summaries are applied after a tool step or at a turn's start when
//!   `tool_call_cutoff` of them wait or the count is above the soft threshold, and by every
//!   compaction tier: the pair is hidden (`UserOnly`), an assistant message with the summary
//!   follows it, and the count is taken afresh over the whole list, hidden messages included.
//!   Zeph's Claude provider leaves hidden messages out of the request; its other providers send
//!   them (zeph-llm `claude/request.rs`, `openai/mod.rs`). The summary's text is the model's:
//!   ctxc assumes [`TOOL_PAIR_SUMMARY_CHARS`] characters of filler.
//! - Before each model call, a running count at or above four fifths of the budget ends the
//!   turn's tool loop without the call (zeph-core `tier_loop.rs` `process_single_native_turn`):
//!   the user is told the window is nearly full, nothing is added to the history, and the turn's
//!   remaining steps never happen; the next turn starts from the history as it stands.
//!
//! Both pruning tiers free only `ToolOutput` parts (the text tool protocol); results of native
//! tool calls are `ToolResult` parts, which only the tool loop's pruning touches, so the soft
//! tier's pruning frees nothing here (it is reported as it fires, after applying the summaries).

use std::borrow::Cow;
use std::collections::BTreeSet;

use crate::conversation::policy::{Event, Fires, Policy, PolicyInfo, Request, TruncatedSize};
use crate::conversation::{filler, Message, Role};

/// Zeph compacts hard only above its threshold (a count at it stays in the soft tier).
const HARD_COMPACTION: Fires = Fires::Above;
use crate::manifest::model::Agent;
use crate::measure::Measured;
use crate::models::Tokenizer;
use crate::render::Rendered;
use crate::runtimes::zeph::window::{count_tokens, Settings, Window};
use crate::tokens::TokenCounter;

/// zeph-memory 0.22.4 `token_counter.rs`: tokens added per tool call and per tool result part.
const TOOL_USE_OVERHEAD: u64 = 20;
const TOOL_RESULT_OVERHEAD: u64 = 15;
/// zeph-config 0.22.4 `memory.compaction_cooldown_turns` and `memory.tool_call_cutoff` defaults
/// (not manifest settings yet).
const COOLDOWN_TURNS: u8 = 2;
const TOOL_CALL_CUTOFF: usize = 6;
/// `prune_stale_tool_outputs` leaves results of at most this many tokens alone, and writes this
/// in place of the others (no overflow reference without a memory backend).
const STALE_MIN_TOKENS: u64 = 20;
const PRUNED: &str = "[pruned]";
/// Characters of the summary the model writes of one tool call with its results: zeph-context
/// 0.22.4 `build_tool_pair_summary_prompt` asks for 2-4 sentences; ctxc assumes this length (the
/// differential's scripted model writes the same texts).
pub const TOOL_PAIR_SUMMARY_CHARS: u64 = 300;

/// zeph-context 0.22.4 `manager.rs` `CompactionState`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Compaction {
    Ready,
    CompactedThisTurn,
    Cooling(u8),
    Exhausted,
}

/// One message of Zeph's list after the system prompt: state messages (the results of one
/// step's tool calls are one user message) or a summary Zeph wrote into the list.
struct Held {
    /// State indices (a summary has none).
    range: std::ops::Range<usize>,
    /// A summary message: a hard compaction's or a tool pair's, with its tokens.
    made: Option<(Message, u64)>,
    /// An assistant message with tool calls.
    tool_use: bool,
    /// The results of tool calls.
    results: bool,
    /// Hidden from the model once its tool-pair summary is applied (`UserOnly`): still in the
    /// list and in Zeph's count.
    hidden: bool,
    /// The tool-pair summary waiting on these results (`deferred_summary`).
    deferred: Option<String>,
}

pub struct Zeph<'c> {
    counter: &'c TokenCounter,
    release: &'static str,
    window: u64,
    budget: u64,
    soft_at: u64,
    hard_at: u64,
    preserve_tail: usize,
    prune_protect: u64,
    overflow_bytes: usize,
    system_tokens: u64,
    /// Whether the provider leaves hidden messages out of the request (Zeph's Claude provider;
    /// its OpenAI, Ollama, Gemini and compatible providers send every message).
    drops_hidden: bool,
    compaction: Compaction,
    /// Zeph's message list after the system prompt.
    list: Vec<Held>,
    /// State messages already in `list`.
    seen: usize,
    /// Tool results the tool loop replaced by `[pruned]`, by id.
    pruned: BTreeSet<String>,
    /// Zeph's count of each state message as it now stands.
    tokens: Vec<u64>,
    /// Zeph's running count (`cached_prompt_tokens`): taken afresh at each turn, then raised by
    /// each message added.
    cached: u64,
    summaries: usize,
    pair_summaries: usize,
}

/// Zeph's policy, for an agent with `[zeph]` settings and Zeph's window measured (the runtime
/// table's `policy` row).
pub fn policy<'c>(agent: &Agent, _rendered: &Rendered, measured: &Measured, counter: &'c TokenCounter) -> Option<Zeph<'c>> {
    let (settings, window) = (agent.systems.zeph.as_ref()?, measured.window.zeph.as_ref()?);
    let drops_hidden = measured.model.provider == "anthropic";
    Some(Zeph::new(settings, window, measured.window.max_input_tokens, drops_hidden, counter))
}

impl<'c> Zeph<'c> {
    pub fn new(settings: &Settings, zeph: &Window, max_input: u64, drops_hidden: bool, counter: &'c TokenCounter) -> Self {
        Zeph {
            counter,
            release: settings.release(),
            window: max_input,
            budget: zeph.budget,
            soft_at: zeph.soft_compaction_at,
            hard_at: zeph.compaction_at,
            preserve_tail: settings.compaction_preserve_tail.value as usize,
            prune_protect: settings.prune_protect_tokens.value,
            overflow_bytes: settings.tool_output_max_chars.value as usize,
            system_tokens: zeph.system_prompt_tokens,
            drops_hidden,
            compaction: Compaction::Ready,
            list: Vec::new(),
            seen: 0,
            pruned: BTreeSet::new(),
            tokens: Vec::new(),
            cached: 0,
            summaries: 0,
            pair_summaries: 0,
        }
    }

    fn count(&self, text: &str) -> u64 {
        count_tokens(text, |t| self.counter.count(Tokenizer::Cl100kBase, t))
    }

    /// zeph-memory `count_message_tokens`: a user message or a final answer has no parts and
    /// counts its text; a tool-calling answer counts its text part (if any) and each call; a
    /// tool result its part.
    fn message_tokens(&self, m: &Message) -> u64 {
        match m.role {
            Role::Tool => TOOL_RESULT_OVERHEAD + self.count(m.tool_call_id.as_deref().unwrap_or("")) + self.count(&m.content),
            _ if m.tool_calls.is_empty() => self.count(&m.content),
            _ => {
                let text = if m.content.trim().is_empty() { 0 } else { self.count(&m.content) };
                text + m
                    .tool_calls
                    .iter()
                    .map(|c| {
                        let input = serde_json::Value::Object(c.args.clone()).to_string();
                        TOOL_USE_OVERHEAD + self.count(&c.id) + self.count(&c.name) + self.count(&input)
                    })
                    .sum::<u64>()
            }
        }
    }

    /// Counts the state messages not counted yet, and returns their sum.
    fn count_new(&mut self, state: &[Message]) -> u64 {
        let new: Vec<u64> = state[self.tokens.len()..].iter().map(|m| self.message_tokens(m)).collect();
        self.tokens.extend(&new);
        new.iter().sum()
    }

    /// Adds `state[self.seen..end]` to Zeph's list (a step's results as one message).
    fn take(&mut self, state: &[Message], end: usize) {
        for (i, m) in state.iter().enumerate().take(end).skip(self.seen) {
            let results = m.role == Role::Tool;
            match self.list.last_mut() {
                Some(last) if results && last.results && last.range.end == i => last.range.end = i + 1,
                _ => self.list.push(Held {
                    range: i..i + 1,
                    made: None,
                    tool_use: !m.tool_calls.is_empty(),
                    results,
                    hidden: false,
                    deferred: None,
                }),
            }
        }
        self.seen = self.seen.max(end);
    }

    fn tokens_of(&self, h: &Held) -> u64 {
        h.made.as_ref().map_or_else(|| h.range.clone().map(|i| self.tokens[i]).sum(), |(_, tokens)| *tokens)
    }

    /// Zeph's count of its whole list (hidden messages too), the system prompt with it.
    fn total(&self) -> u64 {
        self.system_tokens + self.list.iter().map(|h| self.tokens_of(h)).sum::<u64>()
    }

    /// The ids of a list message (a summary's is its message's).
    fn ids<'s>(&'s self, state: &'s [Message], h: &'s Held) -> impl Iterator<Item = &'s String> {
        h.made.iter().map(|(m, _)| &m.id).chain(state[h.range.clone()].iter().map(|m| &m.id))
    }

    /// zeph-agent-context `unsummarized_pairs`: a visible tool call followed by its visible
    /// results, no summary waiting on them; by their place in the list.
    fn unsummarized_pairs(&self) -> Vec<usize> {
        let mut pairs = Vec::new();
        let mut i = 0;
        while i + 1 < self.list.len() {
            let (call, results) = (&self.list[i], &self.list[i + 1]);
            if call.tool_use && !call.hidden && results.results && !results.hidden && results.deferred.is_none() {
                pairs.push(i);
                i += 2;
            } else {
                i += 1;
            }
        }
        pairs
    }

    /// zeph-agent-context `maybe_summarize_tool_pair`, after each tool step: while more than
    /// `tool_call_cutoff` pairs have no summary, the model summarizes the oldest whose results
    /// are not all pruned (one model call each), and the summary waits on the results.
    fn summarize_tool_pairs(&mut self, state: &[Message], events: &mut Vec<Event>) {
        let mut summarized = Vec::new();
        loop {
            let pairs = self.unsummarized_pairs();
            if pairs.len() <= TOOL_CALL_CUTOFF {
                break;
            }
            let all_pruned = |h: &Held| {
                state[h.range.clone()].iter().all(|m| self.pruned.contains(&m.id) || m.content.is_empty() || m.content.trim() == PRUNED)
            };
            let Some(&call) = pairs.iter().find(|&&i| !all_pruned(&self.list[i + 1])) else {
                break;
            };
            self.pair_summaries += 1;
            // Zeph caps the text at 8,000 characters; the assumed one is shorter.
            self.list[call + 1].deferred = Some(filler(&format!("tool summary {}", self.pair_summaries), TOOL_PAIR_SUMMARY_CHARS));
            summarized.push(state[self.list[call].range.start].id.clone());
        }
        if !summarized.is_empty() {
            events.push(Event::ToolPairsSummarized { messages: summarized });
        }
    }

    /// zeph-agent-context `apply_deferred_summaries`: each pair a summary waits on is hidden from
    /// the model and followed by an assistant message holding the summary; Zeph's count, taken
    /// afresh over the whole list (hidden messages too), becomes the running count.
    fn apply_deferred(&mut self, state: &[Message], events: &mut Vec<Event>) {
        let targets: Vec<usize> = (1..self.list.len())
            .filter(|&i| self.list[i].deferred.is_some() && self.list[i - 1].tool_use && !self.list[i - 1].hidden)
            .collect();
        if targets.is_empty() {
            return;
        }
        let hidden: Vec<String> =
            targets.iter().flat_map(|&i| self.ids(state, &self.list[i - 1]).chain(self.ids(state, &self.list[i]))).cloned().collect();
        for &i in targets.iter().rev() {
            // `targets` holds only messages with a waiting summary.
            let Some(summary) = self.list[i].deferred.take() else { continue };
            self.list[i - 1].hidden = true;
            self.list[i].hidden = true;
            let call = &state[self.list[i - 1].range.start].id;
            let message = Message {
                id: format!("tool-summary-{call}"),
                role: Role::Assistant,
                content: format!("[tool summary] {summary}"),
                tool_calls: vec![],
                tool_call_id: None,
                name: None,
                blocks: None,
            };
            // Zeph counts the summary part, not the message's text.
            let tokens = if summary.trim().is_empty() { 0 } else { self.count(&summary) };
            let made = Held { range: 0..0, made: Some((message, tokens)), tool_use: false, results: false, hidden: false, deferred: None };
            self.list.insert(i + 1, made);
        }
        self.cached = self.total();
        events.push(Event::ToolSummariesApplied { messages: hidden, count: self.cached });
    }

    /// zeph-agent-context `maybe_apply_deferred_summaries` (tier 0): applied above the soft
    /// threshold, or once `tool_call_cutoff` summaries wait.
    fn maybe_apply_deferred(&mut self, state: &[Message], events: &mut Vec<Event>) {
        let waiting = self.list.iter().filter(|h| h.deferred.is_some()).count();
        if waiting > 0 && (self.cached > self.soft_at || waiting >= TOOL_CALL_CUTOFF) {
            self.apply_deferred(state, events);
        }
    }

    /// `maybe_compact` at the start of a turn, over the list without the user message.
    /// `self.cached` is the fresh count.
    fn maybe_compact(&mut self, state: &[Message], summary_chars: u64, events: &mut Vec<Event>) {
        if self.compaction == Compaction::Exhausted || self.compaction == Compaction::CompactedThisTurn {
            return;
        }
        let cooling = matches!(self.compaction, Compaction::Cooling(_));
        if let Compaction::Cooling(left) = self.compaction {
            self.compaction = if left <= 1 { Compaction::Ready } else { Compaction::Cooling(left - 1) };
        }
        let count = self.cached;
        if count <= self.soft_at {
            return;
        }
        if !HARD_COMPACTION.holds(count, self.hard_at) {
            // Soft tier: the waiting tool-pair summaries, then pruning, which frees no
            // `ToolResult` part (see the module's comment).
            self.apply_deferred(state, events);
            events.push(Event::SoftCompaction { count, threshold: self.soft_at, freed: 0 });
            return;
        }
        if cooling {
            events.push(Event::CompactionSkipped {
                count,
                threshold: self.hard_at,
                reason: "cooldown after the last hard compaction".into(),
            });
            return;
        }
        self.apply_deferred(state, events);
        let before = self.cached;
        // Zeph's list: the system prompt, then `list`.
        let len = self.list.len() + 1;
        let exhausted = |this: &mut Self, events: &mut Vec<Event>, reason: &str| {
            this.compaction = Compaction::Exhausted;
            events.push(Event::CompactionExhausted { count, threshold: this.hard_at, reason: reason.into() });
        };
        if len.saturating_sub(self.preserve_tail + 1) <= 1 {
            return exhausted(self, events, "too few messages to compact");
        }
        // `adjust_compact_end_for_tool_pairs`: the tail never starts at a tool call's results.
        let mut compact_end = len - self.preserve_tail;
        while compact_end > 1 && self.list[compact_end - 2].tool_use {
            compact_end -= 1;
        }
        if compact_end <= 1 {
            return exhausted(self, events, "too few messages to compact");
        }
        let compacted = compact_end - 1;
        self.summaries += 1;
        let content = format!(
            "[conversation summary — {compacted} messages compacted]\n{}",
            filler(&format!("summary {}", self.summaries), summary_chars)
        );
        let tokens = self.count(&content);
        self.list.drain(..compacted);
        let kept_from = self.list.first().and_then(|h| self.ids(state, h).next().cloned());
        let made = Held {
            range: 0..0,
            made: Some((Message::summary(content), tokens)),
            tool_use: false,
            results: false,
            hidden: false,
            deferred: None,
        };
        self.list.insert(0, made);
        let after = self.total();
        events.push(Event::Summarized {
            by: "hard compaction".into(),
            count,
            threshold: self.hard_at,
            fires: HARD_COMPACTION,
            summarized: compacted,
            kept_from,
            kept: self.list.len() - 1,
            summary_chars,
        });
        self.cached = after;
        if after >= before {
            exhausted(self, events, "the compaction freed nothing");
        } else if after > self.hard_at {
            exhausted(self, events, "still above the hard threshold after compacting");
        } else {
            self.compaction = Compaction::CompactedThisTurn;
        }
    }

    /// `prune_stale_tool_outputs` after a tool step: results outside the last messages become
    /// `[pruned]`. The running count is left as it was.
    fn prune_stale(&mut self, state: &[Message], events: &mut Vec<Event>) {
        let keep_recent = 2 * TOOL_CALL_CUTOFF + 2;
        let len = self.list.len() + 1;
        if len <= keep_recent + 1 {
            return;
        }
        let replacement = self.count(PRUNED);
        let mut pruned = Vec::new();
        let mut freed = 0;
        let stale: Vec<usize> = self.list[..len - keep_recent - 1].iter().flat_map(|h| h.range.clone()).collect();
        for i in stale {
            let m = &state[i];
            if m.role != Role::Tool || self.pruned.contains(&m.id) {
                continue;
            }
            let body = self.count(&m.content);
            if body > STALE_MIN_TOKENS {
                freed += body - replacement;
                self.tokens[i] -= body - replacement;
                self.pruned.insert(m.id.clone());
                pruned.push(m.id.clone());
            }
        }
        if !pruned.is_empty() {
            events.push(Event::ToolResultsPruned { messages: pruned, freed });
        }
    }
}

impl Policy for Zeph<'_> {
    fn info(&self) -> PolicyInfo {
        let pct = |n: u64| crate::systems::pct(n as f64 / self.budget.max(1) as f64);
        PolicyInfo {
            system: self.release.to_string(),
            counter: "zeph-memory's TokenCounter: cl100k_base per message part, +20 per tool call, +15 per tool result; tools not counted"
                .into(),
            window: self.window,
            trigger: Some(self.hard_at + 1),
            trigger_rule: format!(
                "hard compaction above {} of the {} budget ({}), at a turn's start",
                pct(self.hard_at),
                self.budget,
                self.hard_at
            ),
            keep: format!("the last {} messages (a tool call with its results)", self.preserve_tail),
            rules: vec![
                format!(
                    "beyond the last {TOOL_CALL_CUTOFF} tool calls, each call with its results is summarized by the model \
                     (about {TOOL_PAIR_SUMMARY_CHARS} characters assumed); the summaries are applied above {} ({}) or once \
                     {TOOL_CALL_CUTOFF} wait: the pair is hidden{}, the summary follows it, and both stay in Zeph's count",
                    pct(self.soft_at),
                    self.soft_at,
                    if self.drops_hidden { "" } else { " (this provider still sends it)" }
                ),
                format!(
                    "soft compaction above {} ({}): applies the waiting summaries, prunes tool outputs outside the last {} tokens; none of native tool results",
                    pct(self.soft_at),
                    self.soft_at,
                    self.prune_protect
                ),
                format!("hard compaction waits {COOLDOWN_TURNS} turns after one, and stops for the session when it cannot help"),
                format!(
                    "at {} of the budget ({}) before a model call, the turn's tool loop ends without the call",
                    pct(self.budget * 4 / 5),
                    self.budget * 4 / 5
                ),
                format!("tool outputs over {} bytes cut to their first and last halves", self.overflow_bytes),
                format!(
                    "after each tool step, tool results over {STALE_MIN_TOKENS} tokens outside the last {} messages become {PRUNED}",
                    2 * TOOL_CALL_CUTOFF + 2
                ),
            ],
        }
    }

    fn fixed(&self) -> u64 {
        self.system_tokens
    }

    fn tool_result(&mut self, message: Message) -> (Message, Option<Event>) {
        let bytes = message.content.len();
        if bytes <= self.overflow_bytes {
            return (message, None);
        }
        let content = truncate(&message.content, self.overflow_bytes);
        let event = Event::ToolResultTruncated {
            message: message.id.clone(),
            tool: message.name.clone().unwrap_or_default(),
            size: TruncatedSize::Bytes { bytes: bytes as u64, replacement_bytes: content.len() as u64 },
        };
        (Message { content, ..message }, Some(event))
    }

    fn request<'a>(&mut self, state: &'a [Message], _counts: &[u64], summary_chars: u64, events: &mut Vec<Event>) -> Option<Request<'a>> {
        let added = self.count_new(state);
        let end = state.len();
        let turn_start = state.last().is_some_and(|m| m.role == Role::User);
        if turn_start {
            // `advance_turn`, the system prompt rebuilt (the count taken afresh), the waiting
            // tool-pair summaries (tier 0), `maybe_compact`, then the user message added.
            if self.compaction == Compaction::CompactedThisTurn {
                self.compaction = Compaction::Cooling(COOLDOWN_TURNS);
            }
            self.take(state, end - 1);
            self.cached = self.total();
            self.maybe_apply_deferred(state, events);
            self.maybe_compact(state, summary_chars, events);
            self.take(state, end);
            self.cached += self.tokens[end - 1];
        } else {
            // The tool loop after a step (zeph-core `tier_loop.rs`): summarize pairs, prune stale
            // results, apply waiting summaries (tier 0), then the soft tier mid-iteration.
            self.cached += added;
            self.take(state, end);
            self.summarize_tool_pairs(state, events);
            self.prune_stale(state, events);
            self.maybe_apply_deferred(state, events);
            if self.compaction != Compaction::CompactedThisTurn && self.cached > self.soft_at {
                let count = self.cached;
                self.apply_deferred(state, events);
                events.push(Event::SoftCompaction { count, threshold: self.soft_at, freed: 0 });
            }
        }
        // zeph-core `tier_loop.rs` `process_single_native_turn`: at four fifths of the budget the
        // tool loop ends before the call; the user is told, nothing joins the history.
        let stop_at = self.budget * 4 / 5;
        if self.budget > 0 && self.cached >= stop_at {
            events.push(Event::ToolLoopStopped { count: self.cached, threshold: stop_at });
            return None;
        }
        let mut messages: Vec<Cow<'a, Message>> = Vec::new();
        let mut sent = self.system_tokens;
        for h in self.list.iter().filter(|h| !(h.hidden && self.drops_hidden)) {
            sent += self.tokens_of(h);
            if let Some((message, _)) = &h.made {
                messages.push(Cow::Owned(message.clone()));
            }
            for m in &state[h.range.clone()] {
                if self.pruned.contains(&m.id) {
                    messages.push(Cow::Owned(Message { content: PRUNED.into(), ..m.clone() }));
                } else {
                    messages.push(Cow::Borrowed(m));
                }
            }
        }
        // The running count when the model is called (what the next decision starts from), and the
        // request recounted: they differ once the tool loop has pruned.
        Some(Request { messages, runtime_count: self.cached, runtime_sent: sent })
    }
}

/// zeph-tools 0.22.4 `truncate_tool_output_at` (the first and last `max / 2` bytes, on character
/// boundaries, around a marker) and zeph-core's notice that the whole output was not saved.
fn truncate(output: &str, max: usize) -> String {
    let half = max / 2;
    let head_end = floor_boundary(output, half);
    let tail_start = ceil_boundary(output, output.len() - half);
    let cut = tail_start - head_end;
    format!(
        "{}\n\n... [truncated {cut} chars, showing first and last ~{half} chars] ...\n\n{}\n[warning: full output ({} bytes) could not be saved — no memory backend or conversation available]",
        &output[..head_end],
        &output[tail_start..],
        output.len()
    )
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_output_keeps_whole_characters_at_both_ends() {
        // 3-byte characters: the halves end and start on character boundaries, as Zeph's do.
        let output = "€".repeat(100);
        let cut = truncate(&output, 100);
        let (head, rest) = cut.split_once("\n\n... [truncated ").expect("marker");
        assert_eq!(head, "€".repeat(16));
        assert!(rest.starts_with("204 chars, showing first and last ~50 chars] ...\n\n"), "{rest}");
        assert!(rest.contains(&format!("\n\n{}\n[warning: full output (300 bytes)", "€".repeat(16))), "{rest}");
    }
}
