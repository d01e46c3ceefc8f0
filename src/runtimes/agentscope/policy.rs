//! AgentScope's context policy, as agentscope 2.0.6 and 2.0.11 run it (`agent/_agent.py`,
//! `agent/_config.py`, `model/_base.py`, `state/_state.py`, `workspace/_base.py`):
//! - the count (`ChatModelBase.count_tokens`): the UTF-8 bytes of every text of the request
//!   (system prompt, summary, messages, tool call inputs, tool results, hints) and of the tools
//!   as `json.dumps`, joined, divided by 4 and rounded;
//! - the context is one message per user input and one per reply, holding the reply's blocks in
//!   order (text, tool calls, tool results, injected hints: `AgentState.append_context`);
//! - a tool result over `tool_result_limit` tokens keeps the share of its characters the limit
//!   allows, then the truncation marker; with an offloader (a workspace) the rest is written to
//!   `<workdir>/sessions/<session>/tool_result-<id>.txt` and the marker says where
//!   (`_execute_tool_call`, `_split_tool_result_for_compression`);
//! - before each model call, at `trigger_ratio` × `context_size`, everything older than the most
//!   recent messages filling `reserve_ratio` × `context_size` (system prompt and summary counted
//!   in) is replaced by one summary, never splitting a tool call from its result; when nothing
//!   would be left to compress, everything is (`_compress_context_impl`,
//!   `_split_context_for_compression`);
//! - then the runtime state is injected as a hint block (`_inject_runtime_state`): the time when no
//!   hint in the context records one (the first call, and after a compression removed it; a
//!   session is taken to last less than `time_interval`, half an hour), and at a reply's first
//!   call the count when it is past `trigger_ratio − context_buffer_ratio` of the window.
//!
//! 1.x's `ReActAgent` has another policy, its `CompressionConfig` ([`ReActPolicy`]).
//!
//! The releases differ, for this policy, where `context_buffer_ratio` lives (2.0.6's
//! `InjectionConfig`, 2.0.11's `ContextConfig`: the manifest's one setting is both) and in the
//! compression tool's sentence added to the count hint (2.0.8+). The runtime's own texts are
//! counted by their length; the truncation marker is written out, as it stays in the history.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde_json::Value;

use crate::conversation::langchain::json_dumps_len;
use crate::conversation::policy::{Event, Fires, Policy, PolicyInfo, Request, TruncatedSize};
use crate::conversation::{filler, Message, Role, ToolCall};

/// AgentScope's `_compress_context_impl` returns while the count is below the trigger: it
/// compresses at it.
const TRIGGER: Fires = Fires::AtOrAbove;
/// 1.x's `ReActAgent._compress_memory_if_needed` compresses once the count is above
/// `trigger_threshold` (`n_tokens > trigger_threshold`, agent/_react_agent.py, 1.0.21).
const REACT_TRIGGER: Fires = Fires::Above;
use crate::manifest::model::Agent;
use crate::measure::Measured;
use crate::models::Tokenizer;
use crate::render::Rendered;
use crate::runtimes::agentscope::window::{Release, Settings};
use crate::tokens::TokenCounter;

/// Bytes of `ContextConfig.summary_template`'s default around its five fields.
const SUMMARY_TEMPLATE_BYTES: u64 = 166;
/// Bytes of `InjectionConfig.template`'s default without its `{runtime_state}` placeholder.
const HINT_TEMPLATE_BYTES: u64 = 199;
/// `<current-time>` (the default `time_format`, 19 characters) and `<timezone>UTC</timezone>`,
/// joined by a line break.
const TIME_FIELDS_BYTES: u64 = 48 + 1 + 24;
/// The `<context-length>` field without its two numbers.
const COUNT_FIELD_BYTES: u64 = 33 + 94;
/// The sentence 2.0.8+ add to it when the compression tool is on (and no task is in progress).
const COMPRESSION_TOOL_SENTENCE_BYTES: u64 = 120;
/// The reminder appended to a summary when the compressed messages were offloaded, without the path.
const CONTEXT_OFFLOAD_REMINDER_BYTES: u64 = 111;
/// A session id (`uuid4().hex`) stands in the offload paths.
const SESSION_ID: &str = "00000000000000000000000000000000";

/// What a block of the context is.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// A user message's text.
    User,
    /// An assistant message's text.
    Text,
    /// The `n`-th tool call of an assistant message.
    Call(usize),
    Result,
    /// A runtime-state hint (its index in `hints`).
    Hint(usize),
}

#[derive(Debug, Clone)]
struct Block {
    kind: Kind,
    /// The history message it belongs to (an index into the state), none for a hint.
    message: Option<usize>,
    /// The tool call id of a call or a result.
    call: Option<String>,
    bytes: u64,
}

/// One message of AgentScope's context: a user input, or (part of) one reply.
#[derive(Debug, Clone)]
struct Msg {
    reply: Option<usize>,
    blocks: Vec<Block>,
}

