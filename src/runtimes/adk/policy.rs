//! ADK's events compaction, as google-adk 2.13.0 runs it for an App with an
//! `events_compaction_config` (`[adk.compaction]`; `apps/compaction.py`,
//! `flows/llm_flows/context/_compaction.py`, `runners.py` `_run_post_invocation_compaction`):
//! - the session is a list of events: a user message, each model response (its text and tool
//!   calls), the tool responses of one step together (one event), and compaction events, each
//!   holding a summary of a range of events (by timestamp);
//! - the request's contents are the events with every range a summary covers left out and the
//!   summary put in its place, as a model turn; a summary whose range another's contains is
//!   dropped, partly overlapping summaries are both kept (`_process_compaction_events`);
//! - **token threshold** (`token_threshold`, `event_retention_size`), before each model call
//!   and after each invocation: when the prompt token count the model reported for the agent's
//!   latest call since the last compaction (without one, the history's characters / 4:
//!   `_estimate_prompt_token_count`) reaches the threshold, every event after the last summary
//!   but the last `event_retention_size` (moved earlier so no kept tool response loses its call)
//!   is summarized together with the last summary, which the new one replaces;
//! - **sliding window** (`compaction_interval`, `overlap_size`), after an invocation when the
//!   token threshold did not compact: once `compaction_interval` invocations ended after the last
//!   summary, those and the `overlap_size` invocations before them are summarized;
//! - a range is summarized only when leaving it out would remove more characters from the
//!   request (its contents as JSON) than the last summary has (`_is_range_worth_compacting`).
//!
//! ADK's count is the provider's: ctxc takes it to be its own count of the request (fixed context
//! and history), the figure the model would report. The summarizer (`LlmEventSummarizer`, the
//! root agent's model) is taken to write `summary_chars` characters. A tool result is the
//! function response `{"result": text}`; tool call ids are the conversation's.

use std::borrow::Cow;
use std::ops::Range;

use serde_json::Value;

use crate::conversation::langchain::json_dumps_len;
use crate::conversation::policy::{counted, Event, Fires, Policy, PolicyInfo, Request};
use crate::conversation::{filler, Message, Role};

/// ADK's token-threshold compaction returns while the last prompt's token count is below
/// `token_threshold`: it compacts at it.
const TOKEN_THRESHOLD: Fires = Fires::AtOrAbove;
/// ADK's sliding window returns while fewer than `compaction_interval` new invocations
/// completed: it compacts at that number.
const SLIDING_WINDOW: Fires = Fires::AtOrAbove;
use crate::manifest::model::Agent;
use crate::measure::Measured;
use crate::models::Tokenizer;
use crate::render::Rendered;
use crate::runtimes::adk::release::MODELS;
use crate::runtimes::adk::settings::Compaction;
use crate::tokens::TokenCounter;

/// `{"parts":[],"role":"model"}`: the summary `_removable_prompt_chars` prices a range with.
const EMPTY_SUMMARY_JSON: u64 = 27;

/// One event of the session other than a compaction.
struct Raw {
    /// The invocation (the turn) it belongs to.
    invocation: usize,
    /// The messages of the state it holds (several tool responses of one step).
    messages: Range<usize>,
    /// The prompt token count its model call reported (model responses).
    reported: Option<u64>,
    calls: Vec<String>,
    responses: Vec<String>,
    /// `_count_chars_in_content`: texts, tool names and `json.dumps` of arguments and responses.
    chars: u64,
    /// `len(content.model_dump_json(exclude_none=True))`.
    json: u64,
}

/// A compaction event: the summary of the raw events `start..=end` (their indices stand for
/// their timestamps).
struct Summary {
    start: usize,
    end: usize,
    /// How many raw events the session held when it was appended.
    after: usize,
    message: Message,
    chars: u64,
    json: u64,
}

#[derive(Clone, Copy)]
enum Item {
    Summary(usize),
    Raw(usize),
}

pub struct Adk<'c> {
    compaction: Compaction,
    counter: &'c TokenCounter,
    tokenizer: Tokenizer,
    per_message: u64,
    fixed: u64,
    window: u64,
    raw: Vec<Raw>,
    summaries: Vec<Summary>,
    /// State messages already taken into events.
    seen: usize,
    invocation: usize,
    /// The count the model reported for the last call (ctxc's count of its request).
    last_sent: Option<u64>,
    /// Characters of each summary the summarizer writes.
    summary_chars: u64,
}

