//! Deep Agents' context policy, as deepagents 0.7.32 and 0.4.12 run it (with langchain 1.4.7):
//! - `FilesystemMiddleware.wrap_tool_call`: a tool result over 4 × `tool_token_limit_before_evict`
//!   characters (tools other than ls, glob, grep, read_file, edit_file, write_file, delete) is
//!   written to `/large_tool_results/<id>` and replaced by a head-and-tail preview
//!   (`_message_eviction.py` in 0.7, `filesystem.py` in 0.4);
//! - 0.7's `FilesystemMiddleware.wrap_model_call`: the last message, a user message over
//!   4 × `human_message_token_limit_before_evict` characters, is offloaded the same way and stays
//!   replaced in every later request;
//! - `SummarizationMiddleware.wrap_model_call` (`deepagents/middleware/summarization.py`, with
//!   LangChain's `SummarizationMiddleware` for trigger and keep): the effective history (the last
//!   summary, then the messages after its cutoff) is counted with LangChain's approximate counter
//!   together with the system message and the tools; old `write_file`/`edit_file` arguments are
//!   cut; at the trigger (or, from 0.7, over the input budget `int(0.95 × max input) − max
//!   output`) everything before the cutoff `keep` gives is replaced by one summary message;
//! - 0.7's `_call_with_budget` (`_overflow_clip.py`): a request still over the input budget, with
//!   or without a summary, has its trailing tool results clipped, and the clipped results replace
//!   the originals in the state.

use std::borrow::Cow;
use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use crate::conversation::langchain::{message_tokens, system_tokens, tools_tokens};
use crate::conversation::policy::{counted, Event, Fires, Policy, PolicyInfo, Request, TruncatedSize};
use crate::conversation::{filler, Message, Role};

/// LangChain's `SummarizationMiddleware._should_summarize` fires once the count (or the number
/// of messages) reaches the trigger: `>=`.
const TRIGGER: Fires = Fires::AtOrAbove;
/// The input budget holds a request that fits it exactly: only a count above it acts.
const BUDGET: Fires = Fires::Above;
use crate::manifest::model::Agent;
use crate::measure::Measured;
use crate::render::Rendered;
use crate::runtimes::deepagents::window::{self as da, ContextSize, Settings, CHARS_PER_TOKEN, LAYOUT_0_4};
use crate::tokens::TokenCounter;

/// Tool results of these tools are never offloaded (`TOOLS_EXCLUDED_FROM_EVICTION`).
const NOT_EVICTED: [&str; 7] = ["ls", "glob", "grep", "read_file", "edit_file", "write_file", "delete"];
/// LangChain keeps this many messages when a share of a window it does not know is asked for
/// (`_DEFAULT_MESSAGES_TO_KEEP`).
const DEFAULT_MESSAGES_TO_KEEP: u64 = 20;
/// Argument truncation: only these tools' string arguments over this many characters, cut to
/// their first 20 characters and the marker (`_truncate_tool_call`).
const TRUNCATED_TOOLS: [&str; 2] = ["write_file", "edit_file"];
const MAX_ARG_LENGTH: usize = 2000;
const ARG_TRUNCATION: &str = "...(argument truncated)";
/// What the over-budget clip keeps of a `read_file` result (`_slice_read_file_tm`).
const READ_FILE_CLIP_CHARS: usize = 4_000;
/// Lines a preview shows from the head and the tail, and characters per line.
const PREVIEW_LINES: usize = 5;
/// 0.7's longest call id, in bytes, that names an offloaded result's file as it is
/// (`_MAX_TOOL_CALL_PATH_COMPONENT_BYTES`).
const MAX_CALL_ID_PATH_BYTES: usize = 128;
const PREVIEW_LINE_CHARS: usize = 1000;

/// The summary event the middleware keeps in state: where the kept messages start, and the
/// summary message that stands before them.
struct SummaryEvent {
    cutoff: usize,
    summary: Message,
}

