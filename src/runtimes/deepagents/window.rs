//! Deep Agents: the release layout (0.4, or 0.7 and later), offloading of large tool results,
//! summarization (`trigger` / `keep`, with the fallback used when the model has no profile),
//! and the model's window as LangChain sizes it. The text its memory and skills middleware
//! generate around the user's files is [`crate::runtimes::deepagents::steps`]'s.
//!
//! Every layout and string here is what a named release does, proven byte for byte by
//! tests/runtimes/deepagents.rs against the installed release (see docs/runtimes/deepagents.md).

use serde::Serialize;

use crate::runtimes::{pct, share_of, Setting};

/// Deep Agents estimates tokens as characters / 4.
pub const CHARS_PER_TOKEN: u64 = 4;
/// The two prompt layouts ctxc knows.
pub const LAYOUT_0_4: &str = "0.4";
pub const LAYOUT_0_7: &str = "0.7";

/// 0.7 offloads human messages over this many tokens (filesystem.py 0.7.32
/// `human_message_token_limit_before_evict: int | None = 50000`).
pub const HUMAN_MESSAGE_TOKEN_LIMIT: u64 = 50_000;

/// Default summarization with a model profile: at 85 % of max input tokens, keeping 10 %.
pub const TRIGGER_FRACTION: f64 = 0.85;
pub const KEEP_FRACTION: f64 = 0.10;
/// Fallback without a model profile: at 170,000 tokens, keeping 6 messages.
pub const FALLBACK_TRIGGER_TOKENS: u64 = 170_000;
pub const FALLBACK_KEEP_MESSAGES: u64 = 6;

/// 0.7 also summarizes a request over its input budget: this share of max input tokens, less the
/// output the model reserves (summarization.py 0.7.32 `_input_budget`).
pub const BUDGET_FRACTION: f64 = 0.95;
/// LangChain's summarization counts characters per token: 3.3 for Anthropic's model class, 4 for
/// the others (langchain 1.4.7 `_get_approximate_token_counter`).
pub const ANTHROPIC_SUMMARY_CHARS_PER_TOKEN: f64 = 3.3;
pub const SUMMARY_CHARS_PER_TOKEN: f64 = 4.0;

/// What LangChain's model class knows about one model (a row of data/deepagents-profiles.tsv).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LangchainProfile {
    /// LangChain's provider name (`anthropic`, `openai`, `google_genai`).
    pub provider: String,
    pub model: String,
    pub max_input_tokens: u64,
    /// The output the class reserves when the user sets none (0: none).
    pub max_tokens: u64,
    pub chars_per_token: f64,
}

/// Where the profiles come from (the table's source line).
pub fn profiles_source() -> &'static str {
    PROFILES.lines().find_map(|l| l.strip_prefix("# Source: ")).unwrap_or("LangChain's provider packages")
}

const PROFILES: &str = include_str!("../../../data/deepagents-profiles.tsv");

/// The provider package and release the table took `provider`'s profiles from
/// (`langchain-anthropic 1.7.7`).
fn package_of(provider: &str) -> &'static str {
    let package = format!("langchain-{}", provider.replace('_', "-"));
    profiles_source().split(", ").find(|p| p.split(' ').next() == Some(package.as_str())).unwrap_or("LangChain's provider package")
}

fn profiles() -> &'static [LangchainProfile] {
    static TABLE: std::sync::OnceLock<Vec<LangchainProfile>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut rows: Vec<LangchainProfile> = PROFILES
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("provider\t") && !l.trim().is_empty())
            .filter_map(|line| {
                let mut f = line.split('\t');
                Some(LangchainProfile {
                    provider: f.next()?.to_string(),
                    model: f.next()?.to_string(),
                    max_input_tokens: f.next()?.parse().ok()?,
                    max_tokens: f.next()?.parse().ok()?,
                    chars_per_token: f.next()?.parse().ok()?,
                })
            })
            .collect();
        rows.sort_by(|a, b| a.model.cmp(&b.model));
        rows
    })
}