struct Hint {
    bytes: u64,
    time: bool,
}

/// 2.0.x's policy (`Agent`).
pub struct AgentPolicy {
    release: Release,
    context_size: u64,
    trigger_ratio: f64,
    reserve_ratio: f64,
    buffer_ratio: f64,
    tool_result_limit: u64,
    inject: bool,
    compression_tool: bool,
    workdir: Option<String>,
    /// Bytes of the system prompt and the tools' JSON.
    fixed_bytes: u64,
    /// The summary message and its bytes.
    summary: Option<(Message, u64)>,
    context: Vec<Msg>,
    hints: Vec<Hint>,
    /// State messages already in the context.
    seen: usize,
    reply: usize,
    calls_in_reply: usize,
    summaries: usize,
}

/// `int(bytes / 4 + 0.5)`.
fn tokens(bytes: u64) -> u64 {
    (bytes + 2) / 4
}

/// The tool schema as `get_tool_schema` sends it: `_remove_title_field` applied.
fn without_titles(schema: &mut Value) {
    let Value::Object(o) = schema else { return };
    o.shift_remove("title");
    if let Some(Value::Object(properties)) = o.get_mut("properties") {
        properties.values_mut().for_each(without_titles);
    }
    for key in ["items", "additionalProperties"] {
        if let Some(v) = o.get_mut(key) {
            without_titles(v);
        }
    }
    if let Some(Value::Object(defs)) = o.get_mut("$defs") {
        defs.values_mut().for_each(without_titles);
    }
}

/// Bytes a tool call's input has (`ToolCallBlock.input`, the JSON text the model streamed): the
/// arguments as written where the transcript has them, else as compact JSON, as models write them.
fn call_bytes(call: &ToolCall) -> u64 {
    call.written.as_ref().map_or_else(|| serde_json::to_string(&call.args).map_or(0, |s| s.len() as u64), |w| w.len() as u64)
}

fn digits(n: u64) -> u64 {
    n.to_string().len() as u64
}

/// AgentScope's policy, for an agent with `[agentscope]` settings (the runtime table's `policy`
/// row): the release line's.
pub fn policy<'c>(agent: &Agent, rendered: &Rendered, measured: &Measured, counter: &'c TokenCounter) -> Option<AgentScope<'c>> {
    let settings = agent.systems.agentscope.as_ref()?;
    Some(match settings.release.is_react_agent() {
        true => AgentScope::ReAct(ReActPolicy::new(agent, settings, rendered, measured, counter)),
        false => AgentScope::Agent(AgentPolicy::new(agent, settings, rendered, measured)),
    })
}

/// The policy of the release line modelled.
pub enum AgentScope<'c> {
    /// 2.0.x's `Agent` (`ContextConfig`).
    Agent(AgentPolicy),
    /// 1.x's `ReActAgent` (`CompressionConfig`).
    ReAct(ReActPolicy<'c>),
}

impl Policy for AgentScope<'_> {
    fn info(&self) -> PolicyInfo {
        match self {
            AgentScope::Agent(p) => p.info(),
            AgentScope::ReAct(p) => p.info(),
        }
    }

    fn fixed(&self) -> u64 {
        match self {
            AgentScope::Agent(p) => p.fixed(),
            AgentScope::ReAct(p) => p.fixed(),
        }
    }

    fn tool_result(&mut self, message: Message) -> (Message, Option<Event>) {
        match self {
            AgentScope::Agent(p) => p.tool_result(message),
            AgentScope::ReAct(p) => p.tool_result(message),
        }
    }

    fn request<'a>(&mut self, state: &'a [Message], counts: &[u64], summary_chars: u64, events: &mut Vec<Event>) -> Option<Request<'a>> {
        match self {
            AgentScope::Agent(p) => p.request(state, counts, summary_chars, events),
            AgentScope::ReAct(p) => p.request(state, counts, summary_chars, events),
        }
    }
}

impl AgentPolicy {
    pub fn new(agent: &Agent, s: &Settings, rendered: &Rendered, measured: &Measured) -> Self {
        let schemas: Vec<Value> = crate::measure::callable_tools(agent, rendered)
            .iter()
            .map(|(t, _)| {
                let mut parameters = t.tool.parameters.clone();
                without_titles(&mut parameters);
                serde_json::json!({"type": "function", "function": {"name": t.tool.name, "description": t.tool.description_text(), "parameters": parameters}})
            })
            .collect();
        let tools = if schemas.is_empty() { 0 } else { json_dumps_len(&Value::Array(schemas), false) };
        AgentPolicy {
            release: s.release,
            context_size: measured.window.agentscope.as_ref().map_or(measured.window.max_input_tokens, |w| w.context_size),
            trigger_ratio: s.trigger_ratio.value,
            reserve_ratio: s.reserve_ratio.value,
            buffer_ratio: s.context_buffer_ratio.value,
            tool_result_limit: s.tool_result_limit.value,
            inject: s.inject_runtime_state.value,
            compression_tool: s.release.compression_tool && s.compression_tool_enabled.value,
            workdir: s.workspace.as_ref().map(|w| w.workdir.trim_end_matches('/').to_string()),
            fixed_bytes: rendered.prompt().len() as u64 + tools,
            summary: None,
            context: Vec::new(),
            hints: Vec::new(),
            seen: 0,
            reply: 0,
            calls_in_reply: 0,
            summaries: 0,
        }
    }