pub struct DeepAgents {
    layout: &'static str,
    release: &'static str,
    chars_per_token: f64,
    max_input: Option<u64>,
    max_tokens: u64,
    trigger: ContextSize,
    keep: ContextSize,
    evict_chars: Option<u64>,
    human_evict_chars: Option<u64>,
    fixed: u64,
    window: u64,
    event: Option<SummaryEvent>,
    /// Messages the runtime replaced in its state (offloaded user messages, tool results clipped
    /// over the budget), by id: the replacement every later request carries.
    replaced: BTreeMap<String, Message>,
    summaries: usize,
    /// LangChain's count of each message of the state, as stored (see [`counted`]).
    counts: Vec<u64>,
}

/// Deep Agents' policy, for an agent with `[deepagents]` settings (the runtime table's `policy` row).
pub fn policy(agent: &Agent, rendered: &Rendered, _measured: &Measured, _counter: &TokenCounter) -> Option<DeepAgents> {
    agent.systems.deepagents.as_ref().map(|settings| DeepAgents::new(agent, settings, rendered))
}

impl DeepAgents {
    pub fn new(agent: &Agent, s: &Settings, rendered: &Rendered) -> Self {
        let cpt = s.model.chars_per_token;
        let prompt = rendered.prompt();
        let tools = crate::measure::callable_tools(agent, rendered);
        let fixed = if prompt.is_empty() { 0 } else { system_tokens(&prompt, cpt) }
            + tools_tokens(tools.iter().map(|(t, _)| (t.tool.name.as_str(), t.tool.description_text(), &t.tool.parameters)), cpt);
        let limit = s.tool_token_limit_before_evict.value;
        DeepAgents {
            layout: s.layout,
            release: da::release(s.layout),
            chars_per_token: cpt,
            max_input: s.model.max_input_tokens,
            max_tokens: s.model.max_tokens,
            trigger: s.trigger.value,
            keep: s.keep.value,
            evict_chars: (limit > 0).then_some(limit * CHARS_PER_TOKEN),
            human_evict_chars: s.human_message_token_limit_before_evict.as_ref().map(|h| h.value * CHARS_PER_TOKEN).filter(|&c| c > 0),
            fixed,
            window: s.model.max_input_tokens.unwrap_or(agent.profile.max_input_tokens),
            event: None,
            replaced: BTreeMap::new(),
            summaries: 0,
            counts: Vec::new(),
        }
    }

    fn tokens(&self, m: &Message) -> u64 {
        message_tokens(m, self.chars_per_token)
    }

    /// The count of a request's message: from the state's counts when it is borrowed from it.
    fn counted(&self, state: &[Message], m: &Message) -> u64 {
        counted(state, &self.counts, m, |m| self.tokens(m))
    }

    fn count(&self, state: &[Message], messages: &[Cow<Message>]) -> u64 {
        messages.iter().map(|m| self.counted(state, m)).sum()
    }

    /// `int(max × fraction)`, at least 1, as LangChain computes a share.
    fn share(&self, fraction: f64) -> Option<u64> {
        self.max_input.map(|m| ((m as f64 * fraction) as u64).max(1))
    }

    /// The trigger in tokens (`None` for a count of messages or a share of an unknown window).
    fn trigger_tokens(&self) -> Option<u64> {
        match self.trigger {
            ContextSize::Fraction(f) => self.share(f),
            ContextSize::Tokens(n) => Some(n),
            ContextSize::Messages(_) => None,
        }
    }

    /// 0.7's input budget: 95 % of max input tokens less the model's max output.
    fn budget(&self) -> Option<u64> {
        match self.layout {
            LAYOUT_0_4 => None,
            _ => self.max_input.map(|m| ((m as f64 * 0.95) as u64).saturating_sub(self.max_tokens)),
        }
    }

