//! Token counts recorded from the providers' counting endpoints, so that later runs count
//! Claude and Gemini requests exactly and offline. Anthropic's `POST /v1/messages/count_tokens`
//! and Gemini's `models/{model}:countTokens` count whole requests; ctxc asks for the requests
//! whose differences are the parts it reports ([`Plan`]) and records each answer in `ctxc.counts`
//! beside the manifest, keyed by a hash of the exact request body: a count stays true until the
//! text it counts changes. This module builds the bodies, parses the answers and the file, and
//! decides when to retry; the binary (`ctxc counts sync`) does the HTTP.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::models::ModelProfile;
use crate::tools::Tool;

/// The file of recorded counts, beside the manifest.
pub const FILE_NAME: &str = "ctxc.counts";

/// The most tokens a recorded count may hold: ten times the largest context window of any model
/// (10 million), so that every sum of counts fits an `i64` and a forged figure stays a number a
/// report can print.
pub const MAX_TOKENS: u64 = 100_000_000;

/// How far a recorded count may stand from ctxc's calibrated estimate of the same text and still
/// be taken as the endpoint's: from half the estimate to five times it, each side widened by
/// [`PLAUSIBLE_SLACK`] tokens. Calibrated estimates stay within ±15 % of what the tokenizers
/// they stand for count on whole prompts (docs/counting.md), and the widest gap measured between
/// two production tokenizers on a whole script is 4.4× (cl100k_base against o200k_base on
/// Gujarati, OpenAI's GPT-4o announcement): a count past either side comes from no tokenizer.
/// The lower side is what a forged count would cross, to make a grown prompt fit its budget.
pub const PLAUSIBLE_BELOW: i64 = 2;
pub const PLAUSIBLE_ABOVE: i64 = 5;
/// Tokens any figure may differ by whatever its size: a request's framing, which ctxc does not
/// estimate, and the separator a recorded section holds.
pub const PLAUSIBLE_SLACK: i64 = 32;

/// Whether `recorded` tokens is a count some tokenizer could give for a text ctxc estimates at
/// `estimate` tokens ([`PLAUSIBLE_BELOW`], [`PLAUSIBLE_ABOVE`]).
pub fn plausible(recorded: i64, estimate: i64) -> bool {
    within_band(recorded, estimate, PLAUSIBLE_SLACK)
}

/// [`plausible`] without the slack: for a count that scales others (the project's own ratio,
/// applied to a whole render), where 32 tokens on a 100-token prefix would let a forged figure
/// shrink every estimate to a quarter.
pub fn plausible_as_ratio(recorded: i64, estimate: i64) -> bool {
    within_band(recorded, estimate, 0)
}

fn within_band(recorded: i64, estimate: i64, slack: i64) -> bool {
    let estimate = estimate.max(0);
    recorded >= estimate / PLAUSIBLE_BELOW - slack && recorded <= estimate.saturating_mul(PLAUSIBLE_ABOVE) + slack
}

/// The one user message every counted request carries: both endpoints require a message, and a
/// request's counts are compared only with requests that carry the same one.
pub const PLACEHOLDER_MESSAGE: &str = ".";

const HEADER: &str = "# ctxc.counts: token counts recorded from the providers' counting endpoints by `ctxc counts sync`.\n# One request per line: provider, model, sha256 of the exact request body, input tokens, date recorded (UTC).\n";

/// A provider with a counting endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Provider {
    Anthropic,
    Gemini,
}

impl Provider {
    /// The provider whose endpoint counts for a model, if it has one.
    pub fn of(profile: &ModelProfile) -> Option<Provider> {
        match profile.provider.as_str() {
            "anthropic" => Some(Provider::Anthropic),
            "gemini" | "vertex_ai-language-models" if profile.model.starts_with("gemini") => Some(Provider::Gemini),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::Gemini => "gemini",
        }
    }

    fn parse(name: &str) -> Option<Provider> {
        [Provider::Anthropic, Provider::Gemini].into_iter().find(|p| p.name() == name)
    }

