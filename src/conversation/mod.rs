//! The conversation a simulation replays: turns of messages, read from a transcript (OpenAI chat
//! messages as an array or JSONL, Anthropic messages, a LangChain/LangGraph message dump) or made
//! from a workload spec (`docs/simulate.md`), deterministically from its seed; and what a context
//! policy is to the `simulate` stage ([`policy`]), with LangChain's approximate count
//! ([`langchain`]). The runtimes' policies (`src/runtimes/<name>/policy.rs`) are written against
//! this module, so that `simulate` calls them without their calling back into it.

pub mod langchain;
pub mod policy;

use std::collections::HashMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::diagnostic::{Diagnostic, Failure, Related, Sources};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    User,
    Assistant,
    Tool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// The arguments, a JSON object, in the order written.
    pub args: Map<String, Value>,
    /// The arguments' text as the model wrote it, where the transcript has it (OpenAI's
    /// `function.arguments` string): AgentScope counts this text, not its JSON re-written.
    #[serde(skip)]
    pub written: Option<String>,
}

/// One message of the history (the system prompt is the agent's, not the transcript's).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Message {
    /// Stable label in reports and in the differential tests: `u3` (turn 3's user message),
    /// `a3.1` (its first assistant message), the tool call id for a tool result, `m12` for the
    /// 13th message of a transcript.
    pub id: String,
    pub role: Role,
    pub content: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// The tool's name on a tool result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The content as the transcript wrote it when it is a list of parts (text, images, tool
    /// calls), beside `content`, its text: LangChain counts the parts one by one. Only while
    /// `content` is still the parts' text (a runtime that replaces the text replaces them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks: Option<Blocks>,
}

/// A message's content parts and the text `content` held when they were read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Blocks {
    pub parts: Vec<Value>,
    #[serde(skip)]
    pub text: String,
}

impl Message {
    /// The message's content parts, while its content is theirs.
    pub fn parts(&self) -> Option<&[Value]> {
        self.blocks.as_ref().filter(|b| b.text == self.content).map(|b| b.parts.as_slice())
    }
}

impl Message {
    /// The summary a runtime puts in place of the history it summarized (id `summary`, sent as
    /// a user message by every modelled runtime).
    pub fn summary(content: String) -> Message {
        Message { id: "summary".into(), role: Role::User, content, tool_calls: vec![], tool_call_id: None, name: None, blocks: None }
    }
}

/// One user turn: the user's message, then what the agent loop adds (assistant messages, each
/// followed by the results of its tool calls). The runtime calls the model once before each
/// assistant message.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Turn {
    pub user: Message,
    pub steps: Vec<Message>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Conversation {
    /// `workload` or the transcript's format.
    pub source: String,
    pub turns: Vec<Turn>,
    /// Characters of each summary the model writes when the runtime summarizes.
    pub summary_chars: u64,
    /// What the reading noticed and replays as written (a tool call no result answers…).
    #[serde(skip)]
    pub warnings: Vec<Diagnostic>,
}

impl Conversation {
    /// Characters of its messages: texts, and tool calls' names and arguments (as JSON).
    pub fn chars(&self) -> u64 {
        let message = |m: &Message| {
            m.content.len() as u64
                + m.tool_calls.iter().map(|c| (c.name.len() + serde_json::to_vec(&c.args).map_or(0, |json| json.len())) as u64).sum::<u64>()
        };
        self.turns.iter().flat_map(|t| std::iter::once(&t.user).chain(&t.steps)).map(message).sum()
    }
}

/// The summary size when a transcript does not say (a `--summary-chars` flag sets it).
pub const DEFAULT_SUMMARY_CHARS: u64 = 2_000;

fn failure(file: &str, text: &str, message: String, span: Option<Range<usize>>) -> Failure {
    let mut sources = Sources::default();
    sources.insert(file, text);
    Failure { diagnostics: vec![Diagnostic::error(message).in_file(file).at(span)], sources }
}

// ---------------------------------------------------------------------------------------------
// Workloads

/// A size in characters: a number, or `{ min, max }` drawn uniformly from the seed.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(untagged)]
enum Size {
    Fixed(u64),
    Range { min: u64, max: u64 },
}

impl Size {
    fn draw(self, rng: &mut SplitMix) -> u64 {
        match self {
            Size::Fixed(n) => n,
            Size::Range { min, max } => min + rng.next() % (max - min + 1),
        }
    }