    /// Where the kept messages start (`_determine_cutoff_index`), never splitting a tool call
    /// from its results.
    fn cutoff(&self, state: &[Message], messages: &[Cow<Message>]) -> usize {
        let keep_messages = |n: u64| if messages.len() as u64 <= n { 0 } else { safe_cutoff(messages, messages.len() - n as usize) };
        let target = match self.keep {
            ContextSize::Messages(n) => return keep_messages(n),
            ContextSize::Tokens(n) => n.max(1),
            ContextSize::Fraction(f) => match self.share(f) {
                Some(t) => t,
                None => return keep_messages(DEFAULT_MESSAGES_TO_KEEP),
            },
        };
        if messages.is_empty() || self.count(state, messages) <= target {
            return 0;
        }
        // LangChain's binary search for the earliest start whose suffix fits the target.
        let len = messages.len();
        let tokens: Vec<u64> = messages.iter().map(|m| self.counted(state, m)).collect();
        let mut suffix = vec![0u64; len + 1];
        for i in (0..len).rev() {
            suffix[i] = suffix[i + 1] + tokens[i];
        }
        let (mut left, mut right, mut candidate) = (0, len, len);
        for _ in 0..(usize::BITS - len.leading_zeros() + 1) {
            if left >= right {
                break;
            }
            let mid = (left + right) / 2;
            if suffix[mid] <= target {
                candidate = mid;
                right = mid;
            } else {
                left = mid + 1;
            }
        }
        if candidate == len {
            candidate = left;
        }
        if candidate >= len {
            if len == 1 {
                return 0;
            }
            candidate = len - 1;
        }
        safe_cutoff(messages, candidate)
    }