/// LangChain's profile of `model` (without a `provider:` prefix), if its provider package has one.
pub fn langchain_profile(model: &str) -> Option<&'static LangchainProfile> {
    let table = profiles();
    table.binary_search_by(|p| p.model.as_str().cmp(model)).ok().map(|i| &table[i])
}

/// LangChain's provider name for a provider of ctxc's model table.
pub fn langchain_provider(provider: &str) -> Option<&'static str> {
    match provider {
        "anthropic" => Some("anthropic"),
        "openai" => Some("openai"),
        "gemini" => Some("google_genai"),
        _ => None,
    }
}

/// The model as Deep Agents sizes its window: max input tokens (none without a profile), the
/// output the model reserves, and how LangChain's summarization counts tokens, each with its
/// source.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelWindow {
    pub max_input_tokens: Option<u64>,
    pub max_input_source: String,
    pub max_tokens: u64,
    pub max_tokens_source: String,
    pub chars_per_token: f64,
    pub chars_per_token_source: String,
}

impl ModelWindow {
    /// For `model` (no `provider:` prefix) of ctxc's `provider`, with the manifest's
    /// `[agent] context_window` and `max_output_tokens` standing for a profile and a max output
    /// the user gives the model.
    pub fn of(model: &str, provider: &str, context_window: Option<u64>, max_output_tokens: Option<u64>) -> ModelWindow {
        let profile = langchain_profile(model);
        let class = profile.map(|p| p.provider.as_str()).or_else(|| langchain_provider(provider));
        let (max_input_tokens, max_input_source) = match (context_window, profile) {
            (Some(n), _) => (Some(n), "[agent] context_window".to_string()),
            (None, Some(p)) => (Some(p.max_input_tokens), format!("LangChain's profile of the model ({})", package_of(&p.provider))),
            (None, None) => (None, format!("LangChain has no profile for `{model}`: Deep Agents' fallback")),
        };
        let (max_tokens, max_tokens_source) = match (max_output_tokens, profile) {
            (Some(n), _) => (n, "[agent] max_output_tokens".to_string()),
            (None, Some(p)) if p.max_tokens > 0 => (p.max_tokens, format!("the {} model class's default max tokens", p.provider)),
            (None, _) => (0, "the model class reserves no output by default".to_string()),
        };
        let (chars_per_token, chars_per_token_source) = match profile.map(|p| p.chars_per_token) {
            Some(c) => (c, format!("LangChain's summarization for the {} model class", class.unwrap_or("?"))),
            None if class == Some("anthropic") => {
                (ANTHROPIC_SUMMARY_CHARS_PER_TOKEN, "LangChain's summarization for the anthropic model class".to_string())
            }
            None => (SUMMARY_CHARS_PER_TOKEN, "LangChain's summarization default".to_string()),
        };
        ModelWindow { max_input_tokens, max_input_source, max_tokens, max_tokens_source, chars_per_token, chars_per_token_source }
    }
}

/// The exact release a layout was proven against (tests/runtimes/deepagents.rs), for reports.
pub fn release(layout: &str) -> &'static str {
    match layout {
        LAYOUT_0_4 => "deepagents 0.4.12",
        _ => "deepagents 0.7.32",
    }
}