    fn valid(self) -> bool {
        !matches!(self, Size::Range { min, max } if min > max)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWorkload {
    turns: u64,
    #[serde(default)]
    seed: u64,
    user_chars: toml::Spanned<Size>,
    assistant_chars: toml::Spanned<Size>,
    #[serde(default = "default_summary")]
    summary_chars: u64,
    #[serde(default)]
    tool_calls: Option<toml::Spanned<Size>>,
    #[serde(default)]
    tool_result_chars: Option<toml::Spanned<Size>>,
    #[serde(default = "default_tool")]
    tool: String,
    #[serde(default, rename = "turn")]
    overrides: Vec<RawOverride>,
}

fn default_summary() -> u64 {
    DEFAULT_SUMMARY_CHARS
}

fn default_tool() -> String {
    "search".to_string()
}

/// `[[turn]]`: one turn's sizes instead of the drawn ones.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOverride {
    at: toml::Spanned<u64>,
    user_chars: Option<u64>,
    assistant_chars: Option<u64>,
    /// One size per tool call of that turn.
    tool_result_chars: Option<Vec<u64>>,
}

/// At most this many turns, tool calls per turn, and characters per message and in all: a
/// workload stays something a machine replays in moments. A transcript has the same bounds on
/// turns and characters in all (a run's simulations share `simulate::Budget` besides, whose
/// characters are these).
pub const MAX_TURNS: u64 = 10_000;
const MAX_CALLS: u64 = 64;
const MAX_CHARS: u64 = 4 << 20;
pub const MAX_TOTAL_CHARS: u64 = 16 << 20;

/// Reads a workload spec (TOML) and makes its conversation. `file` is the path shown.
pub fn workload(file: &str, text: &str) -> Result<Conversation, Failure> {
    let raw: RawWorkload = toml::from_str(text).map_err(|e| failure(file, text, format!("invalid workload: {}", e.message()), e.span()))?;
    let sizes = [Some(&raw.user_chars), Some(&raw.assistant_chars), raw.tool_calls.as_ref(), raw.tool_result_chars.as_ref()];
    for size in sizes.into_iter().flatten() {
        if !size.get_ref().valid() {
            return Err(failure(file, text, "`min` is above `max`".into(), Some(size.span())));
        }
        let biggest = match *size.get_ref() {
            Size::Fixed(n) => n,
            Size::Range { max, .. } => max,
        };
        if biggest > MAX_CHARS {
            return Err(failure(file, text, format!("a size over {MAX_CHARS} characters"), Some(size.span())));
        }
    }
    if raw.summary_chars > MAX_CHARS {
        return Err(failure(file, text, format!("`summary_chars` over {MAX_CHARS}"), None));
    }
    if raw.turns == 0 || raw.turns > MAX_TURNS {
        return Err(failure(file, text, format!("`turns` must be 1 to {MAX_TURNS}"), None));
    }
    if let Some(calls) = &raw.tool_calls {
        if matches!(*calls.get_ref(), Size::Fixed(n) | Size::Range { max: n, .. } if n > MAX_CALLS) {
            return Err(failure(file, text, format!("at most {MAX_CALLS} tool calls per turn"), Some(calls.span())));
        }
    }
    for o in &raw.overrides {
        if *o.at.get_ref() == 0 || *o.at.get_ref() > raw.turns {
            return Err(failure(file, text, format!("`at` must be a turn from 1 to {}", raw.turns), Some(o.at.span())));
        }
        let too_big = [o.user_chars, o.assistant_chars]
            .into_iter()
            .flatten()
            .chain(o.tool_result_chars.iter().flatten().copied())
            .any(|n| n > MAX_CHARS);
        if too_big || o.tool_result_chars.as_ref().is_some_and(|r| r.len() as u64 > MAX_CALLS) {
            return Err(failure(file, text, "a turn over the size limits".into(), Some(o.at.span())));
        }
    }
    // The whole conversation at its largest stays within a bound too (16 Mi characters).
    let most = |size: Option<&toml::Spanned<Size>>, default: u64| match size.map(|s| *s.get_ref()) {
        Some(Size::Fixed(n)) | Some(Size::Range { max: n, .. }) => n,
        None => default,
    };
    let per_turn = most(Some(&raw.user_chars), 0)
        + most(Some(&raw.assistant_chars), 0)
        + most(raw.tool_calls.as_ref(), 0) * most(raw.tool_result_chars.as_ref(), 200);
    let overrides: u64 = raw
        .overrides
        .iter()
        .map(|o| o.user_chars.unwrap_or(0) + o.assistant_chars.unwrap_or(0) + o.tool_result_chars.iter().flatten().sum::<u64>())
        .sum();
    if per_turn.saturating_mul(raw.turns).saturating_add(overrides) > MAX_TOTAL_CHARS {
        return Err(failure(file, text, format!("the workload can reach more than {MAX_TOTAL_CHARS} characters in all"), None));
    }
    let mut rng = SplitMix(raw.seed);
    let mut turns = Vec::with_capacity(raw.turns as usize);
    for t in 1..=raw.turns {
        let extra = raw.overrides.iter().rev().find(|o| *o.at.get_ref() == t);
        // Every draw is made whether or not an override replaces it, so one turn's override
        // leaves the other turns as they were.
        let user = raw.user_chars.get_ref().draw(&mut rng);
        let calls = raw.tool_calls.as_ref().map_or(0, |c| c.get_ref().draw(&mut rng));
        let results: Vec<u64> = (0..calls).map(|_| raw.tool_result_chars.as_ref().map_or(200, |r| r.get_ref().draw(&mut rng))).collect();
        let assistant = raw.assistant_chars.get_ref().draw(&mut rng);
        let user = extra.and_then(|o| o.user_chars).unwrap_or(user);
        let assistant = extra.and_then(|o| o.assistant_chars).unwrap_or(assistant);
        let results = extra.and_then(|o| o.tool_result_chars.clone()).unwrap_or(results);
        turns.push(workload_turn(t, user, &results, assistant, &raw.tool));
    }
    Ok(Conversation { source: "workload".into(), turns, summary_chars: raw.summary_chars, warnings: Vec::new() })
}

/// One turn of a workload: the user's message, one assistant message per tool call (each calling
/// the tool once, followed by its result), then the answer.
fn workload_turn(t: u64, user: u64, results: &[u64], assistant: u64, tool: &str) -> Turn {
    let user = Message {
        id: format!("u{t}"),
        role: Role::User,
        content: filler(&format!("u{t}"), user),
        tool_calls: vec![],
        tool_call_id: None,
        name: None,
        blocks: None,
    };
    let mut steps = Vec::new();
    for (i, &chars) in results.iter().enumerate() {
        let k = i + 1;
        let id = format!("call_{t}_{k}");
        let mut args = Map::new();
        args.insert("query".into(), Value::String(format!("turn {t} call {k}")));
        let call = ToolCall { id: id.clone(), name: tool.to_string(), args, written: None };
        steps.push(Message {
            id: format!("a{t}.{k}"),
            role: Role::Assistant,
            content: String::new(),
            tool_calls: vec![call],
            tool_call_id: None,
            name: None,
            blocks: None,
        });
        steps.push(Message {
            id: id.clone(),
            role: Role::Tool,
            content: filler(&id, chars),
            tool_calls: vec![],
            tool_call_id: Some(id),
            name: Some(tool.to_string()),
            blocks: None,
        });
    }
    let k = results.len() + 1;
    let answer = format!("a{t}.{k}");
    steps.push(Message {
        id: answer.clone(),
        role: Role::Assistant,
        content: filler(&answer, assistant),
        tool_calls: vec![],
        tool_call_id: None,
        name: None,
        blocks: None,
    });
    Turn { user, steps }
}

const WORDS: [&str; 16] = [
    "context", "agent", "window", "summary", "tool", "result", "model", "token", "the", "of", "and", "prompt", "history", "call", "turn",
    "runtime",
];

/// `chars` characters of ASCII text starting with `[tag] `, in lines of at most 80 characters
/// (the words follow from the tag, so every message differs and the same spec gives the same text).
pub fn filler(tag: &str, chars: u64) -> String {
    let chars = chars as usize;
    let mut out = format!("[{tag}]");
    let mut rng = SplitMix(tag.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)));
    let mut line = out.len();
    while out.len() < chars {
        let word = WORDS[(rng.next() % WORDS.len() as u64) as usize];
        let sep = if line + 1 + word.len() > 80 { '\n' } else { ' ' };
        line = if sep == '\n' { 0 } else { line + 1 };
        out.push(sep);
        out.push_str(word);
        line += word.len();
    }
    out.truncate(chars);
    // Runtimes strip a summary's white space: a text never ends with any.
    if out.ends_with([' ', '\n']) {
        out.pop();
        out.push('x');
    }
    out
}