/// ADK's policy, for an agent whose `[adk]` settings configure compaction (the runtime table's
/// `policy` row); without it ADK sends every event, which the generic policy does too.
pub fn policy<'c>(agent: &Agent, _rendered: &Rendered, measured: &Measured, counter: &'c TokenCounter) -> Option<Adk<'c>> {
    let compaction = agent.systems.adk.as_ref()?.compaction?;
    Some(Adk {
        compaction,
        counter,
        tokenizer: agent.profile.tokenizer,
        per_message: measured.request.per_message.unwrap_or(0),
        fixed: measured.request.total.tokens.max(0) as u64,
        window: measured.window.max_input_tokens,
        raw: Vec::new(),
        summaries: Vec::new(),
        seen: 0,
        invocation: 0,
        last_sent: None,
        summary_chars: 0,
    })
}

/// A JSON string's length in characters, as pydantic writes it.
fn json_str(s: &str) -> u64 {
    serde_json::to_string(s).map_or(0, |j| j.chars().count() as u64)
}

/// `len(json.dumps(value))`.
fn dumps(value: Value) -> u64 {
    json_dumps_len(&value, true)
}

/// A content's JSON length: its parts (each already as JSON, in characters) and its role.
fn content_json(parts: &[u64], role: &str) -> u64 {
    // {"parts":[ … ],"role":"…"}
    22 + role.len() as u64 + parts.iter().sum::<u64>() + parts.len().saturating_sub(1) as u64
}