    fn size(&self) -> f64 {
        self.context_size as f64
    }

    /// Bytes of the system prompt, the tools and the summary: counted in every request.
    fn base_bytes(&self) -> u64 {
        self.fixed_bytes + self.summary.as_ref().map_or(0, |s| s.1)
    }

    fn context_bytes(&self) -> u64 {
        self.context.iter().flat_map(|m| &m.blocks).map(|b| b.bytes).sum()
    }

    fn count(&self) -> u64 {
        tokens(self.base_bytes() + self.context_bytes())
    }

    /// Blocks join the reply's message, or start it (`append_context`).
    fn append_to_reply(&mut self, blocks: Vec<Block>) {
        match self.context.last_mut() {
            Some(last) if last.reply == Some(self.reply) => last.blocks.extend(blocks),
            _ => self.context.push(Msg { reply: Some(self.reply), blocks }),
        }
    }

    /// The state's new messages into the context.
    fn take_new(&mut self, state: &[Message]) {
        for (i, m) in state.iter().enumerate().skip(self.seen) {
            let bytes = m.content.len() as u64;
            match m.role {
                Role::User => {
                    self.reply += 1;
                    self.calls_in_reply = 0;
                    self.context.push(Msg { reply: None, blocks: vec![Block { kind: Kind::User, message: Some(i), call: None, bytes }] });
                }
                Role::Assistant => {
                    let text = (!m.content.is_empty()).then_some(Block { kind: Kind::Text, message: Some(i), call: None, bytes });
                    let calls = m.tool_calls.iter().enumerate().map(|(n, c)| Block {
                        kind: Kind::Call(n),
                        message: Some(i),
                        call: Some(c.id.clone()),
                        bytes: call_bytes(c),
                    });
                    let blocks: Vec<Block> = text.into_iter().chain(calls).collect();
                    if !blocks.is_empty() {
                        self.append_to_reply(blocks);
                    }
                }
                Role::Tool => {
                    self.append_to_reply(vec![Block { kind: Kind::Result, message: Some(i), call: m.tool_call_id.clone(), bytes }]);
                }
            }
        }
        self.seen = state.len();
    }

    /// Where the context splits for a compression keeping `reserve` tokens: the messages before
    /// the first index, and that many blocks of the message at it, are compressed. `None`:
    /// everything fits in the reserve.
    fn split(&self, reserve: f64) -> Option<(usize, usize)> {
        let base = self.base_bytes();
        let mut after = 0;
        let mut boundary = None;
        for (i, m) in self.context.iter().enumerate().rev() {
            let bytes: u64 = m.blocks.iter().map(|b| b.bytes).sum();
            if tokens(base + after + bytes) as f64 >= reserve {
                boundary = Some(i);
                break;
            }
            after += bytes;
        }
        let i = boundary?;
        let blocks = &self.context[i].blocks;
        // The last blocks of the boundary message that still fit.
        let mut kept_from = blocks.len();
        let mut attempt = 0;
        while kept_from > 0 {
            attempt += blocks[kept_from - 1].bytes;
            if tokens(base + attempt + after) as f64 > reserve {
                break;
            }
            kept_from -= 1;
        }
        Some((i, pair_safe(blocks, kept_from)))
    }