    /// The endpoint, as labels name it.
    pub fn endpoint(self) -> &'static str {
        match self {
            Provider::Anthropic => "Anthropic count_tokens",
            Provider::Gemini => "Gemini countTokens",
        }
    }

    /// Environment variables holding the API key, in the order they are tried.
    pub fn key_variables(self) -> &'static [&'static str] {
        match self {
            Provider::Anthropic => &["ANTHROPIC_API_KEY"],
            Provider::Gemini => &["GEMINI_API_KEY", "GOOGLE_API_KEY"],
        }
    }

    /// The environment variable that replaces the base URL (a gateway, a proxy, a test server).
    pub fn base_url_variable(self) -> &'static str {
        match self {
            Provider::Anthropic => "ANTHROPIC_BASE_URL",
            Provider::Gemini => "GOOGLE_GEMINI_BASE_URL",
        }
    }

    pub fn default_base_url(self) -> &'static str {
        match self {
            Provider::Anthropic => "https://api.anthropic.com",
            Provider::Gemini => "https://generativelanguage.googleapis.com",
        }
    }

    /// The counting endpoint's URL for `model` below `base`.
    pub fn url(self, base: &str, model: &str) -> String {
        let base = base.trim_end_matches('/');
        match self {
            Provider::Anthropic => format!("{base}/v1/messages/count_tokens"),
            Provider::Gemini => format!("{base}/v1beta/models/{model}:countTokens"),
        }
    }

    /// The request's headers besides `content-type: application/json`: the key and, for
    /// Anthropic, the API version.
    pub fn headers(self, key: &str) -> Vec<(&'static str, String)> {
        match self {
            Provider::Anthropic => vec![("x-api-key", key.to_string()), ("anthropic-version", "2023-06-01".to_string())],
            Provider::Gemini => vec![("x-goog-api-key", key.to_string())],
        }
    }

    /// The count in an endpoint's answer: Anthropic's `input_tokens`, Gemini's `totalTokens`.
    pub fn parse_answer(self, body: &str) -> Option<u64> {
        let value: Value = serde_json::from_str(body).ok()?;
        let field = match self {
            Provider::Anthropic => "input_tokens",
            Provider::Gemini => "totalTokens",
        };
        value.get(field)?.as_u64().filter(|n| *n <= MAX_TOKENS)
    }
}

/// One request to count: its provider and model, the exact body sent and the body's hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountRequest {
    pub provider: Provider,
    pub model: String,
    pub body: String,
    /// sha256 of `body`, lowercase hex: the key the count is recorded under.
    pub hash: String,
}

impl CountRequest {
    /// The request for `model` with `system` (none when `None`), one placeholder user message,
    /// and `tools`, in the shape the provider documents.
    pub fn new(provider: Provider, model: &str, system: Option<&str>, tools: &[&Tool]) -> CountRequest {
        let body = match provider {
            Provider::Anthropic => {
                let mut body = json!({ "model": model });
                if let Some(system) = system {
                    body["system"] = json!(system);
                }
                body["messages"] = json!([{ "role": "user", "content": PLACEHOLDER_MESSAGE }]);
                if !tools.is_empty() {
                    body["tools"] = tools.iter().map(|t| t.definition("input_schema")).collect();
                }
                body
            }
            Provider::Gemini => {
                let mut inner = json!({
                    "model": format!("models/{model}"),
                    "contents": [{ "role": "user", "parts": [{ "text": PLACEHOLDER_MESSAGE }] }],
                });
                if let Some(system) = system {
                    inner["systemInstruction"] = json!({ "parts": [{ "text": system }] });
                }
                if !tools.is_empty() {
                    let declarations: Vec<Value> = tools.iter().map(|t| t.gemini_declaration()).collect();
                    inner["tools"] = json!([{ "functionDeclarations": declarations }]);
                }
                json!({ "generateContentRequest": inner })
            }
        };
        let body = body.to_string();
        let hash = Sha256::digest(body.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        CountRequest { provider, model: model.to_string(), body, hash }
    }
}

/// The requests whose counts make up one rendered mode × scenario: the request without a
/// system prompt, one whose system prompt ends with each section in turn (the last is the whole
/// prompt), and the whole prompt with the callable tools. Differences of their counts give each
/// section (with the separator before it), the system prompt and the tools, so that the parts
/// add up to the whole exactly. With two tools or more, the whole prompt with the first `k`
/// tools for each `k` gives each tool after the first (what adding it costs), and the second
/// tool alone then followed by the first gives the first: what is left of the tools' total is
/// the provider's tool-use prompt and the list's framing, counted once. A prompt of `n` sections
/// costs `n + 1` requests, `n + 2` with one tool, `n + t + 3` with `t ≥ 2` tools.
#[derive(Debug, Clone)]
pub struct Plan {
    pub bare: CountRequest,
    pub prefixes: Vec<CountRequest>,
    /// `None` when no tool is callable.
    pub with_tools: Option<CountRequest>,
    /// The whole prompt with the first `k` tools, `k` from 1 to all but one (none for one tool).
    pub tool_prefixes: Vec<CountRequest>,
    /// The second tool alone, then the second and the first (none for fewer than two tools).
    pub swapped: Vec<CountRequest>,
}

impl Plan {
    /// The plan for a prompt given as its sections, each with the separator before it (empty
    /// for the first): the concatenation is the prompt exactly.
    pub fn new(provider: Provider, model: &str, sections: &[(&str, &str)], tools: &[&Tool]) -> Plan {
        let mut prompt = String::new();
        let mut prefixes = Vec::with_capacity(sections.len());
        for (separator, text) in sections {
            prompt.push_str(separator);
            prompt.push_str(text);
            prefixes.push(CountRequest::new(provider, model, Some(&prompt), &[]));
        }
        let with_tools = (!tools.is_empty()).then(|| CountRequest::new(provider, model, Some(&prompt), tools));
        let (tool_prefixes, swapped) = match tools {
            [first, second, ..] => (
                (1..tools.len()).map(|k| CountRequest::new(provider, model, Some(&prompt), &tools[..k])).collect(),
                vec![
                    CountRequest::new(provider, model, Some(&prompt), &[*second]),
                    CountRequest::new(provider, model, Some(&prompt), &[*second, *first]),
                ],
            ),
            _ => (Vec::new(), Vec::new()),
        };
        Plan { bare: CountRequest::new(provider, model, None, &[]), prefixes, with_tools, tool_prefixes, swapped }
    }