    /// Old `write_file`/`edit_file` arguments cut for this request (`_truncate_args`): with a
    /// profile from 85 % of the window keeping the last 10 % of it, without one from 20 messages
    /// keeping the last 20 (`compute_summarization_defaults`).
    fn truncate_args<'a>(&self, state: &[Message], messages: &mut [Cow<'a, Message>], total: u64) -> Vec<String> {
        let cutoff = match self.max_input {
            Some(_) => {
                if total < self.share(da::TRIGGER_FRACTION).unwrap_or(u64::MAX) {
                    return Vec::new();
                }
                let target = self.share(da::KEEP_FRACTION).unwrap_or(1);
                let mut kept = 0;
                let mut cutoff = 0;
                for i in (0..messages.len()).rev() {
                    let t = self.counted(state, &messages[i]);
                    if kept + t > target {
                        cutoff = i + 1;
                        break;
                    }
                    kept += t;
                }
                cutoff
            }
            None if messages.len() < 20 => return Vec::new(),
            None => messages.len() - 20,
        };
        let mut cut = Vec::new();
        for m in messages.iter_mut().take(cutoff) {
            let long = |m: &Message| {
                m.tool_calls.iter().any(|c| {
                    TRUNCATED_TOOLS.contains(&c.name.as_str()) && c.args.values().any(|v| v.as_str().is_some_and(over_max_arg_length))
                })
            };
            if m.role == Role::Assistant && long(m) {
                let owned = m.to_mut();
                for call in owned.tool_calls.iter_mut().filter(|c| TRUNCATED_TOOLS.contains(&c.name.as_str())) {
                    for value in call.args.values_mut() {
                        if let Some(s) = value.as_str().filter(|s| over_max_arg_length(s)) {
                            *value = serde_json::Value::String(s.chars().take(20).collect::<String>() + ARG_TRUNCATION);
                        }
                    }
                }
                cut.push(owned.id.clone());
            }
        }
        cut
    }

    /// The preview that replaces an offloaded text (`_create_content_preview` and the note).
    fn preview(&self, content: &str, subject: &str) -> (String, String) {
        let lines = split_lines(content);
        let clip = |shown: &[&str]| -> (Vec<String>, bool) {
            (
                shown.iter().map(|l| l.chars().take(PREVIEW_LINE_CHARS).collect()).collect(),
                shown.iter().any(|l| l.chars().count() > PREVIEW_LINE_CHARS),
            )
        };
        let (text, omitted, clipped) = if lines.len() <= 2 * PREVIEW_LINES {
            let (shown, clipped) = clip(&lines);
            (self.numbered(&shown, 1), false, clipped)
        } else {
            let (head, head_clipped) = clip(&lines[..PREVIEW_LINES]);
            let (tail, tail_clipped) = clip(&lines[lines.len() - PREVIEW_LINES..]);
            let marker = format!("... [{} lines truncated] ...", lines.len() - 2 * PREVIEW_LINES);
            (
                format!("{}\n{marker}\n{}", self.numbered(&head, 1), self.numbered(&tail, lines.len() - PREVIEW_LINES + 1)),
                true,
                head_clipped || tail_clipped,
            )
        };
        let mut note = match omitted {
            true => format!("Here is a preview showing the head and tail of the {subject}"),
            false => format!("Here is a preview of the {subject}"),
        };
        let caveats: Vec<String> = [
            (omitted, "lines of the form `... [N lines truncated] ...` indicate omitted lines in the middle of the content".to_string()),
            (clipped, format!("the output contains lines longer than {PREVIEW_LINE_CHARS} characters; this preview shows only their first {PREVIEW_LINE_CHARS} characters")),
        ]
        .into_iter()
        .filter_map(|(applies, c)| applies.then_some(c))
        .collect();
        if !caveats.is_empty() {
            note.push_str(&format!(" ({})", caveats.join("; ")));
        }
        (note + ":", text)
    }

    /// Lines with their numbers (`format_content_with_line_numbers`): right-aligned to the
    /// widest marker and two spaces in 0.7, six columns and a tab in 0.4.
    fn numbered(&self, lines: &[String], start: usize) -> String {
        let width = (start + lines.len().saturating_sub(1)).to_string().len();
        lines
            .iter()
            .enumerate()
            .map(|(i, line)| match self.layout {
                LAYOUT_0_4 => format!("{:6}\t{line}", start + i),
                _ => format!("{:>width$}  {line}", start + i),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn offloaded_tool(&self, m: &Message, path: &str) -> String {
        let id = m.tool_call_id.as_deref().unwrap_or_default();
        let (note, sample) = self.preview(&m.content, "result");
        let (id, note) = match self.layout {
            LAYOUT_0_4 => (id.to_string(), "Here is a preview showing the head and tail of the result (lines of the form `... [N lines truncated] ...` indicate omitted lines in the middle of the content):".to_string()),
            _ if id.chars().count() > 32 => (id.chars().take(32).collect::<String>() + "...", note),
            _ => (id.to_string(), note),
        };
        format!("Tool result too large, the result of this tool call {id} was saved in the filesystem at this path: {path}\n\nYou can read the result from the filesystem by using the read_file tool, but make sure to only read part of the result at a time.\n\nYou can do this by specifying an offset and limit in the read_file tool call. For example, to read the first 100 lines, you can use the read_file tool with offset=0 and limit=100.\n\n{note}\n\n{sample}\n")
    }

    fn offloaded_human(&self, m: &Message, path: &str) -> String {
        let (note, sample) = self.preview(&m.content, "content");
        format!("Message content too large and was saved to the filesystem at: {path}\n\nYou can read the full content using the read_file tool with pagination (offset and limit parameters).\n\n{note}\n\n{sample}\n")
    }

    /// 0.7's last step before a summarized (or unsummarizable) request goes out
    /// (`_call_with_budget`): over the input budget, the trailing tool results are clipped, and
    /// the clipped ones replace the originals in the state. Returns the count of what is sent;
    /// still over the budget, the runtime raises `ContextOverflowError` instead of sending (a
    /// simulation goes on from the state as it was).
    fn within_budget<'a>(&mut self, state: &'a [Message], request: &mut [Cow<'a, Message>], count: u64, events: &mut Vec<Event>) -> u64 {
        let Some(budget) = self.budget().filter(|&b| count > b) else { return count };
        // `_clip_overflow_tail` runs with `keep` at one token, so any trailing batch qualifies.
        let start = request.iter().rposition(|m| m.role != Role::Tool).map_or(0, |i| i + 1);
        for i in start..request.len() {
            let clipped = self.clipped(&request[..start], &request[i], events);
            request[i] = Cow::Owned(clipped);
        }
        let sent = self.fixed + self.count(state, request);
        if sent > budget {
            // The runtime raises before the model answers: its state keeps the originals.
            events.push(Event::OverBudget { count: sent, budget });
        } else {
            self.replaced.extend(request[start..].iter().map(|m| (m.id.clone(), m.as_ref().clone())));
        }
        sent
    }

    /// One trailing tool result clipped (`_clip_one_tail_message`): a `read_file` result cut to
    /// its first 4,000 characters and a notice pointing at the file it read, any other offloaded
    /// to /large_tool_results/ with a preview (an offloaded one again: the file is overwritten
    /// with its preview, and the preview of that replaces it).
    fn clipped(&self, before: &[Cow<Message>], m: &Message, events: &mut Vec<Event>) -> Message {
        let tool = m.name.clone().unwrap_or_default();
        let chars = m.content.chars().count() as u64;
        // The call that asked for it, the last with its id (`_build_tool_call_index`).
        let call = m
            .tool_call_id
            .as_deref()
            .filter(|id| !id.is_empty())
            .and_then(|id| before.iter().rev().flat_map(|a| a.tool_calls.iter().rev()).find(|c| c.id == id));
        let read = call.filter(|c| c.name == "read_file").and_then(|c| c.args.get("file_path")?.as_str().filter(|p| !p.is_empty()));
        let content = match read {
            Some(path) => {
                let head: String = m.content.chars().take(READ_FILE_CLIP_CHARS).collect();
                let content = format!("{head}\n\n[Output was truncated due to context window size limits. The full content is at {path}. Use read_file with offset and limit parameters to retrieve specific portions. For example, to read the first 100 lines, call read_file with file_path='{path}', offset=0, limit=100.]");
                let size = TruncatedSize::Chars { chars, replacement_chars: content.chars().count() as u64 };
                events.push(Event::ToolResultTruncated { message: m.id.clone(), tool, size });
                content
            }
            None => {
                let path = self.large_result_path(m);
                let content = self.offloaded_tool(m, &path);
                let replacement_chars = content.chars().count() as u64;
                events.push(Event::ToolResultOffloaded { message: m.id.clone(), tool, chars, replacement_chars, path });
                content
            }
        };
        Message { content, ..m.clone() }
    }

    /// Where an offloaded tool result is written: its call id made path-safe
    /// (`sanitize_tool_call_id`; from 0.7 an id over 128 bytes so made is named `call-` and the
    /// SHA-256 of the id); without one, 0.7 (`_offload_tool_message_content`) names it `unknown-`
    /// and 8 random hex digits (a name of that length), 0.4 writes `/large_tool_results/` itself.
    fn large_result_path(&self, m: &Message) -> String {
        let name = match (m.tool_call_id.as_deref().filter(|id| !id.is_empty()), self.layout) {
            (Some(id), layout) => {
                let safe = id.replace(['.', '/', '\\'], "_");
                match layout != LAYOUT_0_4 && safe.len() > MAX_CALL_ID_PATH_BYTES {
                    true => format!("call-{:x}", Sha256::digest(id.as_bytes())),
                    false => safe,
                }
            }
            (None, LAYOUT_0_4) => String::new(),
            (None, _) => format!("unknown-{}", "0".repeat(8)),
        };
        format!("/large_tool_results/{name}")
    }

    /// The summary message: the summary and where the history was saved (the file is named
    /// after a random session id of fixed length: `session_` and 32 hex digits in 0.7, 8 in 0.4).
    fn summary_message(&self, text: &str) -> Message {
        let id = match self.layout {
            LAYOUT_0_4 => "0".repeat(8),
            _ => "0".repeat(32),
        };
        let content = format!("You are in the middle of a conversation that has been summarized.\n\nThe full conversation history has been saved to /conversation_history/session_{id}.md should you need to refer back to it for details.\n\nA condensed summary follows:\n\n<summary>\n{text}\n</summary>");
        Message::summary(content)
    }
}

/// More than `MAX_ARG_LENGTH` characters, found without counting past them (every request
/// looks at every older argument).
fn over_max_arg_length(s: &str) -> bool {
    s.len() > MAX_ARG_LENGTH && s.chars().nth(MAX_ARG_LENGTH).is_some()
}

/// Python's `str.splitlines()`.
fn split_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if matches!(c, '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{1c}' | '\u{1d}' | '\u{1e}' | '\u{85}' | '\u{2028}' | '\u{2029}') {
            lines.push(&text[start..i]);
            let mut end = i + c.len_utf8();
            if c == '\r' && chars.peek().map(|&(_, n)| n) == Some('\n') {
                chars.next();
                end += 1;
            }
            start = end;
        }
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// `_find_safe_cutoff_point`: a cutoff on a tool result moves back to the assistant message
/// that made the call (or past the results when there is none).
fn safe_cutoff(messages: &[Cow<Message>], cutoff: usize) -> usize {
    if cutoff >= messages.len() || messages[cutoff].role != Role::Tool {
        return cutoff;
    }
    let mut ids = Vec::new();
    let mut end = cutoff;
    while end < messages.len() && messages[end].role == Role::Tool {
        ids.extend(messages[end].tool_call_id.clone());
        end += 1;
    }
    (0..cutoff)
        .rev()
        .find(|&i| messages[i].role == Role::Assistant && messages[i].tool_calls.iter().any(|c| !c.id.is_empty() && ids.contains(&c.id)))
        .unwrap_or(end)
}

impl Policy for DeepAgents {
    fn info(&self) -> PolicyInfo {
        let trigger_rule = match (self.trigger, self.budget()) {
            (t, Some(b)) => format!(
                "{} reached, or a request over the input budget of {b} (95 % of max input tokens less {} output)",
                t.describe(),
                self.max_tokens
            ),
            (t, None) => format!("{} reached", t.describe()),
        };
        let mut rules = Vec::new();
        if let Some(c) = self.evict_chars {
            rules.push(format!("tool results over {c} characters offloaded to /large_tool_results/"));
        }
        if let Some(c) = self.human_evict_chars {
            rules.push(format!("a user message over {c} characters offloaded to /conversation_history/"));
        }
        if let Some(b) = self.budget() {
            rules.push(format!("a request still over the input budget of {b}: its trailing tool results offloaded to /large_tool_results/ (read_file results cut to their first {READ_FILE_CLIP_CHARS} characters)"));
        }
        rules.push(match self.max_input {
            Some(_) => "write_file/edit_file arguments over 2000 characters cut in messages older than the last 10 % of the window, from 85 % of it".into(),
            None => "write_file/edit_file arguments over 2000 characters cut in messages older than the last 20, from 20 messages".into(),
        });
        let trigger = match (self.trigger_tokens(), self.budget()) {
            (Some(t), Some(b)) => Some(t.min(b + 1)),
            (t, b) => t.or(b.map(|b| b + 1)),
        };
        PolicyInfo {
            system: self.release.to_string(),
            counter: format!(
                "LangChain's approximate counter: characters / {} per message, rounded up, + 3; tools as JSON",
                self.chars_per_token
            ),
            window: self.window,
            trigger,
            trigger_rule,
            keep: match self.keep {
                ContextSize::Fraction(_) if self.max_input.is_none() => {
                    format!("the last {DEFAULT_MESSAGES_TO_KEEP} messages (no profile for the share)")
                }
                k => format!("the last {}", k.describe()),
            },
            rules,
        }
    }

    fn fixed(&self) -> u64 {
        self.fixed
    }

    fn tool_result(&mut self, message: Message) -> (Message, Option<Event>) {
        let tool = message.name.clone().unwrap_or_default();
        let chars = message.content.chars().count() as u64;
        match self.evict_chars {
            Some(limit) if chars > limit && !NOT_EVICTED.contains(&tool.as_str()) => {
                let path = self.large_result_path(&message);
                let content = self.offloaded_tool(&message, &path);
                let replacement_chars = content.chars().count() as u64;
                let event = Event::ToolResultOffloaded { message: message.id.clone(), tool, chars, replacement_chars, path };
                (Message { content, ..message }, Some(event))
            }
            _ => (message, None),
        }
    }

    fn request<'a>(&mut self, state: &'a [Message], _counts: &[u64], summary_chars: u64, events: &mut Vec<Event>) -> Option<Request<'a>> {
        // Each message is counted once, when it first reaches a request.
        let new: Vec<u64> = state[self.counts.len()..].iter().map(|m| self.tokens(m)).collect();
        self.counts.extend(new);
        // The messages after the last summary's cutoff: the ones before it are never sent again.
        let from = self.event.as_ref().map_or(0, |e| e.cutoff);
        let mut messages: Vec<Cow<'a, Message>> = state[from..].iter().map(Cow::Borrowed).collect();
        // 0.7: the last message, a user message over the limit, is offloaded once and stays replaced.
        if let (Some(limit), Some(last)) = (self.human_evict_chars, state.last()) {
            let chars = last.content.chars().count() as u64;
            if last.role == Role::User && chars > limit && !self.replaced.contains_key(&last.id) {
                // A random file name of fixed length (a uuid4).
                let path = format!("/conversation_history/{}.md", "0".repeat(36));
                let content = self.offloaded_human(last, &path);
                events.push(Event::HumanMessageOffloaded {
                    message: last.id.clone(),
                    chars,
                    replacement_chars: content.chars().count() as u64,
                    path,
                });
                self.replaced.insert(last.id.clone(), Message { content, ..last.clone() });
            }
        }
        if !self.replaced.is_empty() {
            for m in messages.iter_mut() {
                if let Some(replaced) = self.replaced.get(&m.id) {
                    *m = Cow::Owned(replaced.clone());
                }
            }
        }
        let mut effective: Vec<Cow<'a, Message>> = match &self.event {
            None => messages,
            Some(e) => std::iter::once(Cow::Owned(e.summary.clone())).chain(messages).collect(),
        };
        let mut total = self.fixed + self.count(state, &effective);
        let cut = self.truncate_args(state, &mut effective, total);
        if !cut.is_empty() {
            events.push(Event::ArgumentsTruncated { messages: cut });
            total = self.fixed + self.count(state, &effective);
        }
        let by_trigger = match self.trigger {
            ContextSize::Messages(n) => TRIGGER.holds(effective.len() as u64, n),
            _ => self.trigger_tokens().is_some_and(|t| TRIGGER.holds(total, t)),
        };
        let budget = self.budget();
        let over_budget = budget.is_some_and(|b| BUDGET.holds(total, b));
        if !by_trigger && !over_budget {
            return Some(Request { messages: effective, runtime_count: total, runtime_sent: total });
        }
        let (by, threshold, fires) = match by_trigger {
            true => ("trigger", self.trigger_tokens().unwrap_or(effective.len() as u64), TRIGGER),
            false => ("input budget", budget.unwrap_or_default(), BUDGET),
        };
        let cutoff = self.cutoff(state, &effective);
        if cutoff == 0 {
            events.push(Event::NothingToSummarize { count: total, threshold, fires });
            let sent = self.within_budget(state, &mut effective, total, events);
            return Some(Request { messages: effective, runtime_count: total, runtime_sent: sent });
        }
        self.summaries += 1;
        let summary = self.summary_message(&filler(&format!("summary {}", self.summaries), summary_chars));
        let state_cutoff = match &self.event {
            Some(e) => e.cutoff + cutoff - 1,
            None => cutoff,
        };
        self.event = Some(SummaryEvent { cutoff: state_cutoff, summary: summary.clone() });
        let kept_from = effective.get(cutoff).map(|m| m.id.clone());
        let kept = effective.len() - cutoff;
        let mut request: Vec<Cow<'a, Message>> = std::iter::once(Cow::Owned(summary)).chain(effective.into_iter().skip(cutoff)).collect();
        let sent = self.fixed + self.count(state, &request);
        events.push(Event::Summarized {
            by: by.into(),
            count: total,
            threshold,
            fires,
            summarized: cutoff,
            kept_from,
            kept,
            summary_chars,
        });
        let sent = self.within_budget(state, &mut request, sent, events);
        Some(Request { messages: request, runtime_count: total, runtime_sent: sent })
    }
}
