//! The simulate stage: a conversation (a transcript or a workload) replayed through the context
//! policy of the runtime the agent's preset models, model call by model call. It takes a
//! rendered and measured agent (the fixed context: system prompt and tools) and returns, for each
//! call, the runtime's own count (as the runtime counts), the true count (ctxc's tokenizer), and
//! what the policy did: tool results offloaded, arguments truncated, history summarized or
//! trimmed. The policies follow the upstream code of each modelled release
//! (`deepagents.rs`, `agentscope.rs`, `zeph.rs`, `generic.rs`); tests/runtimes/ replays the same conversations through the
//! real runtimes and compares call by call.

mod agentscope;
pub mod conversation;
mod deepagents;
mod generic;
mod langchain;
pub mod replay;
mod zeph;

use std::borrow::Cow;

use serde::Serialize;

use crate::manifest::model::Agent;
use crate::measure::Measured;
use crate::render::Rendered;
use crate::tokens::TokenCounter;
use conversation::{Conversation, Message, Role};

/// The policy a simulation applied, as reports describe it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PolicyInfo {
    /// `deepagents 0.7.32`, `zeus (documentation)`, `[summarization] of the manifest`.
    pub system: String,
    /// How the runtime counts tokens for its decisions.
    pub counter: String,
    /// The window the requests are checked against (max input tokens).
    pub window: u64,
    /// The runtime's count at which it summarizes (`None`: it never does on a count).
    pub trigger: Option<u64>,
    /// What the trigger is, in the runtime's words.
    pub trigger_rule: String,
    /// What is kept when summarizing.
    pub keep: String,
    /// Other rules that applied (offload thresholds, history limits, budgets).
    pub rules: Vec<String>,
}

/// One model call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Call {
    /// 1-based, over the conversation.
    pub index: usize,
    pub turn: usize,
    /// 1-based within the turn.
    pub step: usize,
    /// The runtime's count of the request before its policy acted (what it decides on).
    pub runtime_count: u64,
    /// The runtime's count of the request it sends.
    pub runtime_sent: u64,
    /// The runtime's count of the fixed context (system prompt and tools).
    pub runtime_fixed: u64,
    /// ctxc's count (the model's tokenizer) of the request sent: fixed context and history.
    pub fixed_tokens: u64,
    pub history_tokens: u64,
    pub tokens: u64,
    /// ctxc's count of the same call with every message kept as written (no policy).
    pub tokens_without_policy: u64,
    /// The history sent, by message id (`summary` for a summary message).
    pub messages: Vec<String>,
    pub events: Vec<Event>,
}

/// What a policy did before a call (or to a tool result as it arrived).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A tool result over the limit was written to a file and replaced by a preview.
    ToolResultOffloaded { message: String, tool: String, chars: u64, replacement_chars: u64, path: String },
    /// A user message over the limit was written to a file and replaced by a preview (Deep Agents 0.7).
    HumanMessageOffloaded { message: String, chars: u64, replacement_chars: u64, path: String },
    /// Large string arguments of older `write_file`/`edit_file` calls cut for this request.
    ArgumentsTruncated { messages: Vec<String> },
    /// Older messages replaced by a summary message.
    Summarized {
        /// `trigger` or `input budget`.
        by: String,
        /// The runtime's count that fired it, and the threshold.
        count: u64,
        threshold: u64,
        /// Messages summarized (a previous summary among them counts as one).
        summarized: usize,
        /// The first message kept after the summary (`None`: nothing kept).
        kept_from: Option<String>,
        kept: usize,
        summary_chars: u64,
    },
    /// The policy would summarize, but nothing older than what it keeps is there.
    NothingToSummarize { count: u64, threshold: u64 },
    /// The request is still over the runtime's input budget after the policy, its trailing tool
    /// results clipped (Deep Agents 0.7 then raises `ContextOverflowError` instead of sending it).
    OverBudget { count: u64, budget: u64 },
    /// Messages beyond the history limit left out.
    HistoryTrimmed { dropped: usize, kept: usize },
    /// A tool result over the limit cut to its head (and, for Zeph, its tail) around a marker, the
    /// rest dropped (Zeph; AgentScope without an offloader: with one, the rest is offloaded,
    /// `tool_result_offloaded`; Deep Agents 0.7: a `read_file` result at the end of a request over
    /// the input budget). Sizes in the runtime's own unit.
    ToolResultTruncated {
        message: String,
        tool: String,
        #[serde(flatten)]
        size: TruncatedSize,
    },
    /// Earlier tool results replaced by a short notice, freeing `freed` of the runtime's tokens
    /// (Zeph's tool loop).
    ToolResultsPruned { messages: Vec<String>, freed: u64 },
    /// Zeph's soft compaction ran (above its threshold) and freed `freed` tokens.
    SoftCompaction { count: u64, threshold: u64, freed: u64 },
    /// Compaction was due but did not run (Zeph: the cooldown after a hard compaction).
    CompactionSkipped { count: u64, threshold: u64, reason: String },
    /// Zeph stopped compacting for the rest of the session.
    CompactionExhausted { count: u64, threshold: u64, reason: String },
    /// The runtime added a hint to the history before the call (AgentScope's runtime state:
    /// `current-time`, `timezone`, `context-length`), of `chars` characters.
    RuntimeStateInjected { fields: Vec<String>, chars: u64 },
}