    /// Every request of the plan.
    pub fn requests(&self) -> impl Iterator<Item = &CountRequest> {
        std::iter::once(&self.bare).chain(&self.prefixes).chain(&self.with_tools).chain(&self.tool_prefixes).chain(&self.swapped)
    }

    /// The parts, from recorded counts; `Err` with how many of the plan's requests are not recorded.
    pub fn counts(&self, recorded: &Recorded) -> Result<PlanCounts, usize> {
        let found: Vec<Option<&Entry>> = self.requests().map(|r| recorded.get(r)).collect();
        let missing = found.iter().filter(|f| f.is_none()).count();
        if missing > 0 {
            return Err(missing);
        }
        let counts: Vec<i64> = found.iter().flatten().map(|e| e.tokens as i64).collect();
        let date = found.iter().flatten().map(|e| e.date.as_str()).max().unwrap_or_default().to_string();
        let bare = counts[0];
        let n = self.prefixes.len();
        let sections: Vec<i64> = (1..=n).map(|k| counts[k] - counts[k - 1]).collect();
        let without_tools = counts[n];
        let total = if self.with_tools.is_some() { counts[n + 1] } else { without_tools };
        let tools = match counts.get(n + 2..).filter(|_| self.with_tools.is_some()).unwrap_or_default() {
            [] => None,
            rest => {
                // rest: the first k tools for k = 1 .. t − 1, then the second alone and the second and first.
                let (prefixes, swapped) = rest.split_at(rest.len() - 2);
                let first = swapped[1] - swapped[0];
                let mut each = vec![first];
                let mut previous = prefixes[0];
                for &with_k in prefixes[1..].iter().chain([&total]) {
                    each.push(with_k - previous);
                    previous = with_k;
                }
                Some(ToolSplit { fixed: prefixes[0] - without_tools - first, each })
            }
        };
        Ok(PlanCounts { bare, sections, system_prompt: without_tools - bare, tools_total: total - without_tools, tools, total, date })
    }
}

/// One mode × scenario counted from recorded answers. `sections` add up to `system_prompt`;
/// `bare + system_prompt + tools_total = total`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanCounts {
    /// The request with the placeholder message only: the provider's framing (and the message).
    pub bare: i64,
    /// Each section with the separator before it.
    pub sections: Vec<i64>,
    pub system_prompt: i64,
    /// What the tools add: definitions and the provider's tool-use prompt.
    pub tools_total: i64,
    /// `tools_total` split by tool (with two tools or more).
    pub tools: Option<ToolSplit>,
    pub total: i64,
    /// The latest date among the counts used.
    pub date: String,
}