impl Adk<'_> {
    fn tokens(&self, m: &Message) -> u64 {
        self.counter.count(self.tokenizer, &m.content) as u64 + self.per_message
    }

    /// The sizes of an event holding `messages` (all of one role).
    fn sizes(state: &[Message], messages: Range<usize>) -> (u64, u64) {
        let (mut chars, mut parts) = (0u64, Vec::new());
        let mut role = "user";
        for m in &state[messages] {
            match m.role {
                Role::User | Role::Assistant => {
                    if m.role == Role::Assistant {
                        role = "model";
                    }
                    if !m.content.is_empty() || m.tool_calls.is_empty() {
                        chars += m.content.chars().count() as u64;
                        parts.push(9 + json_str(&m.content));
                    }
                    for c in &m.tool_calls {
                        let args = Value::Object(c.args.clone());
                        chars += c.name.chars().count() as u64 + if c.args.is_empty() { 0 } else { dumps(args.clone()) };
                        let id = serde_json::to_string(&c.id).unwrap_or_default();
                        let name = serde_json::to_string(&c.name).unwrap_or_default();
                        let json = format!(r#"{{"function_call":{{"id":{id},"args":{args},"name":{name}}}}}"#);
                        parts.push(json.chars().count() as u64);
                    }
                }
                Role::Tool => {
                    let name = m.name.clone().unwrap_or_default();
                    let response = serde_json::json!({ "result": m.content });
                    chars += name.chars().count() as u64 + dumps(response.clone());
                    let id = serde_json::to_string(&m.tool_call_id.clone().unwrap_or_default()).unwrap_or_default();
                    let name = serde_json::to_string(&name).unwrap_or_default();
                    let json = format!(r#"{{"function_response":{{"id":{id},"name":{name},"response":{response}}}}}"#);
                    parts.push(json.chars().count() as u64);
                }
            }
        }
        (chars, content_json(&parts, role))
    }

    /// Takes the state's new messages into events; at a new user message, the invocation before
    /// it has ended and its compaction runs first.
    fn take_new(&mut self, state: &[Message], events: &mut Vec<Event>) {
        for i in self.seen..state.len() {
            let m = &state[i];
            match m.role {
                Role::User => {
                    if !self.raw.is_empty() {
                        self.after_invocation(state, events);
                    }
                    self.invocation += 1;
                    self.push(state, i, None);
                }
                Role::Assistant => {
                    let reported = self.last_sent.take();
                    self.push(state, i, reported);
                }
                Role::Tool => match self.raw.last_mut() {
                    // The responses of one step are one event.
                    Some(last) if last.messages.end == i && state[last.messages.start].role == Role::Tool => {
                        last.messages.end = i + 1;
                        last.responses.extend(m.tool_call_id.clone());
                        (last.chars, last.json) = Self::sizes(state, last.messages.clone());
                    }
                    _ => self.push(state, i, None),
                },
            }
        }
        self.seen = state.len();
    }

    fn push(&mut self, state: &[Message], i: usize, reported: Option<u64>) {
        let m = &state[i];
        let (chars, json) = Self::sizes(state, i..i + 1);
        self.raw.push(Raw {
            invocation: self.invocation,
            messages: i..i + 1,
            reported,
            calls: m.tool_calls.iter().map(|c| c.id.clone()).collect(),
            responses: m.tool_call_id.iter().cloned().collect(),
            chars,
            json,
        });
    }

    /// The summaries no other contains (`_get_compaction_ranges`), in the order appended.
    fn retained(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.summaries.len()).collect();
        order.sort_by_key(|&k| (self.summaries[k].start, std::cmp::Reverse(self.summaries[k].end), std::cmp::Reverse(k)));
        let mut kept = Vec::new();
        let mut max_end = None;
        for k in order {
            if max_end.is_none_or(|m| self.summaries[k].end > m) {
                kept.push(k);
                max_end = Some(self.summaries[k].end);
            }
        }
        kept.sort_unstable();
        kept
    }

    /// The request's events (`_process_compaction_events`), with `extra` (start, end) as one more
    /// summary when given.
    fn effective(&self, extra: Option<(usize, usize)>) -> Vec<Item> {
        let mut ranges: Vec<(usize, usize, Option<usize>)> =
            self.summaries.iter().enumerate().map(|(k, s)| (s.start, s.end, Some(k))).collect();
        if let Some((start, end)) = extra {
            ranges.push((start, end, None));
        }
        // Subsumed ranges out: sorted by start, longest first, latest first.
        let mut order: Vec<usize> = (0..ranges.len()).collect();
        order.sort_by_key(|&i| (ranges[i].0, std::cmp::Reverse(ranges[i].1), std::cmp::Reverse(i)));
        let mut kept = vec![false; ranges.len()];
        let mut max_end = None;
        for i in order {
            if max_end.is_none_or(|m| ranges[i].1 > m) {
                kept[i] = true;
                max_end = Some(ranges[i].1);
            }
        }
        // The union of the kept ranges, merged, for the raw events' lookup.
        let mut coverage: Vec<(usize, usize)> = Vec::new();
        let mut spans: Vec<(usize, usize)> = ranges.iter().zip(&kept).filter(|(_, &k)| k).map(|(r, _)| (r.0, r.1)).collect();
        spans.sort_unstable();
        for (start, end) in spans {
            match coverage.last_mut() {
                Some(last) if start <= last.1 => last.1 = last.1.max(end),
                _ => coverage.push((start, end)),
            }
        }
        let covered = |t: usize| {
            let i = coverage.partition_point(|&(start, _)| start <= t);
            i > 0 && t <= coverage[i - 1].1
        };
        let mut items: Vec<(usize, usize, Item)> = Vec::new();
        for (i, r) in ranges.iter().enumerate() {
            if kept[i] {
                // An extra summary prices as empty: `usize::MAX` marks it.
                items.push((r.1, usize::MAX - 1, Item::Summary(r.2.unwrap_or(usize::MAX))));
            }
        }
        items.extend((0..self.raw.len()).filter(|&t| !covered(t)).map(|t| (t, t, Item::Raw(t))));
        items.sort_by_key(|&(t, order, _)| (t, order));
        items.into_iter().map(|(_, _, item)| item).collect()
    }

    fn json_of(&self, items: &[Item]) -> u64 {
        items
            .iter()
            .map(|item| match *item {
                Item::Summary(usize::MAX) => EMPTY_SUMMARY_JSON,
                Item::Summary(k) => self.summaries[k].json,
                Item::Raw(t) => self.raw[t].json,
            })
            .sum()
    }

    /// `_latest_prompt_token_count`: the count the last model response since the last compaction
    /// reported, else the history's characters / 4 (`None` when it has none).
    fn latest_count(&self) -> Option<u64> {
        let from = self.summaries.last().map_or(0, |s| s.after);
        if let Some(count) = self.raw[from..].iter().rev().find_map(|r| r.reported) {
            return Some(count);
        }
        let chars: u64 = self
            .effective(None)
            .iter()
            .map(|item| match *item {
                Item::Summary(k) => self.summaries[k].chars,
                Item::Raw(t) => self.raw[t].chars,
            })
            .sum();
        (chars > 0).then_some(chars / 4)
    }

    /// The longest prefix of raw events `range` that leaves no tool call unanswered.
    fn self_contained(&self, range: Range<usize>) -> Range<usize> {
        let mut open: Vec<&String> = Vec::new();
        let mut end = range.start;
        for t in range.clone() {
            open.retain(|id| !self.raw[t].responses.contains(id));
            open.extend(&self.raw[t].calls);
            if open.is_empty() {
                end = t + 1;
            }
        }
        range.start..end
    }

    /// The last summary's JSON length (`_previous_summary_chars`).
    fn previous_summary_json(&self) -> u64 {
        self.retained().last().map_or(0, |&k| self.summaries[k].json)
    }

    /// Whether summarizing `start..=end` removes more than the last summary has.
    fn worth(&self, start: usize, end: usize) -> bool {
        let before = self.json_of(&self.effective(None));
        let after = self.json_of(&self.effective(Some((start, end))));
        before as i64 - after as i64 > self.previous_summary_json() as i64
    }

    /// Appends the summary of raw events `start..=end`; what it summarized (messages of
    /// `range`, and the last summary when it is summarized again) and what the request keeps
    /// after it.
    fn summarize(&mut self, state: &[Message], (start, end): (usize, usize), range: Range<usize>, again: bool) -> Event {
        let n = self.summaries.len() + 1;
        let message = Message::summary(filler(&format!("summary {n}"), self.summary_chars));
        let (chars, _) = Self::sizes(std::slice::from_ref(&message), 0..1);
        let json = content_json(&[9 + json_str(&message.content)], "model");
        let summarized = self.raw[range].iter().map(|r| r.messages.len()).sum::<usize>() + usize::from(again);
        let kept_from = self.raw.get(end + 1).map(|r| state[r.messages.start].id.clone());
        let kept = self.raw[end + 1..].iter().map(|r| r.messages.len()).sum();
        self.summaries.push(Summary { start, end, after: self.raw.len(), message, chars, json });
        Event::Summarized {
            by: String::new(),
            count: 0,
            threshold: 0,
            fires: TOKEN_THRESHOLD,
            summarized,
            kept_from,
            kept,
            summary_chars: self.summary_chars,
        }
    }

    /// `_run_compaction_for_token_threshold_config`: whether it compacted.
    fn token_threshold(&mut self, state: &[Message], events: &mut Vec<Event>) -> bool {
        let Some((threshold, retention)) = self.compaction.token_threshold else { return false };
        let Some(count) = self.latest_count().filter(|&c| TOKEN_THRESHOLD.holds(c, threshold)) else { return false };
        let last = self.retained().last().copied();
        let from = last.map_or(0, |k| self.summaries[k].end + 1);
        let candidates = from..self.raw.len();
        let retention = retention as usize;
        if candidates.len() <= retention {
            events.push(Event::NothingToSummarize { count, threshold, fires: TOKEN_THRESHOLD });
            return false;
        }
        let split = if retention == 0 { candidates.end } else { self.safe_split(candidates.clone(), retention) };
        let range = self.self_contained(from..split);
        if range.is_empty() {
            events.push(Event::NothingToSummarize { count, threshold, fires: TOKEN_THRESHOLD });
            return false;
        }
        // The last summary is summarized again: the new one starts where it did.
        let start = last.map_or(range.start, |k| self.summaries[k].start.min(range.start));
        let end = range.end - 1;
        if !self.worth(start, end) {
            return false;
        }
        let summarized = self.summarize(state, (start, end), range, last.is_some());
        events.push(labelled(summarized, ("trigger", TOKEN_THRESHOLD), count, threshold));
        true
    }

    /// `_safe_token_compaction_split_index` over the raw events `candidates`.
    fn safe_split(&self, candidates: Range<usize>, retention: usize) -> usize {
        let initial = candidates.len() - retention;
        let mut unmatched: Vec<&String> = Vec::new();
        for (i, t) in candidates.clone().enumerate().rev() {
            unmatched.extend(&self.raw[t].responses);
            unmatched.retain(|id| !self.raw[t].calls.contains(id));
            if unmatched.is_empty() && i <= initial {
                return t;
            }
        }
        candidates.start
    }

    /// `_run_compaction_for_sliding_window`, run after each invocation (token threshold first).
    fn after_invocation(&mut self, state: &[Message], events: &mut Vec<Event>) {
        if self.token_threshold(state, events) {
            return;
        }
        let Some((interval, overlap)) = self.compaction.sliding_window else { return };
        let last_end = self.summaries.last().map(|s| s.end);
        // Invocations in order of first event, each with its last event.
        let mut invocations: Vec<(usize, usize)> = Vec::new();
        // An invocation's events follow one another.
        for (t, r) in self.raw.iter().enumerate() {
            match invocations.last_mut() {
                Some(inv) if inv.0 == r.invocation => inv.1 = t,
                _ => invocations.push((r.invocation, t)),
            }
        }
        let new: Vec<usize> = (0..invocations.len()).filter(|&i| last_end.is_none_or(|e| invocations[i].1 > e)).collect();
        if !SLIDING_WINDOW.holds(new.len() as u64, interval) {
            return;
        }
        let (first_new, end_inv) = (new[0], invocations[new[new.len() - 1]].0);
        let start_inv = invocations[first_new.saturating_sub(overlap as usize)].0;
        let last = self.raw.iter().rposition(|r| r.invocation == end_inv).unwrap_or(0);
        let first = self.raw.iter().position(|r| r.invocation == start_inv).unwrap_or(0);
        let range = self.self_contained(first..last + 1);
        if range.is_empty() || !self.worth(range.start, range.end - 1) {
            return;
        }
        // Raw events an earlier summary covers are already out of the request.
        let covered_to = last_end.map_or(range.start, |e| (e + 1).max(range.start));
        let summarized = self.summarize(state, (range.start, range.end - 1), covered_to..range.end, false);
        events.push(labelled(summarized, ("invocations", SLIDING_WINDOW), new.len() as u64, interval));
    }

    /// The request of the next call over the effective events.
    fn messages<'a>(&self, state: &'a [Message]) -> Vec<Cow<'a, Message>> {
        let mut out = Vec::new();
        for item in self.effective(None) {
            match item {
                Item::Summary(k) => out.push(Cow::Owned(self.summaries[k].message.clone())),
                Item::Raw(t) => out.extend(state[self.raw[t].messages.clone()].iter().map(Cow::Borrowed)),
            }
        }
        out
    }
}