/// A truncated tool result's size before and after, in the unit its runtime measures.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum TruncatedSize {
    /// AgentScope cuts by characters.
    Chars { chars: u64, replacement_chars: u64 },
    /// Zeph cuts by bytes (its `[tools.overflow] threshold`).
    Bytes { bytes: u64, replacement_bytes: u64 },
}

/// The session in figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub turns: usize,
    pub calls: usize,
    /// The turn of the first summarization.
    pub first_summarization_turn: Option<usize>,
    pub summarizations: usize,
    pub offloads: usize,
    /// The call with the largest request (ctxc's count), its turn and size.
    pub largest_request: LargestRequest,
    pub window: u64,
    /// The first turn whose request exceeds the window.
    pub window_exceeded_turn: Option<usize>,
    /// The first turn whose request would exceed the window with no policy at all.
    pub window_exceeded_without_policy_turn: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LargestRequest {
    pub call: usize,
    pub turn: usize,
    pub tokens: u64,
    pub runtime_count: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Simulation {
    pub agent: String,
    pub mode: String,
    pub scenario: String,
    pub model: String,
    /// Where the conversation comes from (`workload`, `transcript (json)`).
    pub source: String,
    pub tokenizer: &'static str,
    pub exact: bool,
    pub policy: PolicyInfo,
    pub calls: Vec<Call>,
    pub summary: Summary,
}

/// What the simulations of one run may do in all (`check` and `cost`: every mode × scenario of an
/// agent whose scenario declares a workload; `simulate`: every mode). Each call's request lists
/// its messages, so a long history that no policy trims costs its length at every call: the
/// messages listed over all calls are the work a simulation cannot make linear.
#[derive(Debug, Clone, PartialEq)]
pub struct Budget {
    /// Characters of conversations left to replay (message texts and tool-call arguments).
    pub chars: u64,
    /// Messages left to list in requests, over every call.
    pub messages: u64,
}

/// A run's simulations replay at most 16 Mi characters and list at most 2 million messages in
/// their requests in all (about 100 MB held): the bundled examples use under 2 %.
pub const MAX_CHARS: u64 = 16 << 20;
pub const MAX_MESSAGES: u64 = 2_000_000;

impl Default for Budget {
    fn default() -> Self {
        Budget { chars: MAX_CHARS, messages: MAX_MESSAGES }
    }
}

/// What a policy decided for one model call.
struct Request<'a> {
    messages: Vec<Cow<'a, Message>>,
    runtime_count: u64,
    runtime_sent: u64,
}