/// What each tool adds, in the order sent, and what the list adds once (the provider's tool-use
/// prompt and the list's framing): `fixed` + the sum of `each` = the tools' total.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolSplit {
    pub each: Vec<i64>,
    pub fixed: i64,
}

/// One recorded count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub tokens: u64,
    /// `YYYY-MM-DD`, UTC.
    pub date: String,
}

/// The counts of a `ctxc.counts` file, keyed by provider, model and request hash.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recorded {
    entries: BTreeMap<(Provider, String, String), Entry>,
}

/// A line of a `ctxc.counts` file that does not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    pub message: String,
}

impl Recorded {
    /// Parses a `ctxc.counts` file: comment lines start with `#`; every other line is five
    /// tab-separated fields.
    pub fn parse(text: &str) -> Result<Recorded, ParseError> {
        let mut entries = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            let error = |field: usize, message: String| {
                let column = fields.iter().take(field).map(|f| f.chars().count() + 1).sum::<usize>() + 1;
                ParseError { line: i + 1, column, message }
            };
            let [provider, model, hash, tokens, date] = fields[..] else {
                return Err(error(
                    0,
                    format!("expected 5 tab-separated fields (provider, model, hash, tokens, date), found {}", fields.len()),
                ));
            };
            let provider =
                Provider::parse(provider).ok_or_else(|| error(0, format!("unknown provider `{provider}` (anthropic, gemini)")))?;
            if model.is_empty() {
                return Err(error(1, "empty model".into()));
            }
            if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
                return Err(error(2, "the hash is not 64 lowercase hex digits".into()));
            }
            let tokens: u64 = tokens.parse().map_err(|_| error(3, format!("`{tokens}` is not a token count")))?;
            if tokens > MAX_TOKENS {
                return Err(error(3, format!("{tokens} tokens is more than any request holds (at most {MAX_TOKENS})")));
            }
            if !is_date(date) {
                return Err(error(4, format!("`{date}` is not a date (YYYY-MM-DD)")));
            }
            entries.insert((provider, model.to_string(), hash.to_string()), Entry { tokens, date: date.to_string() });
        }
        Ok(Recorded { entries })
    }

    /// The file's text: a header, then one line per count, sorted; the same counts always give
    /// the same bytes.
    pub fn to_text(&self) -> String {
        let mut out = String::from(HEADER);
        for ((provider, model, hash), e) in &self.entries {
            out.push_str(&format!("{}\t{model}\t{hash}\t{}\t{}\n", provider.name(), e.tokens, e.date));
        }
        out
    }

    pub fn get(&self, request: &CountRequest) -> Option<&Entry> {
        self.entries.get(&(request.provider, request.model.clone(), request.hash.clone()))
    }

    pub fn insert(&mut self, request: &CountRequest, entry: Entry) {
        self.entries.insert((request.provider, request.model.clone(), request.hash.clone()), entry);
    }

    /// Keeps only the counts of `used`; returns how many were dropped.
    pub fn retain_used<'a>(&mut self, used: impl IntoIterator<Item = &'a CountRequest>) -> usize {
        let keep: std::collections::BTreeSet<(Provider, &str, &str)> =
            used.into_iter().map(|r| (r.provider, r.model.as_str(), r.hash.as_str())).collect();
        let before = self.entries.len();
        self.entries.retain(|(p, m, h), _| keep.contains(&(*p, m.as_str(), h.as_str())));
        before - self.entries.len()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// How this file's counts differ from `base`'s: entries added, entries whose count changed,
    /// entries removed (a date alone changing is not a change).
    pub fn changes_from(&self, base: &Recorded) -> Changes {
        let mut changes = Changes::default();
        for (key, entry) in &self.entries {
            match base.entries.get(key) {
                None => changes.added += 1,
                Some(was) if was.tokens != entry.tokens => changes.changed += 1,
                Some(_) => {}
            }
        }
        changes.removed = base.entries.keys().filter(|key| !self.entries.contains_key(*key)).count();
        changes
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// How a `ctxc.counts` changed between two revisions, in entries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Changes {
    pub added: usize,
    pub changed: usize,
    pub removed: usize,
}

impl Changes {
    pub fn any(&self) -> bool {
        self.added + self.changed + self.removed > 0
    }
}

/// What a review of a change shows of one agent's `ctxc.counts`: how its entries changed, and
/// the finding for counts no tokenizer gives, if any (BUDGET007's message).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FileChange {
    /// The file, relative to the folder reviewed.
    pub file: String,
    /// The agent it records counts for.
    pub agent: String,
    #[serde(flatten)]
    pub changes: Changes,
    pub implausible: Option<String>,
}

fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10 && b[4] == b'-' && b[7] == b'-' && b.iter().enumerate().all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

/// Today's date (UTC) from seconds since the Unix epoch, `YYYY-MM-DD`.
pub fn date_of(unix_seconds: u64) -> String {
    // Days to a civil date (Howard Hinnant's algorithm).
    let z = (unix_seconds / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// What to do after an answer that is not a count: wait and retry, or give up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    After(Duration),
    GiveUp,
}

/// Attempts per request before a failure is final.
pub const MAX_ATTEMPTS: u32 = 5;

/// Whether and when to retry after attempt `attempt` (1-based) failed: 429 after the
/// provider's `retry-after` (seconds) or the backoff; 408, 5xx, timeouts and broken connections
/// (`status` `None`) after an exponential backoff from half a second; any other answer never (a
/// refused key, a bad request or a redirect is answered the same way again).
pub fn retry(status: Option<u16>, retry_after: Option<&str>, attempt: u32) -> Retry {
    if attempt >= MAX_ATTEMPTS {
        return Retry::GiveUp;
    }
    let backoff = Duration::from_millis(500 << (attempt - 1).min(6));
    match status {
        Some(429) => {
            let asked = retry_after.and_then(|s| s.trim().parse::<f64>().ok()).filter(|s| s.is_finite() && *s >= 0.0);
            Retry::After(asked.map_or(backoff, |s| Duration::from_secs_f64(s.min(120.0))))
        }
        None => Retry::After(backoff),
        Some(s) if s == 408 || (500..600).contains(&s) => Retry::After(backoff),
        Some(_) => Retry::GiveUp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool() -> Tool {
        Tool::new(
            "get_weather".into(),
            "Weather of a city.".to_string(),
            json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}),
            None,
        )
    }

    #[test]
    fn request_bodies_have_the_documented_shapes() {
        let t = tool();
        let a = CountRequest::new(Provider::Anthropic, "claude-sonnet-4-5", Some("Be brief."), &[&t]);
        assert_eq!(
            a.body,
            r#"{"model":"claude-sonnet-4-5","system":"Be brief.","messages":[{"role":"user","content":"."}],"tools":[{"name":"get_weather","description":"Weather of a city.","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]}"#
        );
        let g = CountRequest::new(Provider::Gemini, "gemini-2.5-pro", Some("Be brief."), &[&t]);
        assert_eq!(
            g.body,
            r#"{"generateContentRequest":{"model":"models/gemini-2.5-pro","contents":[{"role":"user","parts":[{"text":"."}]}],"systemInstruction":{"parts":[{"text":"Be brief."}]},"tools":[{"functionDeclarations":[{"name":"get_weather","description":"Weather of a city.","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]}]}}"#
        );
        // A tool as its file gives it: no description sent where it has none; a Gemini
        // declaration's `parametersJsonSchema` and `response` sent as written.
        let file =
            r#"{"functionDeclarations": [{"name": "f", "parametersJsonSchema": {"type": "object"}, "response": {"type": "STRING"}}]}"#;
        let f = crate::tools::parse_tool_file(file).expect("a declaration").tools.remove(0);
        let a = CountRequest::new(Provider::Anthropic, "claude-sonnet-4-5", None, &[&f]);
        assert!(a.body.ends_with(r#""tools":[{"name":"f","input_schema":{"type":"object"}}]}"#), "{}", a.body);
        let g = CountRequest::new(Provider::Gemini, "gemini-2.5-pro", None, &[&f]);
        assert!(g.body.contains(r#"[{"name":"f","parametersJsonSchema":{"type":"object"},"response":{"type":"STRING"}}]"#), "{}", g.body);
        let bare = CountRequest::new(Provider::Anthropic, "claude-sonnet-4-5", None, &[]);
        assert_eq!(bare.body, r#"{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"."}]}"#);
        assert_eq!(bare.hash.len(), 64);
        assert_ne!(bare.hash, a.hash);
        assert_eq!(Provider::Gemini.url("http://h/", "gemini-2.5-pro"), "http://h/v1beta/models/gemini-2.5-pro:countTokens");
        assert_eq!(Provider::Anthropic.parse_answer(r#"{"input_tokens": 42}"#), Some(42));
        assert_eq!(Provider::Gemini.parse_answer(r#"{"totalTokens": 7, "promptTokensDetails": []}"#), Some(7));
        assert_eq!(Provider::Gemini.parse_answer(r#"{"error": {}}"#), None);
    }

    #[test]
    fn sections_from_differences_add_up_to_the_prompt() {
        let t = tool();
        let plan = Plan::new(Provider::Anthropic, "claude-sonnet-4-5", &[("", "One."), ("\n\n", "Two.")], &[&t]);
        assert_eq!(plan.requests().count(), 4, "bare, two prefixes, with tools");
        let mut recorded = Recorded::default();
        assert_eq!(plan.counts(&recorded), Err(4));
        for (request, tokens) in plan.requests().zip([8, 12, 17, 480]) {
            recorded.insert(request, Entry { tokens, date: "2026-11-26".into() });
        }
        let counts = plan.counts(&recorded).expect("all recorded");
        assert_eq!(counts.sections, vec![4, 5]);
        assert_eq!(counts.sections.iter().sum::<i64>(), counts.system_prompt);
        assert_eq!(counts.bare + counts.system_prompt + counts.tools_total, counts.total);
        assert_eq!((counts.tools_total, counts.total), (463, 480));
    }

    #[test]
    fn each_tool_and_the_tool_prompt_from_differences_add_up_to_the_tools() {
        let named = |name: &str| Tool::new(name.into(), format!("{name} things."), json!({"type": "object"}), None);
        let (a, b, c) = (named("alpha"), named("beta"), named("gamma"));
        let plan = Plan::new(Provider::Anthropic, "claude-sonnet-4-5", &[("", "One.")], &[&a, &b, &c]);
        // bare, one prefix, with tools; [a], [a, b]; [b], [b, a].
        assert_eq!(plan.requests().count(), 7);
        let tools_of = |r: &CountRequest| -> Vec<String> {
            let body: Value = serde_json::from_str(&r.body).expect("json");
            body["tools"].as_array().map_or(Vec::new(), |t| t.iter().map(|t| t["name"].as_str().expect("name").to_string()).collect())
        };
        let sent: Vec<Vec<String>> = plan.requests().map(tools_of).collect();
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(sent[3..], [names(&["alpha"]), names(&["alpha", "beta"]), names(&["beta"]), names(&["beta", "alpha"])]);
        // A server whose tool-use prompt costs 300, each tool 20 + its position's comma (1 after the first).
        let answers = [8, 20, 20 + 300 + 20 + 21 + 21, 20 + 300 + 20, 20 + 300 + 20 + 21, 20 + 300 + 20, 20 + 300 + 20 + 21];
        let mut recorded = Recorded::default();
        for (request, tokens) in plan.requests().zip(answers) {
            recorded.insert(request, Entry { tokens, date: "2026-11-27".into() });
        }
        let counts = plan.counts(&recorded).expect("all recorded");
        let split = counts.tools.expect("three tools are split");
        assert_eq!(split.each, vec![21, 21, 21]);
        assert_eq!(split.fixed, 299);
        assert_eq!(split.fixed + split.each.iter().sum::<i64>(), counts.tools_total);
        let one = Plan::new(Provider::Anthropic, "claude-sonnet-4-5", &[("", "One.")], &[&a]);
        assert_eq!((one.requests().count(), one.tool_prefixes.len(), one.swapped.len()), (3, 0, 0));
    }

    #[test]
    fn the_file_is_sorted_byte_stable_and_checked() {
        let mut recorded = Recorded::default();
        let b = CountRequest::new(Provider::Gemini, "gemini-2.5-pro", None, &[]);
        let a = CountRequest::new(Provider::Anthropic, "claude-sonnet-4-5", None, &[]);
        recorded.insert(&b, Entry { tokens: 3, date: "2026-11-26".into() });
        recorded.insert(&a, Entry { tokens: 8, date: "2026-11-25".into() });
        let text = recorded.to_text();
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines[0], format!("anthropic\tclaude-sonnet-4-5\t{}\t8\t2026-11-25", a.hash));
        assert!(lines[1].starts_with("gemini\tgemini-2.5-pro\t"));
        assert_eq!(Recorded::parse(&text).expect("parses").to_text(), text, "a round trip keeps the bytes");
        let bad = format!("anthropic\tclaude\t{}\tmany\t2026-11-26\n", a.hash);
        let e = Recorded::parse(&bad).expect_err("not a count");
        assert_eq!((e.line, e.column), (1, 1 + 10 + 7 + 65));
        assert!(Recorded::parse("openai\tgpt\tx\t1\t2026-11-26").is_err());
        assert!(Recorded::parse("anthropic\tm\tabc\t1\t2026-11-26").is_err());
        assert!(Recorded::parse(&format!("anthropic\tm\t{}\t1\t26-11-2026", a.hash)).is_err());
        assert!(Recorded::parse("just one field").is_err());
        let huge = Recorded::parse(&format!("anthropic\tm\t{}\t{}\t2026-11-26", a.hash, u64::MAX)).expect_err("over the maximum");
        assert_eq!((huge.line, huge.column), (1, 1 + 10 + 2 + 65));
        assert!(huge.message.contains("at most 100000000"), "{}", huge.message);
        assert!(Recorded::parse(&format!("anthropic\tm\t{}\t{MAX_TOKENS}\t2026-11-26", a.hash)).is_ok());
        assert_eq!(Provider::Anthropic.parse_answer(&format!(r#"{{"input_tokens": {}}}"#, u64::MAX)), None);
        let mut pruned = Recorded::parse(&text).expect("parses");
        assert_eq!(pruned.retain_used([&a]), 1);
        assert_eq!(pruned.len(), 1);
        // Against the file before: b removed; then a's count changed and c added.
        let before = Recorded::parse(&text).expect("parses");
        assert_eq!(pruned.changes_from(&before), Changes { added: 0, changed: 0, removed: 1 });
        let c = CountRequest::new(Provider::Anthropic, "claude-sonnet-4-5", Some("New."), &[]);
        pruned.insert(&a, Entry { tokens: 9, date: "2026-11-25".into() });
        pruned.insert(&c, Entry { tokens: 11, date: "2026-11-27".into() });
        assert_eq!(pruned.changes_from(&before), Changes { added: 1, changed: 1, removed: 1 });
        assert!(!before.changes_from(&before).any());
    }

    #[test]
    fn retries_follow_the_answer() {
        assert_eq!(retry(Some(429), Some("3"), 1), Retry::After(Duration::from_secs(3)));
        assert_eq!(retry(Some(429), None, 2), Retry::After(Duration::from_millis(1000)));
        assert_eq!(retry(Some(503), None, 3), Retry::After(Duration::from_millis(2000)));
        assert_eq!(retry(None, None, 1), Retry::After(Duration::from_millis(500)));
        assert_eq!(retry(Some(400), None, 1), Retry::GiveUp);
        assert_eq!(retry(Some(401), None, 1), Retry::GiveUp);
        assert_eq!(retry(Some(302), None, 1), Retry::GiveUp);
        assert_eq!(retry(Some(408), None, 1), Retry::After(Duration::from_millis(500)));
        assert_eq!(retry(Some(500), None, MAX_ATTEMPTS), Retry::GiveUp);
        assert_eq!(date_of(0), "1970-01-01");
        assert_eq!(date_of(1_795_651_200), "2026-11-26");
    }

    #[test]
    fn a_count_far_from_its_estimate_is_implausible() {
        // The issue's forged count: a prompt grown to ~11,600 tokens recorded as 1,400.
        assert!(!plausible(1_400, 11_600));
        assert!(plausible(5_768, 11_600) && !plausible(5_767, 11_600), "half, less the slack");
        assert!(plausible(58_032, 11_600) && !plausible(58_033, 11_600), "five times, plus the slack");
        assert!(plausible(8, 0) && plausible(-32, 0) && !plausible(33, 0), "framing ctxc does not estimate");
    }

    #[test]
    fn a_ratio_from_a_prefix_is_held_to_the_band_without_slack() {
        // A 100-token prefix estimated at 120 (Claude's factor) recorded as 28: within the slack,
        // but as a ratio it would scale every estimate to a quarter.
        assert!(plausible(28, 120) && !plausible_as_ratio(28, 120));
        assert!(plausible_as_ratio(60, 120) && !plausible_as_ratio(59, 120), "at most half");
        assert!(plausible_as_ratio(600, 120) && !plausible_as_ratio(601, 120), "at most five times");
    }
}