/// A small deterministic generator (splitmix64), so a seed gives the same workload everywhere.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

// ---------------------------------------------------------------------------------------------
// Transcripts

/// Reads a transcript: a JSON array of messages (or an object with `messages`), or JSON Lines
/// with one message per line. Each message is OpenAI's (`role`, `content`, `tool_calls`,
/// `tool_call_id`), Anthropic's (`content` blocks `text`, `tool_use`, `tool_result`) or
/// LangChain's (`type` human/ai/tool, or `{"type", "data"}` as `messages_to_dict` writes).
/// System messages are left out: the system prompt is the agent's.
pub fn transcript(file: &str, text: &str, summary_chars: u64) -> Result<Conversation, Failure> {
    if summary_chars > MAX_CHARS {
        return Err(failure(file, text, format!("a summary over {MAX_CHARS} characters (--summary-chars)"), None));
    }
    let trimmed = text.trim_start();
    let (values, format) = if trimmed.starts_with('[') || (trimmed.starts_with('{') && !is_jsonl(text) && !is_one_message(text)) {
        let value: Value = serde_json::from_str(text).map_err(|e| json_failure(file, text, &e, 0))?;
        let starts = element_starts(text);
        let list = match value {
            Value::Array(items) => items.into_iter().zip(starts.into_iter().map(Some).chain(std::iter::repeat(None))).collect::<Vec<_>>(),
            Value::Object(mut o) => match o.remove("messages") {
                Some(Value::Array(items)) => items.into_iter().map(|v| (v, None)).collect(),
                _ => return Err(failure(file, text, "a transcript object needs a `messages` array".into(), Some(0..1))),
            },
            _ => return Err(failure(file, text, "a transcript is a JSON array of messages or JSON Lines".into(), Some(0..1))),
        };
        (list, "json")
    } else {
        let mut list = Vec::new();
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            if !line.trim().is_empty() {
                // Without its line break, so that a line cut short ends where it is cut.
                let value: Value = serde_json::from_str(line.trim_end()).map_err(|e| json_failure(file, text, &e, offset))?;
                list.push((value, Some(offset)));
            }
            offset += line.len();
        }
        (list, "jsonl")
    };
    let mut read = Read::default();
    // Where each message read was written, for the warnings.
    let mut places = Vec::new();
    for (i, (value, at)) in values.into_iter().enumerate() {
        let span = at.map(|a| a..a + 1);
        read_message(value, &mut read).map_err(|why| failure(file, text, format!("message {}: {why}", i + 1), span.clone()))?;
        places.resize(read.messages.len(), span);
    }
    let warnings = unpaired_tool_messages(&read.messages, &places).into_iter().filter_map(|found| found.warning(file)).collect();
    let turns = into_turns(read.messages).map_err(|why| failure(file, text, why, None))?;
    let conversation = Conversation { source: format!("transcript ({format})"), turns, summary_chars, warnings };
    if conversation.turns.len() as u64 > MAX_TURNS {
        let why = format!("a transcript of {} turns: at most {MAX_TURNS}", conversation.turns.len());
        return Err(failure(file, text, why, Some(0..1)));
    }
    if conversation.chars() > MAX_TOTAL_CHARS {
        let why = format!("a transcript of {} characters of messages: at most {MAX_TOTAL_CHARS}", conversation.chars());
        return Err(failure(file, text, why, Some(0..1)));
    }
    Ok(conversation)
}

