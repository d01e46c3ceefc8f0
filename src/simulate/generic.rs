//! The policy a manifest declares itself (`[history] max_messages`, `[summarization] trigger` and
//! `keep_messages`), which is also Zeus's (its preset: the last 30 messages, summarization at 85 %
//! of max input tokens keeping the last 5). Zeus has no public code: its count is taken to be the
//! model's, which ctxc counts.
//!
//! Each request holds at most `max_messages` of the history (the last ones, a summary among them);
//! when a request reaches the trigger, every message but the last `keep` is replaced by a summary.

use std::borrow::Cow;

use crate::conversation::policy::{counted, Event, Fires, Policy, PolicyInfo, Request};
use crate::conversation::{filler, Message};

/// `[summarization] trigger`: summarized once the count reaches it.
const TRIGGER: Fires = Fires::AtOrAbove;
use crate::manifest::model::Agent;
use crate::measure::Measured;
use crate::models::Tokenizer;
use crate::runtimes::Runtime;
use crate::tokens::TokenCounter;

pub struct Generic<'c> {
    system: String,
    counter: &'c TokenCounter,
    tokenizer: Tokenizer,
    per_message: u64,
    fixed: u64,
    window: u64,
    max_messages: Option<usize>,
    trigger: Option<(f64, u64)>,
    keep: usize,
    /// The summary and the state index the kept messages start at.
    summary: Option<(Message, usize)>,
    summaries: usize,
}

impl<'c> Generic<'c> {
    pub fn new(agent: &Agent, measured: &Measured, counter: &'c TokenCounter) -> Self {
        let window = measured.window.max_input_tokens;
        let s = &agent.settings;
        Generic {
            system: match agent.preset.as_deref().and_then(Runtime::of_preset).and_then(Runtime::release) {
                Some(release) => release.to_string(),
                None => "the manifest's [history] and [summarization]".to_string(),
            },
            counter,
            tokenizer: agent.profile.tokenizer,
            per_message: measured.request.per_message.unwrap_or(0),
            fixed: measured.request.total.tokens.max(0) as u64,
            window,
            max_messages: s.history_messages,
            trigger: s.summarization_trigger.map(|r| (r, crate::systems::share_of(r, window))),
            keep: s.summarization_keep.unwrap_or(0),
            summary: None,
            summaries: 0,
        }
    }

    fn tokens(&self, m: &Message) -> u64 {
        super::message_tokens(self.counter, self.tokenizer, self.per_message, m)
    }

    fn count(&self, state: &[Message], counts: &[u64], messages: &[Cow<Message>]) -> u64 {
        self.fixed + messages.iter().map(|m| counted(state, counts, m, |m| self.tokens(m))).sum::<u64>()
    }

    /// The history as the runtime holds it: the summary, the messages after it, the last
    /// `max_messages` of them.
    fn history<'a>(&self, state: &'a [Message], events: &mut Vec<Event>) -> Vec<Cow<'a, Message>> {
        let summary = self.summary.as_ref();
        let from = summary.map_or(0, |(_, from)| *from);
        let held = usize::from(summary.is_some()) + state.len() - from;
        // Only what is kept is made: the state grows with every call, a request need not.
        let dropped = match self.max_messages.filter(|&max| held > max) {
            Some(max) => {
                events.push(Event::HistoryTrimmed { dropped: held - max, kept: max });
                held - max
            }
            None => 0,
        };
        let start = from + dropped.saturating_sub(usize::from(summary.is_some()));
        let summary = summary.filter(|_| dropped == 0).map(|(summary, _)| Cow::Owned(summary.clone()));
        summary.into_iter().chain(state[start..].iter().map(Cow::Borrowed)).collect()
    }
}

impl Policy for Generic<'_> {
    fn info(&self) -> PolicyInfo {
        let mut rules = Vec::new();
        if let Some(max) = self.max_messages {
            rules.push(format!("history: the last {max} messages"));
        }
        PolicyInfo {
            system: self.system.clone(),
            counter: "the model's tokenizer (ctxc's count)".into(),
            window: self.window,
            trigger: self.trigger.map(|(_, at)| at),
            trigger_rule: match self.trigger {
                Some((ratio, at)) => format!("{} of max input tokens ({at})", crate::systems::pct(ratio)),
                None => "none: [summarization] trigger_ratio is not set".into(),
            },
            keep: format!("the last {} messages", self.keep),
            rules,
        }
    }

    fn fixed(&self) -> u64 {
        self.fixed
    }

    fn request<'a>(&mut self, state: &'a [Message], counts: &[u64], summary_chars: u64, events: &mut Vec<Event>) -> Option<Request<'a>> {
        let history = self.history(state, events);
        let total = self.count(state, counts, &history);
        let Some((_, threshold)) = self.trigger.filter(|&(_, at)| TRIGGER.holds(total, at)) else {
            return Some(Request { messages: history, runtime_count: total, runtime_sent: total });
        };
        if history.len() <= self.keep {
            events.push(Event::NothingToSummarize { count: total, threshold, fires: TRIGGER });
            return Some(Request { messages: history, runtime_count: total, runtime_sent: total });
        }
        self.summaries += 1;
        let summary = Message::summary(filler(&format!("summary {}", self.summaries), summary_chars));
        let summarized = history.len() - self.keep;
        let from = state.len() - self.keep;
        self.summary = Some((summary.clone(), from));
        let kept: Vec<Cow<'a, Message>> = std::iter::once(Cow::Owned(summary)).chain(state[from..].iter().map(Cow::Borrowed)).collect();
        let sent = self.count(state, counts, &kept);
        events.push(Event::Summarized {
            by: "trigger".into(),
            count: total,
            threshold,
            fires: TRIGGER,
            summarized,
            kept_from: state.get(from).map(|m| m.id.clone()),
            kept: self.keep,
            summary_chars,
        });
        Some(Request { messages: kept, runtime_count: total, runtime_sent: sent })
    }
}