    /// Groups consecutive blocks of one history message into the messages a request shows: the
    /// message as stored when all its blocks are there, else the part of it that is.
    fn messages<'a, 'b>(&self, state: &'a [Message], blocks: impl Iterator<Item = &'b Block>) -> Vec<Cow<'a, Message>> {
        let mut out: Vec<Cow<'a, Message>> = Vec::new();
        let mut group: Vec<&'b Block> = Vec::new();
        let flush = |group: &mut Vec<&'b Block>, out: &mut Vec<Cow<'a, Message>>| {
            let Some(first) = group.first() else { return };
            let Some(index) = first.message else { return };
            let m = &state[index];
            let whole = usize::from(m.role != Role::Assistant || !m.content.is_empty()) + m.tool_calls.len();
            if group.len() == whole.max(1) {
                out.push(Cow::Borrowed(m));
            } else {
                let calls: Vec<usize> = group.iter().filter_map(|b| if let Kind::Call(n) = b.kind { Some(n) } else { None }).collect();
                let text = group.iter().any(|b| b.kind == Kind::Text);
                out.push(Cow::Owned(Message {
                    content: if text { m.content.clone() } else { String::new() },
                    tool_calls: calls.iter().map(|&n| m.tool_calls[n].clone()).collect(),
                    ..m.clone()
                }));
            }
            group.clear();
        };
        for b in blocks {
            match b.kind {
                Kind::Hint(h) => {
                    flush(&mut group, &mut out);
                    out.push(Cow::Owned(hint_message(h, self.hints[h].bytes)));
                }
                _ => {
                    if group.first().is_some_and(|g| g.message != b.message) {
                        flush(&mut group, &mut out);
                    }
                    group.push(b);
                }
            }
        }
        flush(&mut group, &mut out);
        out
    }

    /// `_compress_context_impl`: at the trigger, the older context becomes a summary.
    fn compress(&mut self, state: &[Message], summary_chars: u64, events: &mut Vec<Event>) {
        let count = self.count();
        let threshold = self.trigger_ratio * self.size();
        if !TRIGGER.holds(count as f64, threshold) {
            return;
        }
        let threshold = threshold.ceil() as u64;
        if self.context.is_empty() {
            // The runtime raises: the system prompt and the summary alone reach the trigger.
            events.push(Event::NothingToSummarize { count, threshold, fires: TRIGGER });
            return;
        }
        let (i, kept_from) = match self.split(self.reserve_ratio * self.size()) {
            Some(at) if at.0 > 0 || at.1 > 0 => at,
            // Nothing to compress with this reserve: the runtime retries with none (which every
            // count reaches, so the split is found).
            _ => self.split(0.0).unwrap_or((0, 0)),
        };
        let mut reserved: Vec<Msg> = self.context.split_off(i);
        let boundary = &mut reserved[0];
        let compressed_part: Vec<Block> = boundary.blocks.drain(..kept_from).collect();
        if boundary.blocks.is_empty() {
            reserved.remove(0);
        }
        let compressed_blocks: Vec<&Block> = self.context.iter().flat_map(|m| &m.blocks).chain(&compressed_part).collect();
        let summarized = self.messages(state, compressed_blocks.iter().copied()).len() + usize::from(self.summary.is_some());
        let kept_messages = self.messages(state, reserved.iter().flat_map(|m| &m.blocks));
        let kept_from_id = kept_messages.first().map(|m| m.id.clone());
        let kept = kept_messages.len();
        self.context = reserved;
        self.summaries += 1;
        let mut bytes = SUMMARY_TEMPLATE_BYTES + summary_chars;
        if let Some(workdir) = &self.workdir {
            bytes += CONTEXT_OFFLOAD_REMINDER_BYTES + format!("{workdir}/sessions/{SESSION_ID}/context.jsonl").len() as u64;
        }
        let summary = Message::summary(filler(&format!("summary {}", self.summaries), bytes));
        self.summary = Some((summary, bytes));
        events.push(Event::Summarized {
            by: "trigger".into(),
            count,
            threshold,
            fires: TRIGGER,
            summarized,
            kept_from: kept_from_id,
            kept,
            summary_chars,
        });
    }

    /// `_inject_runtime_state`: the time when no hint in the context records it, the count at a
    /// reply's first call past the buffer.
    fn inject(&mut self, events: &mut Vec<Event>) {
        if !self.inject {
            return;
        }
        let recorded = self
            .context
            .iter()
            .filter(|m| m.reply.is_some())
            .flat_map(|m| &m.blocks)
            .any(|b| matches!(b.kind, Kind::Hint(h) if self.hints[h].time));
        // Each group of fields with its bytes (the two time fields with the line break between them).
        let mut fields: Vec<(&[&str], u64)> = Vec::new();
        if !recorded {
            fields.push((&["current-time", "timezone"], TIME_FIELDS_BYTES));
        }
        if self.calls_in_reply == 0 {
            let count = self.count();
            let buffer = match self.release.buffer_in_context_config {
                true => self.trigger_ratio - self.buffer_ratio,
                false => (self.trigger_ratio - self.buffer_ratio).max(0.0),
            };
            if count as f64 > buffer * self.size() {
                let trigger = (self.trigger_ratio * self.size()) as u64;
                let sentence = if self.compression_tool { COMPRESSION_TOOL_SENTENCE_BYTES } else { 0 };
                fields.push((&["context-length"], COUNT_FIELD_BYTES + digits(count) + digits(trigger) + sentence));
            }
        }
        if fields.is_empty() {
            return;
        }
        let bytes = HINT_TEMPLATE_BYTES + fields.iter().map(|f| f.1).sum::<u64>() + fields.len() as u64 - 1;
        let index = self.hints.len();
        self.hints.push(Hint { bytes, time: !recorded });
        self.append_to_reply(vec![Block { kind: Kind::Hint(index), message: None, call: None, bytes }]);
        let names = fields.iter().flat_map(|f| f.0.iter().map(|n| n.to_string())).collect();
        events.push(Event::RuntimeStateInjected { fields: names, chars: bytes });
    }

    /// The path a truncated tool result's rest is written to.
    fn offload_path(&self, call: &str) -> Option<String> {
        self.workdir.as_ref().map(|w| format!("{w}/sessions/{SESSION_ID}/tool_result-{call}.txt"))
    }
}