/// Several top-level JSON values, one per line.
fn is_jsonl(text: &str) -> bool {
    serde_json::Deserializer::from_str(text).into_iter::<Value>().nth(1).is_some()
}

/// One JSON object that is a message, not a transcript object: JSON Lines of one line.
fn is_one_message(text: &str) -> bool {
    #[derive(Deserialize)]
    struct Keys {
        messages: Option<serde::de::IgnoredAny>,
        role: Option<serde::de::IgnoredAny>,
        #[serde(rename = "type")]
        kind: Option<serde::de::IgnoredAny>,
    }
    serde_json::from_str::<Keys>(text).is_ok_and(|k| k.messages.is_none() && (k.role.is_some() || k.kind.is_some()))
}

/// Messages of one kind of pairing fault, each with what it is and where it is written.
struct Unpaired {
    what: &'static str,
    found: Vec<(String, Option<Range<usize>>)>,
}

impl Unpaired {
    /// One warning for all of them, at the first, the others as related places (a transcript of
    /// 100,000 stray results is one finding, not 100,000).
    fn warning(self, file: &str) -> Option<Diagnostic> {
        let mut found = self.found.into_iter();
        let (first, span) = found.next()?;
        let more = found.len();
        let related = found.map(|(message, span)| Related { file: file.to_string(), span, message }).collect();
        let count = if more == 0 { String::new() } else { format!(" (and {more} more)") };
        let why = format!("{first}{count}: {}; replayed as written", self.what);
        Some(Diagnostic::warning(why).in_file(file).at(span).related(related))
    }
}

