//! What a runtime's context policy is to the `simulate` stage: the steps it is driven by
//! ([`Policy`]), what it decides for a call ([`Request`]), and what it reports ([`PolicyInfo`],
//! [`Event`]).

use std::borrow::Cow;

use serde::Serialize;

use super::Message;

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

/// When a runtime acts on a count: at its threshold or only above it, as its own code compares
/// (each runtime's `policy.rs` says which for each trigger, and decides with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fires {
    /// `count >= threshold`.
    AtOrAbove,
    /// `count > threshold`.
    Above,
}

impl Fires {
    /// Whether `count` fires against `threshold`.
    pub fn holds<T: PartialOrd>(self, count: T, threshold: T) -> bool {
        match self {
            Fires::AtOrAbove => count >= threshold,
            Fires::Above => count > threshold,
        }
    }

    /// The comparison as reports write it.
    pub fn sign(self) -> &'static str {
        match self {
            Fires::AtOrAbove => "≥",
            Fires::Above => ">",
        }
    }
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
        /// How the count met the threshold (for the text; not in the JSON).
        #[serde(skip)]
        fires: Fires,
        /// Messages summarized (a previous summary among them counts as one).
        summarized: usize,
        /// The first message kept after the summary (`None`: nothing kept).
        kept_from: Option<String>,
        kept: usize,
        summary_chars: u64,
    },
    /// The policy would summarize, but nothing older than what it keeps is there.
    NothingToSummarize {
        count: u64,
        threshold: u64,
        /// How the count met the threshold (for the text; not in the JSON).
        #[serde(skip)]
        fires: Fires,
    },
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
    /// Zeph's soft compaction ran (above its threshold) and its pruning freed `freed` tokens.
    SoftCompaction { count: u64, threshold: u64, freed: u64 },
    /// The model summarized each of these tool calls with its results, one model call each
    /// (Zeph: the summaries wait until they are applied).
    ToolPairsSummarized { messages: Vec<String> },
    /// Waiting tool-pair summaries applied: these messages are hidden from the model, a summary
    /// follows each pair, and the runtime's count, taken afresh, is `count` (Zeph).
    ToolSummariesApplied { messages: Vec<String>, count: u64 },
    /// Compaction was due but did not run (Zeph: the cooldown after a hard compaction).
    CompactionSkipped { count: u64, threshold: u64, reason: String },
    /// Zeph stopped compacting for the rest of the session.
    CompactionExhausted { count: u64, threshold: u64, reason: String },
    /// The runtime's count reached `threshold` before a model call, so it ended the turn's tool
    /// loop without the call: the turn's remaining steps never happen, and the next call is the
    /// next turn's first (Zeph: four fifths of its budget).
    ToolLoopStopped { count: u64, threshold: u64 },
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

/// What a policy decided for one model call.
pub struct Request<'a> {
    /// The history sent: messages of the state borrowed as stored, or made by the policy.
    pub messages: Vec<Cow<'a, Message>>,
    /// The runtime's count of the request before its policy acted (what it decides on).
    pub runtime_count: u64,
    /// The runtime's count of the request it sends.
    pub runtime_sent: u64,
}

/// A runtime's context policy, stepped by the driver (`simulate`).
pub trait Policy {
    fn info(&self) -> PolicyInfo;
    /// Why this policy cannot replay the agent (a release whose policy is not modelled).
    fn not_modelled(&self) -> Option<String> {
        None
    }
    /// The runtime's count of the fixed context.
    fn fixed(&self) -> u64;
    /// A tool result as the runtime stores it (offloaded or truncated), with what happened; by
    /// default as it arrived.
    fn tool_result(&mut self, message: Message) -> (Message, Option<Event>) {
        (message, None)
    }
    /// The request of one model call over the history `state` (every message so far, as stored;
    /// `counts`: ctxc's count of each, see [`counted`]). `None`: the runtime makes no call here
    /// and ends the turn, so the turn's remaining steps never happen; `events` says why, and what
    /// the policy did before deciding so (they go with the next call).
    fn request<'a>(&mut self, state: &'a [Message], counts: &[u64], summary_chars: u64, events: &mut Vec<Event>) -> Option<Request<'a>>;
}

/// `m`'s count: from `counts` (the count of each message of `state`) when `m` is a message of
/// the state, borrowed by the request unchanged; else `count(m)` (a message the policy made or
/// changed, held by the request itself).
pub fn counted(state: &[Message], counts: &[u64], m: &Message, count: impl Fn(&Message) -> u64) -> u64 {
    // A message's address says whether, and where, it is in the state.
    let (start, at, size) = (state.as_ptr() as usize, m as *const Message as usize, std::mem::size_of::<Message>());
    let index = (at >= start && (at - start) % size == 0).then(|| (at - start) / size).filter(|&i| i < state.len());
    index.and_then(|i| counts.get(i).copied()).unwrap_or_else(|| count(m))
}