/// The hint as a history message: a user text of its length.
fn hint_message(index: usize, bytes: u64) -> Message {
    Message {
        id: "hint".into(),
        role: Role::User,
        content: filler(&format!("hint {}", index + 1), bytes),
        tool_calls: vec![],
        tool_call_id: None,
        name: None,
        blocks: None,
    }
}

/// Moves the split of a boundary message's blocks (`kept_from`: the first block kept) past every
/// kept tool result whose call would be compressed, until none is (the runtime repeats its scan;
/// this is the same fixed point reached in one pass over the blocks). Tool call ids are unique.
fn pair_safe(blocks: &[Block], kept_from: usize) -> usize {
    let mut calls: BTreeMap<&str, usize> = BTreeMap::new();
    // latest[p]: the last result whose call is at index p − 1 (0: no call before it).
    let mut latest = vec![None::<usize>; blocks.len() + 1];
    for (j, b) in blocks.iter().enumerate() {
        match (&b.kind, b.call.as_deref()) {
            (Kind::Call(_), Some(id)) => {
                calls.insert(id, j);
            }
            (Kind::Result, id) => {
                let p = id.and_then(|id| calls.get(id)).map_or(0, |&c| c + 1);
                latest[p] = latest[p].max(Some(j));
            }
            _ => {}
        }
    }
    // unmatched[k]: the last result whose call is before block k (none: every call is at k or later).
    let mut unmatched = Vec::with_capacity(blocks.len() + 1);
    let mut best = None;
    for l in &latest {
        best = best.max(*l);
        unmatched.push(best);
    }
    let mut kept_from = kept_from;
    while let Some(j) = unmatched.get(kept_from).copied().flatten().filter(|&j| j >= kept_from) {
        kept_from = j + 1;
    }
    kept_from
}

impl Policy for AgentPolicy {
    fn info(&self) -> PolicyInfo {
        let trigger = (self.trigger_ratio * self.size()).ceil() as u64;
        let reserve = (self.reserve_ratio * self.size()) as u64;
        let mut rules = vec![match &self.workdir {
            Some(w) => format!(
                "tool results over {} tokens truncated to that share of their characters, the rest offloaded to {w}/sessions/",
                self.tool_result_limit
            ),
            None => {
                format!("tool results over {} tokens truncated to that share of their characters (no offloader)", self.tool_result_limit)
            }
        }];
        if self.inject {
            rules.push(format!(
                "runtime state hints: the time at the first call and after a compression removed it; the count at a reply's first call over {} tokens",
                ((self.trigger_ratio - self.buffer_ratio).max(0.0) * self.size()) as u64
            ));
        }
        PolicyInfo {
            system: format!("agentscope {}", self.release.version),
            counter: "AgentScope's count_tokens: UTF-8 bytes of the texts and the tools' JSON / 4, rounded".into(),
            window: self.context_size,
            trigger: Some(trigger),
            trigger_rule: format!(
                "{} of context_size {} ({trigger} as the runtime counts), before each model call",
                crate::systems::pct(self.trigger_ratio),
                self.context_size
            ),
            keep: format!(
                "the most recent messages within {} of context_size ({reserve} tokens with the system prompt, tools and summary), tool calls with their results",
                crate::systems::pct(self.reserve_ratio)
            ),
            rules,
        }
    }

    fn fixed(&self) -> u64 {
        tokens(self.fixed_bytes)
    }

    fn tool_result(&mut self, message: Message) -> (Message, Option<Event>) {
        let n = tokens(message.content.len() as u64);
        if n <= self.tool_result_limit {
            return (message, None);
        }
        let chars = message.content.chars().count() as u64;
        let kept = ((self.tool_result_limit as f64 / n as f64 * chars as f64) as u64).min(chars);
        let call = message.tool_call_id.clone().unwrap_or_default();
        let path = self.offload_path(&call);
        let offloaded =
            path.as_ref().map(|p| format!(" You can refer to the file in '{p}' for the truncated content if needed.")).unwrap_or_default();
        let head: String = message.content.chars().take(kept as usize).collect();
        let content = format!("{head}\n<<<TRUNCATED>>>\n<system-reminder>The remaining content has been omitted for limited context.{offloaded}</system-reminder>");
        let tool = message.name.clone().unwrap_or_default();
        let replacement_chars = content.chars().count() as u64;
        let event = match path {
            Some(path) => Event::ToolResultOffloaded { message: message.id.clone(), tool, chars, replacement_chars, path },
            None => {
                Event::ToolResultTruncated { message: message.id.clone(), tool, size: TruncatedSize::Chars { chars, replacement_chars } }
            }
        };
        (Message { content, ..message }, Some(event))
    }