/// Tool results whose call no earlier message made, and tool calls that no result answers before
/// the next assistant or user message (one at the very end is still running): providers refuse
/// such a history, and some runtimes patch it (Deep Agents adds a cancellation message); ctxc
/// replays the history as written and says so.
fn unpaired_tool_messages(messages: &[Message], places: &[Option<Range<usize>>]) -> [Unpaired; 2] {
    let mut stray = Unpaired { what: "no earlier assistant message made the call", found: Vec::new() };
    let mut unanswered = Unpaired { what: "providers refuse a call no result answers", found: Vec::new() };
    // The calls not answered yet, by id.
    let mut open: HashMap<&str, (&ToolCall, usize)> = HashMap::new();
    let mut made = std::collections::HashSet::new();
    for (i, m) in messages.iter().enumerate() {
        match (m.role, &m.tool_call_id) {
            (Role::Tool, Some(id)) => {
                open.remove(id.as_str());
                if !made.contains(id.as_str()) {
                    stray.found.push((format!("a tool result for call `{id}`"), places[i].clone()));
                }
            }
            _ => {
                let mut left: Vec<_> = open.drain().map(|(_, call)| call).collect();
                left.sort_by_key(|(call, at)| (*at, call.id.as_str()));
                let left = left
                    .into_iter()
                    .map(|(call, at)| (format!("tool call `{}` ({}) gets no result", call.id, call.name), places[at].clone()));
                unanswered.found.extend(left);
                for call in &m.tool_calls {
                    made.insert(call.id.as_str());
                    open.insert(&call.id, (call, i));
                }
            }
        }
    }
    [unanswered, stray]
}

fn json_failure(file: &str, text: &str, e: &serde_json::Error, base: usize) -> Failure {
    // serde_json counts lines and columns within what it read: turn them into a byte offset.
    let line_start = text[base..].split_inclusive('\n').take(e.line().saturating_sub(1)).map(str::len).sum::<usize>() + base;
    let at = (line_start + e.column().saturating_sub(1)).min(text.len());
    failure(file, text, format!("invalid transcript: {e}"), Some(at..at))
}

/// Byte offsets of the elements of a top-level JSON array (for diagnostics).
fn element_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let (mut depth, mut in_string, mut escaped, mut expect) = (0usize, false, false, false);
    for (i, b) in text.bytes().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        if expect && !b.is_ascii_whitespace() && b != b']' {
            starts.push(i);
            expect = false;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                expect = depth == 1 && b == b'[';
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => expect = true,
            _ => {}
        }
    }
    starts
}

/// A message's text (its text parts joined by a line break) and, for a list of parts, the parts.
fn content_of(content: &Value) -> Result<(String, Option<Blocks>), String> {
    match content {
        Value::Null => Ok((String::new(), None)),
        Value::String(s) => Ok((s.clone(), None)),
        Value::Array(parts) => {
            let mut texts = Vec::new();
            for part in parts {
                match part {
                    Value::String(s) => texts.push(s.clone()),
                    Value::Object(o) if o.get("text").is_some() => texts.push(o["text"].as_str().unwrap_or_default().to_string()),
                    Value::Object(_) => {}
                    _ => return Err("a content part is neither text nor an object".into()),
                }
            }
            let text = texts.join("\n");
            Ok((text.clone(), Some(Blocks { parts: parts.clone(), text })))
        }
        _ => Err("`content` is neither a string nor a list of parts".into()),
    }
}

fn args_of(value: Option<&Value>) -> Result<Map<String, Value>, String> {
    match value {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(o)) => Ok(o.clone()),
        // OpenAI sends the arguments as a JSON string.
        Some(Value::String(s)) if s.trim().is_empty() => Ok(Map::new()),
        Some(Value::String(s)) => match serde_json::from_str(s) {
            Ok(Value::Object(o)) => Ok(o),
            _ => Err("tool call arguments are not a JSON object".into()),
        },
        Some(_) => Err("tool call arguments are not a JSON object".into()),
    }
}

fn string_field(o: &Map<String, Value>, key: &str) -> Option<String> {
    o.get(key).and_then(Value::as_str).map(str::to_string)
}