/// Where paths in the prompt are rooted when `[deepagents] mount` is not set: the backend sees
/// the project directory as `/` (a FilesystemBackend with `virtual_mode=True`).
pub const DEFAULT_MOUNT: &str = "/";

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
    /// In tokens, for a window of `max_input` tokens; `None` for a count of messages, or for a
    /// share of a window the model has no profile for (LangChain then never reaches it).
    pub fn tokens(self, max_input: Option<u64>) -> Option<u64> {
        match self {
            ContextSize::Fraction(f) => max_input.map(|m| share_of(f, m)),
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
    /// From 0.7 on: human messages over this many tokens are offloaded too (`None` before 0.7).
    pub human_message_token_limit_before_evict: Option<Setting<u64>>,
    pub trigger: Setting<ContextSize>,
    pub keep: Setting<ContextSize>,
    /// The model's window as Deep Agents reads it (LangChain's profile): it decides the
    /// summarization defaults and 0.7's input budget.
    pub model: ModelWindow,
    /// Tools that interrupt for human approval.
    pub interrupt_on: Vec<String>,
    /// Where the backend mounts the project directory: paths in the prompt are this prefix and
    /// the path relative to the project root (`/` locally, `/memories/` in a deploy project).
    pub mount: String,
    /// Whether `memory` is passed (`[memory] files` lists any file, even ones that do not exist):
    /// the memory section is then there, "(No memory loaded)" when none could be read.
    pub memory: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Window {
    pub version: String,
    pub layout: &'static str,
    /// Whether LangChain has a profile with max input tokens for the model.
    pub model_profile: bool,
    pub model: ModelWindow,
    pub tool_token_limit_before_evict: Setting<u64>,
    /// The offload threshold in characters (Deep Agents counts 4 characters per token); `None`
    /// when 0 switches offloading off.
    pub offload_chars: Option<u64>,
    pub human_message_token_limit_before_evict: Option<Setting<u64>>,
    pub trigger: Setting<ContextSize>,
    /// The trigger in tokens (`None` for a count of messages, or a share without a profile).
    pub trigger_at: Option<u64>,
    /// 0.7: a request over this many tokens is summarized too (`None` before 0.7 or without a
    /// profile).
    pub input_budget: Option<u64>,
    /// The point the runtime summarizes at first: the trigger or the input budget, whichever is
    /// lower (`None` when neither is in tokens).
    pub summarization_at: Option<u64>,
    /// `trigger` or `input budget`: which of the two `summarization_at` is.
    pub summarization_by: &'static str,
    pub keep: Setting<ContextSize>,
    /// Tokens kept after summarizing (`None` when kept in messages).
    pub kept_tokens: Option<u64>,
    pub interrupt_on: Vec<String>,
}

/// The window numbers of Deep Agents for settings `s`. Thresholds in tokens are counted the way
/// LangChain's summarization counts them (`s.model.chars_per_token`).
pub fn window(s: &Settings) -> Window {
    let max_input = s.model.max_input_tokens;
    let trigger_at = s.trigger.value.tokens(max_input);
    let input_budget =
        max_input.filter(|_| s.layout != LAYOUT_0_4).map(|m| share_of(BUDGET_FRACTION, m).saturating_sub(s.model.max_tokens));
    let (summarization_at, summarization_by) = match (trigger_at, input_budget) {
        (Some(t), Some(b)) if b < t => (Some(b), "input budget"),
        (None, Some(b)) => (Some(b), "input budget"),
        (t, _) => (t, "trigger"),
    };
    Window {
        version: s.version.value.clone(),
        layout: s.layout,
        model_profile: max_input.is_some(),
        model: s.model.clone(),
        tool_token_limit_before_evict: s.tool_token_limit_before_evict.clone(),
        offload_chars: Some(s.tool_token_limit_before_evict.value * CHARS_PER_TOKEN).filter(|&chars| chars > 0),
        human_message_token_limit_before_evict: s.human_message_token_limit_before_evict.clone(),
        trigger: s.trigger.clone(),
        trigger_at,
        input_budget,
        summarization_at,
        summarization_by,
        keep: s.keep.clone(),
        kept_tokens: s.keep.value.tokens(max_input),
        interrupt_on: s.interrupt_on.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(layout: &'static str, model: ModelWindow, trigger: ContextSize) -> Settings {
        fn setting<T>(value: T) -> Setting<T> {
            let origin = crate::diagnostic::Origin { file: String::new(), span: None };
            Setting { value, source: "test".into(), key: String::new(), origin, note: None }
        }
        Settings {
            version: setting(layout.to_string()),
            layout,
            tool_token_limit_before_evict: setting(20_000),
            human_message_token_limit_before_evict: None,
            trigger: setting(trigger),
            keep: setting(ContextSize::Fraction(KEEP_FRACTION)),
            model,
            interrupt_on: Vec::new(),
            mount: DEFAULT_MOUNT.into(),
            memory: false,
        }
    }

    /// The figures (checked against the runtime by tests/runtimes/deepagents.rs): an
    /// Anthropic model reserves its max output, so 0.7 summarizes at its input budget first.
    #[test]
    fn summarization_is_at_the_trigger_or_the_input_budget_whichever_comes_first() {
        let sonnet = ModelWindow::of("claude-sonnet-4-5", "anthropic", None, None);
        assert_eq!((sonnet.max_input_tokens, sonnet.max_tokens, sonnet.chars_per_token), (Some(200_000), 64_000, 3.3));
        let w = window(&settings(LAYOUT_0_7, sonnet.clone(), ContextSize::Fraction(TRIGGER_FRACTION)));
        assert_eq!(
            (w.trigger_at, w.input_budget, w.summarization_at, w.summarization_by),
            (Some(170_000), Some(126_000), Some(126_000), "input budget")
        );
        let w = window(&settings(LAYOUT_0_4, sonnet, ContextSize::Fraction(TRIGGER_FRACTION)));
        assert_eq!((w.input_budget, w.summarization_at, w.summarization_by), (None, Some(170_000), "trigger"), "0.4 has no input budget");

        let nano = ModelWindow::of("gpt-5.4-nano", "openai", None, None);
        assert_eq!(
            (nano.max_input_tokens, nano.max_tokens, nano.chars_per_token),
            (Some(400_000), 0, 4.0),
            "LangChain's window, not ctxc's table"
        );
        let w = window(&settings(LAYOUT_0_7, nano, ContextSize::Fraction(TRIGGER_FRACTION)));
        assert_eq!(
            (w.trigger_at, w.input_budget, w.summarization_at, w.kept_tokens),
            (Some(340_000), Some(380_000), Some(340_000), Some(40_000))
        );

        let set = ModelWindow::of("gpt-5.4-nano", "openai", Some(100_000), Some(50_000));
        assert_eq!((set.max_input_tokens, set.max_tokens), (Some(100_000), 50_000), "the manifest's window and max output win");
        assert_eq!(window(&settings(LAYOUT_0_7, set, ContextSize::Tokens(90_000))).summarization_at, Some(45_000));

        let local = ModelWindow::of("handbook-local-7b", "unknown", None, None);
        assert_eq!((local.max_input_tokens, local.chars_per_token), (None, 4.0));
        let w = window(&settings(LAYOUT_0_7, local.clone(), ContextSize::Tokens(FALLBACK_TRIGGER_TOKENS)));
        assert_eq!((w.model_profile, w.input_budget, w.summarization_at), (false, None, Some(170_000)));
        let w = window(&settings(LAYOUT_0_7, local, ContextSize::Fraction(0.5)));
        assert_eq!(w.summarization_at, None, "a share of a window LangChain does not know is never reached");
        assert_eq!(ModelWindow::of("claude-unreleased", "anthropic", None, None).chars_per_token, 3.3);
    }

    #[test]
    fn the_profile_table_has_one_row_per_model_and_each_class_counts_as_langchain_does() {
        let table = profiles();
        assert!(table.len() > 50, "{} profiles", table.len());
        assert!(table.windows(2).all(|w| w[0].model < w[1].model), "one row per model name");
        for p in table {
            let chars = if p.provider == "anthropic" { ANTHROPIC_SUMMARY_CHARS_PER_TOKEN } else { SUMMARY_CHARS_PER_TOKEN };
            assert_eq!(p.chars_per_token, chars, "{}", p.model);
        }
        assert!(profiles_source().contains("langchain-anthropic"), "{}", profiles_source());
    }

    #[test]
    fn releases_map_to_the_two_layouts() {
        assert_eq!(layout("0.4"), Ok(LAYOUT_0_4));
        assert_eq!(layout("0.4.2"), Ok(LAYOUT_0_4));
        assert_eq!(layout("0.7"), Ok(LAYOUT_0_7));
        assert_eq!(layout("0.10.1"), Ok(LAYOUT_0_7));
        assert_eq!(layout("1.6.0"), Ok(LAYOUT_0_7));
        assert!(layout("0.5").is_err(), "0.5.0 moved memory after the user middleware: a layout ctxc does not model");
        assert!(layout("0.3").is_err());
        assert!(layout("latest").is_err());
    }
}