/// A runtime's context policy, stepped by the driver.
trait Policy {
    fn info(&self) -> PolicyInfo;
    /// The runtime's count of the fixed context.
    fn fixed(&self) -> u64;
    /// A tool result as the runtime stores it (offloaded or truncated), with what happened.
    fn tool_result(&mut self, message: Message) -> (Message, Option<Event>);
    /// The request of one model call over the history `state` (every message so far, as stored;
    /// `counts`: ctxc's count of each, see [`counted`]).
    fn request<'a>(&mut self, state: &'a [Message], counts: &[u64], summary_chars: u64, events: &mut Vec<Event>) -> Request<'a>;
}

/// The policy of `agent`'s runtime: Deep Agents', AgentScope's or Zeph's from its settings, Zeus's, or the manifest's
/// own `[summarization]` and `[history]`.
fn policy_for<'a>(agent: &Agent, rendered: &Rendered, measured: &Measured, counter: &'a TokenCounter) -> Box<dyn Policy + 'a> {
    if let Some(settings) = &agent.systems.deepagents {
        return Box::new(deepagents::DeepAgents::new(agent, settings, rendered));
    }
    if let Some(settings) = &agent.systems.agentscope {
        return Box::new(agentscope::AgentScope::new(agent, settings, rendered, measured));
    }
    if let (Some(settings), Some(window)) = (&agent.systems.zeph, &measured.window.zeph) {
        return Box::new(zeph::Zeph::new(settings, window, measured.window.max_input_tokens, counter));
    }
    Box::new(generic::Generic::new(agent, measured, counter))
}

/// Replays `conversation` through the policy of `rendered`'s agent. Each call's true count is
/// the measured fixed context plus each history message's tokens and framing. Every message is
/// counted once, as it is stored; a call recounts only what its policy made or changed. What the
/// simulation replays and lists is taken from `budget`; over it, the error says what ran out.
pub fn simulate(
    agent: &Agent,
    rendered: &Rendered,
    measured: &Measured,
    counter: &TokenCounter,
    conversation: &Conversation,
    budget: &mut Budget,
) -> Result<Simulation, String> {
    let chars = conversation.chars();
    if chars > budget.chars {
        return Err(format!(
            "the conversation has {chars} characters, over what is left of the {MAX_CHARS} a run's simulations may replay in all ({})",
            budget.chars
        ));
    }
    budget.chars -= chars;
    let mut policy = policy_for(agent, rendered, measured, counter);
    let info = policy.info();
    let tokenizer = agent.profile.tokenizer;
    let per_message = measured.request.per_message.unwrap_or(0);
    let fixed_tokens = measured.request.total.tokens.max(0) as u64;
    let true_tokens = |m: &Message| message_tokens(counter, tokenizer, per_message, m);
    let mut state: Vec<Message> = Vec::new();
    // ctxc's count of each message of `state`, as stored.
    let mut counts: Vec<u64> = Vec::new();
    // ctxc's count of every message as written, for the count without a policy.
    let mut unmanaged = 0u64;
    let mut calls = Vec::new();
    for (t, turn) in conversation.turns.iter().enumerate() {
        let tokens = true_tokens(&turn.user);
        unmanaged += tokens;
        state.push(turn.user.clone());
        counts.push(tokens);
        let mut step = 0;
        let mut pending = Vec::new();
        // The runtime calls the model before each assistant message, and once more when the
        // turn ends without one: the call whose answer the transcript does not hold yet.
        let answered = turn.steps.last().is_some_and(|m| m.role == Role::Assistant);
        for message in turn.steps.iter().map(Some).chain((!answered).then_some(None)) {
            if let Some(message) = message.filter(|m| m.role == Role::Tool) {
                let tokens = true_tokens(message);
                unmanaged += tokens;
                let (stored, event) = policy.tool_result(message.clone());
                pending.extend(event);
                counts.push(if stored == *message { tokens } else { true_tokens(&stored) });
                state.push(stored);
                continue;
            }
            // A model call answers with this assistant message.
            step += 1;
            let mut events = std::mem::take(&mut pending);
            let request = policy.request(&state, &counts, conversation.summary_chars, &mut events);
            let listed = request.messages.len() as u64;
            if listed > budget.messages {
                return Err(format!(
                    "the requests list more than the {MAX_MESSAGES} messages a run's simulations may list in all (turn {} of {}, mode {}, scenario `{}`): a history this long needs a policy that trims it, or fewer turns",
                    t + 1,
                    conversation.turns.len(),
                    rendered.mode,
                    rendered.scenario
                ));
            }
            budget.messages -= listed;
            let history_tokens: u64 = request.messages.iter().map(|m| counted(&state, &counts, m, true_tokens)).sum();
            calls.push(Call {
                index: calls.len() + 1,
                turn: t + 1,
                step,
                runtime_count: request.runtime_count,
                runtime_sent: request.runtime_sent,
                runtime_fixed: policy.fixed(),
                fixed_tokens,
                history_tokens,
                tokens: fixed_tokens + history_tokens,
                tokens_without_policy: fixed_tokens + unmanaged,
                messages: request.messages.iter().map(|m| m.id.clone()).collect(),
                events,
            });
            if let Some(message) = message {
                let tokens = true_tokens(message);
                unmanaged += tokens;
                state.push(message.clone());
                counts.push(tokens);
            }
        }
    }
    let summary = summarize(&calls, conversation.turns.len(), info.window);
    Ok(Simulation {
        agent: agent.name.clone(),
        mode: rendered.mode.clone(),
        scenario: rendered.scenario.clone(),
        model: agent.profile.model.clone(),
        source: conversation.source.clone(),
        tokenizer: measured.tokenizer,
        exact: measured.exact,
        policy: info,
        calls,
        summary,
    })
}