/// The messages read so far, and the tool each call id names.
#[derive(Default)]
struct Read {
    messages: Vec<Message>,
    /// By call id, the name of the last call with that id (the first of them in its message).
    tools: HashMap<String, String>,
}

impl Read {
    fn push(&mut self, m: Message) {
        for c in m.tool_calls.iter().rev() {
            self.tools.insert(c.id.clone(), c.name.clone());
        }
        self.messages.push(m);
    }

    fn len(&self) -> usize {
        self.messages.len()
    }

    /// The name of the tool a call id belongs to, from the assistant message that made the call
    /// (looked up, not searched for: a transcript may hold many results).
    fn tool_name(&self, call: &str) -> Option<String> {
        self.tools.get(call).cloned()
    }
}

fn read_message(value: Value, out: &mut Read) -> Result<(), String> {
    let Value::Object(mut o) = value else { return Err("not a JSON object".into()) };
    // LangChain's messages_to_dict: {"type": "...", "data": {...}}.
    if let (Some(Value::String(_)), Some(Value::Object(data))) = (o.get("type"), o.get("data")) {
        let mut data = data.clone();
        data.insert("type".into(), o["type"].clone());
        o = data;
    }
    let role = string_field(&o, "role").or_else(|| string_field(&o, "type")).ok_or("no `role` or `type`")?;
    match role.as_str() {
        "system" | "developer" => Ok(()),
        "user" | "human" => read_user(&o, out),
        "assistant" | "ai" => read_assistant(&o, out),
        "tool" => {
            let call = string_field(&o, "tool_call_id").ok_or("a tool message without `tool_call_id`")?;
            let name = string_field(&o, "name").or_else(|| out.tool_name(&call));
            let (content, blocks) = content_of(o.get("content").unwrap_or(&Value::Null))?;
            out.push(Message { id: call.clone(), role: Role::Tool, content, tool_calls: vec![], tool_call_id: Some(call), name, blocks });
            Ok(())
        }
        other => Err(format!("unknown role `{other}`")),
    }
}

/// A user message; Anthropic puts tool results in user messages: each becomes a tool message.
fn read_user(o: &serde_json::Map<String, Value>, out: &mut Read) -> Result<(), String> {
    if let Some(Value::Array(blocks)) = o.get("content") {
        if blocks.iter().any(|b| b.get("type").and_then(Value::as_str) == Some("tool_result")) {
            let mut texts = Vec::new();
            for b in blocks {
                if b.get("type").and_then(Value::as_str) == Some("tool_result") {
                    let call = b.get("tool_use_id").and_then(Value::as_str).ok_or("a tool_result without `tool_use_id`")?;
                    let (content, blocks) = content_of(b.get("content").unwrap_or(&Value::Null))?;
                    let name = out.tool_name(call);
                    let call = Some(call.to_string());
                    out.push(Message {
                        id: call.clone().unwrap_or_default(),
                        role: Role::Tool,
                        content,
                        tool_calls: vec![],
                        tool_call_id: call,
                        name,
                        blocks,
                    });
                } else {
                    texts.push(content_of(&Value::Array(vec![b.clone()]))?.0);
                }
            }
            let rest = texts.concat();
            if !rest.is_empty() {
                out.push(plain_message(Role::User, (rest, None), out.len()));
            }
            return Ok(());
        }
    }
    let content = content_of(o.get("content").unwrap_or(&Value::Null))?;
    out.push(plain_message(Role::User, content, out.len()));
    Ok(())
}

/// An assistant message with its tool calls: Anthropic's `tool_use` blocks, OpenAI's and
/// LangChain's `tool_calls`.
fn read_assistant(o: &serde_json::Map<String, Value>, out: &mut Read) -> Result<(), String> {
    let mut calls = Vec::new();
    let written = o.get("content").cloned().unwrap_or(Value::Null);
    let mut content = written.clone();
    if let Value::Array(blocks) = &content {
        for b in blocks.iter().filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use")) {
            let call = string_field(b.as_object().ok_or("a block is not an object")?, "id").ok_or("a tool_use without `id`")?;
            let name = b.get("name").and_then(Value::as_str).ok_or("a tool_use without `name`")?;
            calls.push(ToolCall { id: call, name: name.to_string(), args: args_of(b.get("input"))?, written: None });
        }
        content = Value::Array(blocks.iter().filter(|b| b.get("type").and_then(Value::as_str) != Some("tool_use")).cloned().collect());
    }
    for call in o.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
        let c = call.as_object().ok_or("a tool call is not an object")?;
        // OpenAI nests name and arguments under `function`; LangChain has them flat.
        let f = c.get("function").and_then(Value::as_object).unwrap_or(c);
        let name = string_field(f, "name").ok_or("a tool call without a name")?;
        let given = f.get("arguments").or_else(|| f.get("args"));
        let written = given.and_then(Value::as_str).map(str::to_string);
        calls.push(ToolCall { id: string_field(c, "id").unwrap_or_default(), name, args: args_of(given)?, written });
    }
    // The text without the `tool_use` blocks; the parts as written, with them.
    let (content, _) = content_of(&content)?;
    let blocks = match written {
        Value::Array(parts) => Some(Blocks { parts, text: content.clone() }),
        _ => None,
    };
    out.push(Message {
        id: format!("m{}", out.len()),
        role: Role::Assistant,
        content,
        tool_calls: calls,
        tool_call_id: None,
        name: None,
        blocks,
    });
    Ok(())
}