/// A summary event with what fired it.
fn labelled(event: Event, (label, fires): (&str, Fires), at: u64, trigger: u64) -> Event {
    match event {
        Event::Summarized { summarized, kept_from, kept, summary_chars, .. } => {
            Event::Summarized { by: label.into(), count: at, threshold: trigger, fires, summarized, kept_from, kept, summary_chars }
        }
        other => other,
    }
}

impl Policy for Adk<'_> {
    fn info(&self) -> PolicyInfo {
        let mut rules = Vec::new();
        if let Some((interval, overlap)) = self.compaction.sliding_window {
            rules.push(format!(
                "after every {interval} invocations, those and the {overlap} before them summarized (compaction_interval, overlap_size)"
            ));
        }
        PolicyInfo {
            system: MODELS.to_string(),
            counter: "the prompt token count the model reported for the agent's last call (ctxc's count of that request); after a compaction, the history's characters / 4".into(),
            window: self.window,
            trigger: self.compaction.token_threshold.map(|(threshold, _)| threshold),
            trigger_rule: match self.compaction.token_threshold {
                Some((threshold, _)) => format!("token_threshold {threshold}, before each model call and after each invocation"),
                None => "none: token_threshold is not set".into(),
            },
            keep: match self.compaction.token_threshold {
                Some((_, retention)) => format!("the last {retention} events (event_retention_size)"),
                None => "the events after the last summarized invocation".into(),
            },
            rules,
        }
    }

    fn fixed(&self) -> u64 {
        self.fixed
    }

    fn request<'a>(&mut self, state: &'a [Message], counts: &[u64], summary_chars: u64, events: &mut Vec<Event>) -> Option<Request<'a>> {
        self.summary_chars = summary_chars;
        self.take_new(state, events);
        let runtime_count = self.latest_count().unwrap_or(0);
        // The compaction request processor, before the model call.
        self.token_threshold(state, events);
        let messages = self.messages(state);
        let sent = self.fixed + messages.iter().map(|m| counted(state, counts, m, |m| self.tokens(m))).sum::<u64>();
        self.last_sent = Some(sent);
        Some(Request { messages, runtime_count, runtime_sent: sent })
    }
}