    fn request<'a>(&mut self, state: &'a [Message], _counts: &[u64], summary_chars: u64, events: &mut Vec<Event>) -> Option<Request<'a>> {
        self.take_new(state);
        let count = self.count();
        self.compress(state, summary_chars, events);
        self.inject(events);
        self.calls_in_reply += 1;
        let mut messages: Vec<Cow<'a, Message>> = self.summary.iter().map(|s| Cow::Owned(s.0.clone())).collect();
        messages.extend(self.messages(state, self.context.iter().flat_map(|m| &m.blocks)));
        Some(Request { messages, runtime_count: count, runtime_sent: self.count() })
    }
}

/// Tokens of `CompressionConfig.summary_template`'s default around its first field when the other
/// four are empty, that field counted together with the blank line after it (a field ending in
/// punctuation takes those line breaks into its last token): 39 in o200k_base and in cl100k_base,
/// counted with tiktoken on agentscope 1.0.21's template.
const REACT_SUMMARY_TEMPLATE_TOKENS: u64 = 39;
/// The name of a user's message (`Msg("user", text, "user")`), the summary's too.
const USER_NAME: &str = "user";

/// 1.x's policy (`ReActAgent`, agent/_react_agent.py; memory/_working_memory/_in_memory_memory.py;
/// formatter/_openai_formatter.py; token/_openai_token_counter.py), as agentscope 1.0.21 runs it:
/// - the memory holds one message per user input, per model response (its text and tool calls)
///   and per tool result; the formatter sends each as an OpenAI message (a tool result as a `tool`
///   message, the arguments of a call as `json.dumps` of the parsed input);
/// - before each model call (`_compress_memory_if_needed`), over the uncompressed messages with the
///   summary first (`get_memory` prepends it), it walks back from the newest and keeps the messages
///   from the one where `keep_recent` messages closing every tool call they hold are counted; when
///   that never happens, none is kept. The rest, with the system prompt, is formatted and counted
///   by the `agent_token_counter`; above `trigger_threshold` it is replaced by one summary
///   (`summary_template` filled from the model's structured answer);
/// - `OpenAITokenCounter` counts with tiktoken's encoding of the model (o200k_base when tiktoken
///   does not know it): 3 per message, the encoding of each string field, 1 more for `name`, the
///   `tool_calls` as `json.dumps`, and 3 for the reply; tools are not counted.
///
/// Nothing is truncated: 1.x has no tool-result limit.
pub struct ReActPolicy<'c> {
    counter: &'c TokenCounter,
    tokenizer: Tokenizer,
    /// `trigger_threshold` and `keep_recent`, when the agent compresses.
    compression: Option<(u64, u64)>,
    agent_name: String,
    window: u64,
    /// The formatted system message's tokens.
    system: u64,
    /// The summary and its tokens as a message.
    summary: Option<(Message, u64)>,
    /// The first state message not compressed.
    first: usize,
    /// Each state message's tokens as formatted.
    tokens: Vec<u64>,
    summaries: usize,
}

/// `json.dumps(value, ensure_ascii=False)`: `", "` and `": "` between items, text as written.
struct PythonJson;

impl serde_json::ser::Formatter for PythonJson {
    fn begin_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
}