fn plain_message(role: Role, (content, blocks): (String, Option<Blocks>), index: usize) -> Message {
    Message { id: format!("m{index}"), role, content, tool_calls: vec![], tool_call_id: None, name: None, blocks }
}

/// Messages cut into turns at each user message; the first must be the user's.
fn into_turns(messages: Vec<Message>) -> Result<Vec<Turn>, String> {
    let mut turns: Vec<Turn> = Vec::new();
    for m in messages {
        match (m.role, turns.last_mut()) {
            (Role::User, _) => turns.push(Turn { user: m, steps: Vec::new() }),
            (_, Some(turn)) => turn.steps.push(m),
            (_, None) => return Err("the transcript does not start with a user message".into()),
        }
    }
    if turns.is_empty() {
        return Err("the transcript has no user message".into());
    }
    Ok(turns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_workload_is_the_same_for_the_same_seed_and_overrides_touch_one_turn() {
        let spec = "turns = 4\nseed = 3\nuser_chars = { min = 50, max = 400 }\nassistant_chars = 120\ntool_calls = { min = 0, max = 2 }\ntool_result_chars = 300\n";
        let a = workload("w.toml", spec).unwrap();
        assert_eq!(a, workload("w.toml", spec).unwrap());
        let b = workload("w.toml", &format!("{spec}[[turn]]\nat = 2\nuser_chars = 999\n")).unwrap();
        assert_eq!(b.turns[1].user.content.len(), 999);
        assert_eq!((a.turns[0].clone(), a.turns[2].clone()), (b.turns[0].clone(), b.turns[2].clone()));
        for turn in &a.turns {
            assert!((50..=400).contains(&turn.user.content.len()));
            assert!(turn.user.content.starts_with(&format!("[{}]", turn.user.id)));
            assert_eq!(turn.steps.last().unwrap().content.len(), 120);
        }
        assert!(a.turns.iter().any(|t| t.steps.len() > 1), "some turn calls a tool");
    }

    #[test]
    fn bad_workloads_point_at_the_value() {
        let e = workload("w.toml", "turns = 2\nuser_chars = { min = 5, max = 1 }\nassistant_chars = 1\n").unwrap_err();
        assert_eq!(e.diagnostics[0].span.clone().map(|s| s.start), Some(23));
        let e = workload("w.toml", "turns = 2\nuser_chars = 1\nassistant_chars = 1\nbogus = 3\n").unwrap_err();
        assert!(e.diagnostics[0].message.contains("unknown field"), "{}", e.diagnostics[0].message);
        assert!(workload("w.toml", "turns = 2\nuser_chars = 1\nassistant_chars = 1\n[[turn]]\nat = 3\n").is_err());
        let huge = "turns = 10000\nuser_chars = 4000000\nassistant_chars = 1\n";
        assert!(workload("w.toml", huge).unwrap_err().diagnostics[0].message.contains("in all"), "refused before anything is made");
    }

    #[test]
    fn the_three_transcript_dialects_read_the_same() {
        let openai = r#"[{"role":"system","content":"s"},{"role":"user","content":"hi"},
            {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{\"q\": \"x\"}"}}]},
            {"role":"tool","tool_call_id":"c1","content":"found"},{"role":"assistant","content":"done"}]"#;
        let anthropic = r#"{"messages":[{"role":"user","content":"hi"},
            {"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"search","input":{"q":"x"}}]},
            {"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"found"}]},
            {"role":"assistant","content":[{"type":"text","text":"done"}]}]}"#;
        let langchain = "{\"type\":\"human\",\"content\":\"hi\"}\n{\"type\":\"ai\",\"content\":\"\",\"tool_calls\":[{\"name\":\"search\",\"args\":{\"q\":\"x\"},\"id\":\"c1\"}]}\n{\"type\":\"tool\",\"data\":{\"content\":\"found\",\"tool_call_id\":\"c1\"}}\n{\"type\":\"ai\",\"content\":\"done\"}\n";
        let read = |text: &str| transcript("t.json", text, 10).unwrap().turns;
        let turns = read(openai);
        assert_eq!(turns.len(), 1);
        assert_eq!(turns[0].steps.len(), 3);
        assert_eq!(turns[0].steps[1].name.as_deref(), Some("search"), "the tool's name is found from its call");
        for other in [anthropic, langchain] {
            let t = read(other);
            let shape = |t: &[Turn]| t[0].steps.iter().map(|m| (m.role, m.content.clone(), m.tool_calls.len())).collect::<Vec<_>>();
            assert_eq!(shape(&t), shape(&turns));
        }
    }

    #[test]
    fn bad_transcripts_say_where() {
        let e = transcript("t.json", "[{\"role\":\"user\",\"content\":\"a\"},\n {\"role\":\"wizard\"}]", 1).unwrap_err();
        assert_eq!(e.diagnostics[0].span.clone().map(|s| s.start), Some(33), "the second message");
        assert!(e.diagnostics[0].message.contains("unknown role"));
        let e = transcript("t.json", "[{\"role\":\"user\",\n \"content\": }]", 1).unwrap_err();
        assert!(e.diagnostics[0].span.is_some());
        assert!(transcript("t.json", "[{\"role\":\"assistant\",\"content\":\"a\"}]", 1).is_err());
        assert!(transcript("t.json", "42", 1).is_err());
    }

    #[test]
    fn a_broken_json_line_is_reported_on_its_own_line() {
        let text = "{\"role\":\"user\",\"content\":\"hello\"}\n{\"role\":\"assistant\",\"content\":\"hi\"\n{\"role\":\"user\",\"content\":\"x\"}\n";
        let e = transcript("t.jsonl", text, 1).unwrap_err();
        let at = e.diagnostics[0].span.clone().expect("a place").start;
        let second = text.find("{\"role\":\"assistant").unwrap();
        assert!((second..second + 36).contains(&at), "{at} is not on line 2 ({e:?})");
    }

    #[test]
    fn one_json_line_is_one_message() {
        let c = transcript("t.jsonl", "{\"role\":\"user\",\"content\":\"hello\"}\n", 1).expect("one message");
        assert_eq!((c.source.as_str(), c.turns.len()), ("transcript (jsonl)", 1));
        assert!(transcript("t.json", "{\"messages\": 3}", 1).is_err(), "an object with `messages` is still a transcript object");
    }

    #[test]
    fn unpaired_tool_calls_and_results_are_warned_where_they_are_written() {
        let text = r#"[{"role":"user","content":"go"},
            {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{}"}}]},
            {"role":"assistant","content":"gave up"},
            {"role":"tool","tool_call_id":"c9","content":"stray"},
            {"role":"user","content":"again"},
            {"role":"assistant","content":null,"tool_calls":[{"id":"c2","type":"function","function":{"name":"search","arguments":"{}"}}]}]"#;
        let c = transcript("t.json", text, 1).expect("read");
        let said: Vec<(&str, usize)> = c.warnings.iter().map(|d| (d.message.as_str(), d.span.clone().unwrap().start)).collect();
        assert_eq!(said.len(), 2, "{said:?}: c2 at the very end is still running");
        assert!(said[0].0.contains("`c1` (search) gets no result") && said[0].1 == text.find("{\"role\":\"assistant").unwrap(), "{said:?}");
        assert!(said[1].0.contains("call `c9`") && said[1].1 == text.find("{\"role\":\"tool").unwrap(), "{said:?}");
        // Many of a kind are one finding, the others its related places.
        let many: String = (0..50).map(|n| format!("{{\"role\":\"tool\",\"tool_call_id\":\"s{n}\",\"content\":\"\"}}\n")).collect();
        let c = transcript("t.jsonl", &format!("{{\"role\":\"user\",\"content\":\"hi\"}}\n{many}"), 1).expect("read");
        assert_eq!(c.warnings.len(), 1);
        assert!(c.warnings[0].message.starts_with("a tool result for call `s0` (and 49 more)"), "{}", c.warnings[0].message);
        assert_eq!(c.warnings[0].related.len(), 49);
    }
}
