//! Deep Agents: the release layout (0.4, or 0.7 and later), offloading of large tool results,
//! and summarization (`trigger` / `keep`, with the fallback used when the model has no profile).

use serde::Serialize;

use super::{pct, share_of, Setting};

/// Deep Agents estimates tokens as characters / 4.
pub const CHARS_PER_TOKEN: u64 = 4;
/// The two prompt layouts ctxc knows.
pub const LAYOUT_0_4: &str = "0.4";
pub const LAYOUT_0_7: &str = "0.7";

/// Default summarization with a model profile: at 85 % of max input tokens, keeping 10 %.
pub const TRIGGER_FRACTION: f64 = 0.85;
pub const KEEP_FRACTION: f64 = 0.10;
/// Fallback without a model profile: at 170,000 tokens, keeping 6 messages.
pub const FALLBACK_TRIGGER_TOKENS: u64 = 170_000;
pub const FALLBACK_KEEP_MESSAGES: u64 = 6;

/// The layout of a Deep Agents release: `0.4` for 0.4.x, `0.7` for 0.7 and every later release.
/// Other releases are refused rather than guessed.
pub fn layout(version: &str) -> Result<&'static str, String> {
    let mut parts = version.trim().trim_start_matches('v').split('.');
    let number = |p: Option<&str>| p.and_then(|p| p.parse::<u64>().ok());
    let unknown = || format!("ctxc knows the Deep Agents prompt layouts of release 0.4 and of 0.7 and later; `{version}` is neither");
    match (number(parts.next()), number(parts.next())) {
        (Some(0), Some(4)) => Ok(LAYOUT_0_4),
        (Some(0), Some(minor)) if minor >= 7 => Ok(LAYOUT_0_7),
        (Some(major), Some(_)) if major >= 1 => Ok(LAYOUT_0_7),
        _ => Err(unknown()),
    }
}

/// A LangChain context size: a share of max input tokens, tokens, or messages.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ContextSize {
    Fraction(f64),
    Tokens(u64),
    Messages(u64),
}

impl ContextSize {
    /// In tokens, for a window of `max_input` tokens; `None` for a count of messages.
    pub fn tokens(self, max_input: u64) -> Option<u64> {
        match self {
            ContextSize::Fraction(f) => Some(share_of(f, max_input)),
            ContextSize::Tokens(n) => Some(n),
            ContextSize::Messages(_) => None,
        }
    }

    pub fn describe(self) -> String {
        match self {
            ContextSize::Fraction(f) => format!("{} of max input tokens", pct(f)),
            ContextSize::Tokens(n) => format!("{n} tokens"),
            ContextSize::Messages(n) => format!("{n} messages"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    pub version: Setting<String>,
    /// `0.4` or `0.7`: which step layout the preset uses.
    pub layout: &'static str,
    pub tool_token_limit_before_evict: Setting<u64>,
    pub trigger: Setting<ContextSize>,
    pub keep: Setting<ContextSize>,
    /// Whether the model has a profile (a known model, or `context_window` set): it decides the
    /// summarization defaults.
    pub model_profile: bool,
    /// Tools that interrupt for human approval.
    pub interrupt_on: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Window {
    pub version: String,
    pub layout: &'static str,
    pub model_profile: bool,
    pub tool_token_limit_before_evict: Setting<u64>,
    /// The offload threshold in characters (Deep Agents counts 4 characters per token).
    pub offload_chars: u64,
    pub trigger: Setting<ContextSize>,
    /// Summarization fires at this many tokens (`None` for a trigger in messages).
    pub summarization_at: Option<u64>,
    pub keep: Setting<ContextSize>,
    /// Tokens kept after summarizing (`None` when kept in messages).
    pub kept_tokens: Option<u64>,
    pub interrupt_on: Vec<String>,
}

pub fn window(s: &Settings, max_input: u64) -> Window {
    Window {
        version: s.version.value.clone(),
        layout: s.layout,
        model_profile: s.model_profile,
        tool_token_limit_before_evict: s.tool_token_limit_before_evict.clone(),
        offload_chars: s.tool_token_limit_before_evict.value * CHARS_PER_TOKEN,
        trigger: s.trigger.clone(),
        summarization_at: s.trigger.value.tokens(max_input),
        keep: s.keep.clone(),
        kept_tokens: s.keep.value.tokens(max_input),
        interrupt_on: s.interrupt_on.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_map_to_the_two_layouts() {
        assert_eq!(layout("0.4"), Ok(LAYOUT_0_4));
        assert_eq!(layout("0.4.2"), Ok(LAYOUT_0_4));
        assert_eq!(layout("0.7"), Ok(LAYOUT_0_7));
        assert_eq!(layout("0.10.1"), Ok(LAYOUT_0_7));
        assert_eq!(layout("1.6.0"), Ok(LAYOUT_0_7));
        assert!(layout("0.5").is_err(), "memory moved somewhere between 0.4 and 0.7: not guessed");
        assert!(layout("0.3").is_err());
        assert!(layout("latest").is_err());
    }
}