fn python_dumps(value: &impl serde::Serialize) -> String {
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, PythonJson);
    match serde::Serialize::serialize(value, &mut serializer) {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// The `tool_calls` field of a formatted assistant message.
fn tool_calls_json(calls: &[ToolCall]) -> String {
    let calls: Vec<Value> = calls
        .iter()
        .map(|c| serde_json::json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": python_dumps(&c.args)}}))
        .collect();
    python_dumps(&Value::Array(calls))
}

impl<'c> ReActPolicy<'c> {
    pub fn new(agent: &Agent, s: &Settings, rendered: &Rendered, measured: &Measured, counter: &'c TokenCounter) -> Self {
        let tokenizer = match agent.profile.tokenizer {
            Tokenizer::Cl100kBase => Tokenizer::Cl100kBase,
            _ => Tokenizer::O200kBase,
        };
        let mut policy = ReActPolicy {
            counter,
            tokenizer,
            compression: s.compression.as_ref().filter(|c| c.enable.value).map(|c| (c.trigger_threshold.value, c.keep_recent.value)),
            agent_name: agent.name.clone(),
            window: measured.window.max_input_tokens,
            system: 0,
            summary: None,
            first: 0,
            tokens: Vec::new(),
            summaries: 0,
        };
        policy.system = policy.formatted("system", "system", &rendered.prompt());
        policy
    }

    fn t(&self, text: &str) -> u64 {
        self.counter.count(self.tokenizer, text) as u64
    }

    /// A formatted message with a role, a name and a text: 3, the strings, 1 for the name.
    fn formatted(&self, role: &str, name: &str, text: &str) -> u64 {
        3 + self.t(role) + self.t(name) + 1 + self.t(text)
    }

    /// A state message's tokens as the formatter sends it (0: it sends nothing for it).
    fn message_tokens(&self, m: &Message) -> u64 {
        match m.role {
            Role::User => self.formatted("user", USER_NAME, &m.content),
            Role::Assistant if m.content.is_empty() && m.tool_calls.is_empty() => 0,
            Role::Assistant => {
                let calls = if m.tool_calls.is_empty() { 0 } else { self.t(&tool_calls_json(&m.tool_calls)) };
                self.formatted("assistant", &self.agent_name, &m.content) + calls
            }
            Role::Tool => {
                let name = m.name.as_deref().map_or(0, |n| self.t(n) + 1);
                3 + self.t("tool") + m.tool_call_id.as_deref().map_or(0, |id| self.t(id)) + self.t(&m.content) + name
            }
        }
    }

    /// The count of the system prompt and these listed messages (`None`: the summary), with the
    /// reply's 3.
    fn count(&self, listed: &[Option<usize>]) -> u64 {
        3 + self.system + listed.iter().map(|i| i.map_or_else(|| self.summary.as_ref().map_or(0, |s| s.1), |i| self.tokens[i])).sum::<u64>()
    }

    /// How many of the listed messages are older than the kept ones (all when the walk back never
    /// counts `keep_recent`).
    fn older(state: &[Message], listed: &[Option<usize>], keep_recent: u64) -> usize {
        let mut open: Vec<&str> = Vec::new();
        let mut kept = 0;
        for (at, i) in listed.iter().enumerate().rev() {
            if let Some(m) = i.map(|i| &state[i]) {
                if let (Role::Tool, Some(id)) = (&m.role, &m.tool_call_id) {
                    open.push(id);
                }
                for c in &m.tool_calls {
                    open.retain(|id| *id != c.id);
                }
            }
            if open.is_empty() {
                kept += 1;
            }
            if kept >= keep_recent {
                return at;
            }
        }
        listed.len()
    }

    fn info(&self) -> PolicyInfo {
        let encoding = if self.tokenizer == Tokenizer::Cl100kBase { "cl100k_base" } else { "o200k_base" };
        let (trigger, trigger_rule, keep) = match self.compression {
            Some((threshold, keep_recent)) => (
                Some(threshold + 1),
                format!("more than trigger_threshold {threshold} tokens in the system prompt and the messages older than the kept ones, before each model call"),
                format!("the {keep_recent} most recent messages (keep_recent; a tool call's result keeps its call), the summary replacing the rest"),
            ),
            None => (None, "no compression_config: ReActAgent never compresses".into(), "every message".into()),
        };
        PolicyInfo {
            system: "agentscope 1.0.21".into(),
            counter: format!("OpenAITokenCounter: tiktoken {encoding} over the formatted messages (3 a message, 1 a name, 3 for the reply; tools not counted)"),
            window: self.window,
            trigger,
            trigger_rule,
            keep,
            rules: Vec::new(),
        }
    }

    fn fixed(&self) -> u64 {
        3 + self.system
    }

    fn tool_result(&mut self, message: Message) -> (Message, Option<Event>) {
        (message, None)
    }

    fn request<'a>(&mut self, state: &'a [Message], _counts: &[u64], summary_chars: u64, events: &mut Vec<Event>) -> Option<Request<'a>> {
        while self.tokens.len() < state.len() {
            let tokens = self.message_tokens(&state[self.tokens.len()]);
            self.tokens.push(tokens);
        }
        let listed: Vec<Option<usize>> = self.summary.iter().map(|_| None).chain((self.first..state.len()).map(Some)).collect();
        // Without compression nothing is counted: the request's count stands in.
        let mut count = self.count(&listed);
        if let Some((threshold, keep_recent)) = self.compression {
            let older = Self::older(state, &listed, keep_recent);
            count = self.count(&listed[..older]);
            if older > 0 && REACT_TRIGGER.holds(count, threshold) {
                self.first = listed[..older].iter().flatten().last().map_or(self.first, |i| i + 1);
                self.summaries += 1;
                let text = filler(&format!("summary {}", self.summaries), summary_chars);
                let tokens = 3 + self.t("user") + self.t(USER_NAME) + 1 + REACT_SUMMARY_TEMPLATE_TOKENS + self.t(&format!("{text}\n\n"));
                self.summary = Some((Message::summary(text), tokens));
                events.push(Event::Summarized {
                    by: "trigger".into(),
                    count,
                    threshold,
                    fires: REACT_TRIGGER,
                    summarized: older,
                    kept_from: state.get(self.first).map(|m| m.id.clone()),
                    kept: state.len() - self.first,
                    summary_chars,
                });
            }
        }
        let mut messages: Vec<Cow<'a, Message>> = self.summary.iter().map(|s| Cow::Owned(s.0.clone())).collect();
        messages.extend(state[self.first..].iter().map(Cow::Borrowed));
        let listed: Vec<Option<usize>> = self.summary.iter().map(|_| None).chain((self.first..state.len()).map(Some)).collect();
        Some(Request { messages, runtime_count: count, runtime_sent: self.count(&listed) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_calls_input_is_counted_as_the_model_wrote_it() {
        // OpenAI's arguments string, spaces and all, is ToolCallBlock.input; three bytes more
        // than the compact JSON per call moved AgentScope's compression one call later.
        let text = r#"[{"role":"user","content":"go"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{\"q\": \"x\", \"n\": 2}"}}]}]"#;
        let conversation = crate::conversation::transcript("t.json", text, 1).expect("read");
        let call = &conversation.turns[0].steps[0].tool_calls[0];
        assert_eq!(call_bytes(call), r#"{"q": "x", "n": 2}"#.len() as u64);
        let rewritten = ToolCall { written: None, ..call.clone() };
        assert_eq!(call_bytes(&rewritten), r#"{"q":"x","n":2}"#.len() as u64, "no text as written: compact JSON");
    }

    fn block(kind: Kind, call: &str) -> Block {
        Block { kind, message: Some(0), call: Some(call.into()), bytes: 1 }
    }

    #[test]
    fn the_count_rounds_half_up_like_int_of_a_quarter_plus_a_half() {
        assert_eq!([0, 1, 2, 5, 6, 7].map(tokens), [0, 0, 1, 1, 2, 2]);
    }

    #[test]
    fn a_split_never_keeps_a_result_without_its_call() {
        // call a, call b, result a, result b: keeping from "call b" would keep result a alone.
        let blocks = [block(Kind::Call(0), "a"), block(Kind::Call(1), "b"), block(Kind::Result, "a"), block(Kind::Result, "b")];
        assert_eq!(pair_safe(&blocks, 1), 4, "result a, then result b lose their calls in turn");
        assert_eq!(pair_safe(&blocks, 0), 0);
        assert_eq!(pair_safe(&blocks, 3), 4);
        let alternating = [block(Kind::Call(0), "a"), block(Kind::Result, "a"), block(Kind::Call(0), "b"), block(Kind::Result, "b")];
        assert_eq!(pair_safe(&alternating, 1), 2);
        assert_eq!(pair_safe(&alternating, 2), 2);
    }

    #[test]
    fn react_formats_arguments_as_python_json_dumps() {
        let call = ToolCall {
            id: "c1".into(),
            name: "search".into(),
            args: serde_json::json!({"q": "ü\n", "n": [1, 2]}).as_object().cloned().unwrap_or_default(),
            written: None,
        };
        assert_eq!(
            tool_calls_json(&[call]),
            r#"[{"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{\"q\": \"ü\\n\", \"n\": [1, 2]}"}}]"#
        );
    }

    fn message(role: Role, id: &str, calls: &[&str], result_of: Option<&str>) -> Message {
        let tool_calls =
            calls.iter().map(|c| ToolCall { id: (*c).into(), name: "t".into(), args: Default::default(), written: None }).collect();
        Message {
            id: id.into(),
            role,
            content: "x".into(),
            tool_calls,
            tool_call_id: result_of.map(String::from),
            name: None,
            blocks: None,
        }
    }

    #[test]
    fn react_keeps_recent_messages_closing_their_tool_calls() {
        // user, call a+b, result a, result b, answer: keeping 2 cannot start at "result b".
        let state = [
            message(Role::User, "u", &[], None),
            message(Role::Assistant, "c", &["a", "b"], None),
            message(Role::Tool, "ra", &[], Some("a")),
            message(Role::Tool, "rb", &[], Some("b")),
            message(Role::Assistant, "d", &[], None),
        ];
        let listed: Vec<Option<usize>> = (0..state.len()).map(Some).collect();
        assert_eq!(ReActPolicy::older(&state, &listed, 2), 1, "the call and its results are kept together");
        assert_eq!(ReActPolicy::older(&state, &listed, 1), 4);
        assert_eq!(ReActPolicy::older(&state, &listed, 0), 4);
        assert_eq!(ReActPolicy::older(&state, &listed, 9), 5, "never counted: all of it is compressible");
        let with_summary: Vec<Option<usize>> = std::iter::once(None).chain(listed.iter().copied()).collect();
        assert_eq!(ReActPolicy::older(&state, &with_summary, 3), 1, "the summary is a message of the walk");
    }

    #[test]
    fn titles_are_removed_where_agentscope_removes_them() {
        let mut schema = serde_json::json!({"title": "T", "type": "object", "properties": {"title": {"type": "string", "title": "Title"}, "x": {"items": {"title": "I"}}}});
        without_titles(&mut schema);
        assert_eq!(schema, serde_json::json!({"type": "object", "properties": {"title": {"type": "string"}, "x": {"items": {}}}}));
    }
}
