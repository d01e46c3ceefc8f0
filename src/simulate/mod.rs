//! The simulate stage: a conversation (a transcript or a workload) replayed through the context
//! policy of the runtime the agent's preset models, model call by model call. It takes a
//! rendered and measured agent (the fixed context: system prompt and tools) and returns, for each
//! call, the runtime's own count (as the runtime counts), the true count (ctxc's tokenizer), and
//! what the policy did: tool results offloaded, arguments truncated, history summarized or
//! trimmed. A runtime's policy is its `src/runtimes/<name>/policy.rs`, following the upstream
//! code of each modelled release, reached through the runtime table's `policy` row; an agent of
//! no such runtime gets `generic.rs`, the manifest's own `[summarization]` and `[history]`.
//! tests/runtimes/ replays the same conversations through the real runtimes and compares call by
//! call.

mod generic;
pub mod replay;

use serde::Serialize;

use crate::conversation::policy::{counted, Policy, Request};
pub use crate::conversation::policy::{Event, Fires, PolicyInfo, TruncatedSize};
use crate::conversation::{Conversation, Message, Role};
use crate::manifest::model::Agent;
use crate::measure::Measured;
use crate::render::Rendered;
use crate::tokens::TokenCounter;

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
    /// The turns the runtime ended before one of their model calls (`tool_loop_stopped`): the
    /// rest of each was not replayed.
    pub stopped_turns: Vec<usize>,
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
pub const MAX_CHARS: u64 = crate::conversation::MAX_TOTAL_CHARS;
pub const MAX_MESSAGES: u64 = 2_000_000;

impl Default for Budget {
    fn default() -> Self {
        Budget { chars: MAX_CHARS, messages: MAX_MESSAGES }
    }
}

/// The policies of the runtimes in the table's `policy` row, tried in its order (each
/// `<name>::policy::policy` gives one when the agent has that runtime's settings), then the
/// generic policy: a value of one enum, its calls dispatched by a match.
macro_rules! policies {
    ($($runtime:ident $policy:ident $(<$lifetime:lifetime>)?),* $(,)?) => {
        #[allow(non_camel_case_types)]
        enum Policies<'c> {
            $($runtime(crate::runtimes::$runtime::policy::$policy $(<$lifetime>)?),)*
            Generic(generic::Generic<'c>),
        }

        /// The policy of `agent`'s runtime, or the manifest's own `[summarization]` and `[history]`.
        fn policy_for<'c>(agent: &Agent, rendered: &Rendered, measured: &Measured, counter: &'c TokenCounter) -> Policies<'c> {
            $(if let Some(policy) = crate::runtimes::$runtime::policy::policy(agent, rendered, measured, counter) {
                return Policies::$runtime(policy);
            })*
            Policies::Generic(generic::Generic::new(agent, measured, counter))
        }

        impl Policy for Policies<'_> {
            fn info(&self) -> PolicyInfo {
                match self {
                    $(Policies::$runtime(p) => p.info(),)*
                    Policies::Generic(p) => p.info(),
                }
            }

            fn not_modelled(&self) -> Option<String> {
                match self {
                    $(Policies::$runtime(p) => p.not_modelled(),)*
                    Policies::Generic(p) => p.not_modelled(),
                }
            }

            fn fixed(&self) -> u64 {
                match self {
                    $(Policies::$runtime(p) => p.fixed(),)*
                    Policies::Generic(p) => p.fixed(),
                }
            }

            fn tool_result(&mut self, message: Message) -> (Message, Option<Event>) {
                match self {
                    $(Policies::$runtime(p) => p.tool_result(message),)*
                    Policies::Generic(p) => p.tool_result(message),
                }
            }

            fn request<'a>(&mut self, state: &'a [Message], counts: &[u64], summary_chars: u64, events: &mut Vec<Event>) -> Option<Request<'a>> {
                match self {
                    $(Policies::$runtime(p) => p.request(state, counts, summary_chars, events),)*
                    Policies::Generic(p) => p.request(state, counts, summary_chars, events),
                }
            }
        }
    };
}
crate::runtimes::runtime_table!(policy policies);

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
    let mut policy = policy_for(agent, rendered, measured, counter);
    if let Some(why) = policy.not_modelled() {
        return Err(why);
    }
    budget.chars -= chars;
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
    let mut stopped_turns = Vec::new();
    // What the policy did since the last call: a turn the runtime ended without a call hands its
    // events to the next turn's first call.
    let mut pending = Vec::new();
    for (t, turn) in conversation.turns.iter().enumerate() {
        let tokens = true_tokens(&turn.user);
        unmanaged += tokens;
        state.push(turn.user.clone());
        counts.push(tokens);
        let mut step = 0;
        let mut stopped = false;
        // The runtime calls the model before each assistant message, and once more when the
        // turn ends without one: the call whose answer the transcript does not hold yet.
        let answered = turn.steps.last().is_some_and(|m| m.role == Role::Assistant);
        for message in turn.steps.iter().map(Some).chain((!answered).then_some(None)) {
            if stopped {
                // The runtime ended the turn: its remaining messages are never written, though
                // the conversation without a policy still has them.
                unmanaged += message.map_or(0, true_tokens);
                continue;
            }
            if let Some(message) = message.filter(|m| m.role == Role::Tool) {
                let tokens = true_tokens(message);
                unmanaged += tokens;
                let (stored, event) = policy.tool_result(message.clone());
                pending.extend(event);
                counts.push(if stored == *message { tokens } else { true_tokens(&stored) });
                state.push(stored);
                continue;
            }
            // A model call answers with this assistant message, unless the runtime ends the turn.
            let Some(request) = policy.request(&state, &counts, conversation.summary_chars, &mut pending) else {
                stopped = true;
                stopped_turns.push(t + 1);
                unmanaged += message.map_or(0, true_tokens);
                continue;
            };
            step += 1;
            let events = std::mem::take(&mut pending);
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
    let summary = Summary { stopped_turns, ..summarize(&calls, conversation.turns.len(), info.window) };
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
        stopped_turns: Vec::new(),
    }
}