/// `m`'s count: from `counts` (the count of each message of `state`) when `m` is a message of
/// the state, borrowed by the request unchanged; else `count(m)` (a message the policy made or
/// changed, held by the request itself).
fn counted(state: &[Message], counts: &[u64], m: &Message, count: impl Fn(&Message) -> u64) -> u64 {
    // A message's address says whether, and where, it is in the state.
    let (start, at, size) = (state.as_ptr() as usize, m as *const Message as usize, std::mem::size_of::<Message>());
    let index = (at >= start && (at - start) % size == 0).then(|| (at - start) / size).filter(|&i| i < state.len());
    index.and_then(|i| counts.get(i).copied()).unwrap_or_else(|| count(m))
}

/// ctxc's count of one history message: its text, its tool calls (name and arguments as JSON)
/// and the provider's framing per message.
fn message_tokens(counter: &TokenCounter, tokenizer: crate::models::Tokenizer, per_message: u64, m: &Message) -> u64 {
    let calls: String = m.tool_calls.iter().map(|c| format!("{}{}", c.name, serde_json::Value::Object(c.args.clone()))).collect();
    (counter.count(tokenizer, &m.content) + counter.count(tokenizer, &calls)) as u64 + per_message
}

fn summarize(calls: &[Call], turns: usize, window: u64) -> Summary {
    let summarized = |c: &&Call| c.events.iter().any(|e| matches!(e, Event::Summarized { .. }));
    let largest = calls.iter().max_by_key(|c| (c.tokens, std::cmp::Reverse(c.index)));
    Summary {
        turns,
        calls: calls.len(),
        first_summarization_turn: calls.iter().find(summarized).map(|c| c.turn),
        summarizations: calls.iter().filter(summarized).count(),
        offloads: calls
            .iter()
            .flat_map(|c| &c.events)
            .filter(|e| matches!(e, Event::ToolResultOffloaded { .. } | Event::HumanMessageOffloaded { .. }))
            .count(),
        largest_request: largest.map_or(LargestRequest { call: 0, turn: 0, tokens: 0, runtime_count: 0 }, |c| LargestRequest {
            call: c.index,
            turn: c.turn,
            tokens: c.tokens,
            runtime_count: c.runtime_sent,
        }),
        window,
        window_exceeded_turn: calls.iter().find(|c| c.tokens > window).map(|c| c.turn),
        window_exceeded_without_policy_turn: calls.iter().find(|c| c.tokens_without_policy > window).map(|c| c.turn),
    }
}
