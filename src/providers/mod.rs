//! How each provider puts a request's fixed part into the model's context: the tool list in the
//! provider's own format, the text it adds once when tools are callable (the preamble), and the
//! framing around the messages. Each part is counted as the text it contributes; the request is
//! counted as a whole, and the difference (tokens that merge or split at the boundaries) is the
//! `joins` of the tool list and of the request, so the parts add up.

pub mod anthropic;
pub mod chat_template;
pub mod gemini;
pub mod harmony;

use std::sync::Arc;

use serde::Serialize;
use xxhash_rust::xxh3::Xxh3;

use crate::memo::{Cache, Kind};
use crate::models::{ModelProfile, Tokenizer};
use crate::tokens::TokenCounter;
use crate::tools::Tool;

/// The format a model's provider renders tools and messages in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rendering {
    /// OpenAI's harmony format (gpt-oss exactly; OpenAI's API models as an estimate).
    Harmony,
    /// Anthropic's tool definitions and published tool-use system prompt.
    Anthropic,
    /// Any other provider: compact OpenAI function JSON, no framing counted.
    CompactJson,
    /// The model's own chat template (an open model's `tokenizer_config.json` or
    /// `chat_template.jinja`), rendered as transformers' `apply_chat_template` renders it.
    ChatTemplate,
    /// Gemini counted as google-genai's `LocalTokenizer` counts it: the Gemma 3 tokenizer, each
    /// tool as the texts of its declaration (see [`gemini`]).
    GeminiLocal,
}

impl Rendering {
    pub fn of(profile: &ModelProfile) -> Rendering {
        if is_gpt_oss(profile) || (profile.provider == "openai" && profile.tokenizer == Tokenizer::O200kBase) {
            Rendering::Harmony
        } else if profile.provider == "anthropic" {
            Rendering::Anthropic
        } else if profile.counts_as_genai_local_tokenizer() {
            Rendering::GeminiLocal
        } else {
            Rendering::CompactJson
        }
    }

    /// Whether the counts are what the model receives, token for token: only gpt-oss, whose
    /// format and tokenizer are both published.
    pub fn is_exact(self, profile: &ModelProfile) -> bool {
        match self {
            Rendering::Harmony => is_gpt_oss(profile) && profile.tokenizer.is_exact(),
            // The request's text is the model's own; its count is as exact as the tokenizer.
            Rendering::ChatTemplate => profile.tokenizer.is_exact(),
            // LocalTokenizer's count exactly, which is not the count Gemini's servers make.
            Rendering::Anthropic | Rendering::CompactJson | Rendering::GeminiLocal => false,
        }
    }

    /// How the tool list is costed, as shown next to the numbers.
    pub fn method(self, exact: bool) -> &'static str {
        match (self, exact) {
            (Rendering::Harmony, true) => "exact: harmony rendering (openai-harmony 0.0.8), o200k_base: each tool as its `// description` lines and `type name = (_: {…}) => any;` in the developer message's `namespace functions { … }`",
            (Rendering::Harmony, false) => "estimate: the harmony rendering gpt-oss receives (openai-harmony 0.0.8), o200k_base: OpenAI does not publish how its API renders tools",
            (Rendering::Anthropic, _) => "estimate: each tool as compact {\"name\",\"description\",\"input_schema\"} JSON in the file's key order, counted with o200k_base and calibrated to the model's tokenizer generation (Anthropic's tokenizer is not public), plus Anthropic's published tool-use system prompt (tool_choice auto)",
            (Rendering::ChatTemplate, true) => "exact: the model's chat template rendered as transformers' apply_chat_template renders it, each tool where the template places it (its cost: what a second copy adds to a list)",
            (Rendering::ChatTemplate, false) => "estimate: the model's chat template rendered as transformers' apply_chat_template renders it, each tool where the template places it (its cost: what a second copy adds to a list), counted with a tokenizer that is not the model's, or whose encoder reads the template's special tokens as text",
            (Rendering::GeminiLocal, _) => "google-genai LocalTokenizer's method (google-genai 3.6.1), not Gemini's server count: each tool as the texts of its function declaration (name, description, property names and descriptions, formats, enum values, required names, example strings), each counted alone with the Gemma 3 tokenizer and added",
            (Rendering::CompactJson, _) => "estimate: each tool as compact OpenAI function JSON ({\"type\":\"function\",\"function\":{name, description, parameters}}) in the file's key order, the array's brackets and commas as framing, counted as the prompt is; the provider's rendering is not published",
        }
    }

    /// How the messages of the request are framed, as shown next to the framing count.
    pub fn framing_method(self, exact: bool) -> &'static str {
        match (self, exact) {
            (Rendering::Harmony, true) => "exact: harmony's system message (its defaults), the developer message's `# Instructions` heading, role names, <|start|> <|message|> <|end|> and the <|start|>assistant generation prompt",
            (Rendering::Harmony, false) => "estimate: harmony's framing as gpt-oss receives it (system message defaults, `# Instructions`, role names, special tokens)",
            (Rendering::ChatTemplate, true) => "exact: the model's chat template around the system prompt, an empty user message and the generation prompt (special tokens and roles)",
            (Rendering::ChatTemplate, false) => "estimate: the model's chat template around the system prompt, an empty user message and the generation prompt, counted with a tokenizer that is not the model's, or whose encoder reads the template's special tokens as text",
            (Rendering::Anthropic | Rendering::CompactJson, _) => "not counted: the provider does not publish how it frames messages",
            (Rendering::GeminiLocal, _) => "not counted: google-genai's LocalTokenizer counts texts only, no framing",
        }
    }

    /// What the tool list's framing line holds.
    pub fn tool_framing_note(self) -> &'static str {
        match self {
            Rendering::Harmony => "`# Tools`, `namespace functions {…}`, breaks between tools",
            Rendering::ChatTemplate => "the chat template's text around the tool list",
            Rendering::Anthropic | Rendering::CompactJson => "the array's brackets and commas",
            Rendering::GeminiLocal => "none: LocalTokenizer adds the declarations' texts, nothing around them",
        }
    }

    /// What the message framing line holds.
    pub fn framing_note(self) -> &'static str {
        match self {
            Rendering::Harmony => "roles, special tokens, default system text",
            Rendering::ChatTemplate => "the chat template's roles, special tokens and fixed text, an empty user turn",
            Rendering::Anthropic | Rendering::CompactJson => "not published, not counted",
            Rendering::GeminiLocal => "none in LocalTokenizer's count",
        }
    }

    /// What the preamble line holds.
    pub fn preamble_note(self) -> &'static str {
        match self {
            Rendering::Harmony => "the system message's commentary-channel line",
            Rendering::Anthropic => "Anthropic's tool-use system prompt, tool_choice auto (published figure)",
            Rendering::CompactJson | Rendering::ChatTemplate | Rendering::GeminiLocal => "none known for this provider",
        }
    }

    /// Framing tokens each message of the conversation history adds, when the format is known.
    pub fn per_message(self) -> Option<usize> {
        (self == Rendering::Harmony).then_some(harmony::PER_MESSAGE)
    }
}

fn is_gpt_oss(profile: &ModelProfile) -> bool {
    profile.model.rsplit('/').next().is_some_and(|name| name.starts_with("gpt-oss"))
}

/// A request's fixed part counted in parts (tokens).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestTokens {
    /// Each tool counted alone, as rendered.
    pub tools: Vec<i64>,
    /// The text around the tool definitions: harmony's `# Tools … namespace functions {` and `}`,
    /// the line breaks between tools; a JSON array's brackets and commas.
    pub tool_framing: i64,
    /// Text added once when any tool is callable: harmony's commentary-channel line; Anthropic's
    /// tool-use system prompt (the published figure).
    pub preamble: i64,
    /// What the tools add to the request: with tools minus without.
    pub tools_total: i64,
    /// The messages' framing, counted alone.
    pub framing: i64,
    /// The request without tools.
    pub without_tools: i64,
}

/// Counts the fixed part of a request for `profile`: the prompt (in parts with their counts,
/// `None` for a bare tool list) and the callable tools; each tool list is rendered and counted
/// once per `cache`.
pub fn count_request(
    profile: &ModelProfile,
    prompt: Option<&[(&str, usize)]>,
    tools: &[&Tool],
    counter: &TokenCounter,
    cache: &Cache,
) -> RequestTokens {
    let rendering = Rendering::of(profile);
    let tokenizer = profile.tokenizer;
    let count = |text: &str| counter.count(tokenizer, text);
    let (costed, list) = tool_texts(rendering, tools, counter, tokenizer, cache);
    let tools_count: Vec<i64> = costed.iter().map(|tool| tool.1 as i64).collect();
    let n = tools.len();
    let concat = |parts: &[(&str, usize)]| counter.count_concat(tokenizer, parts) as i64;
    let prompt_parts = prompt.unwrap_or_default();
    match rendering {
        Rendering::Harmony => {
            use harmony::*;
            let fixed = (SPECIAL_TOKENS + ROLES.iter().map(|r| count(r)).sum::<usize>()) as i64;
            let mut developer: Vec<(&str, usize)> = Vec::new();
            if prompt.is_some() {
                developer.push((INSTRUCTIONS, count(INSTRUCTIONS)));
                developer.extend_from_slice(prompt_parts);
            }
            let framing = fixed + count(SYSTEM) as i64 + if prompt.is_some() { count(INSTRUCTIONS) as i64 } else { 0 };
            let without_tools = fixed + count(SYSTEM) as i64 + concat(&developer);
            if n == 0 {
                return RequestTokens { tools: tools_count, tool_framing: 0, preamble: 0, tools_total: 0, framing, without_tools };
            }
            let break_before = if prompt.is_some() { count(SECTION_BREAK) } else { 0 };
            if prompt.is_some() {
                developer.push((SECTION_BREAK, count(SECTION_BREAK)));
            }
            let opened = developer.len();
            push_tools(&mut developer, &costed, [TOOLS_OPEN, TOOL_BREAK, TOOLS_CLOSE], &count);
            // The tools follow the prompt in one message: what the list alone decides (all but
            // the join with the prompt) is counted once per list, as the JSON array is below.
            let listed = |work: &dyn Fn() -> i64| cache.get_or_insert(Kind::ToolArrayJoined, list, work);
            let developer_tokens = counter.count_concat_from(tokenizer, &developer, opened, listed) as i64;
            let with_tools = fixed + count(&format!("{SYSTEM}{FUNCTIONS_CHANNEL}")) as i64 + developer_tokens;
            let tool_framing = (break_before + count(TOOLS_OPEN) + (n - 1) * count(TOOL_BREAK) + count(TOOLS_CLOSE)) as i64;
            RequestTokens {
                tools: tools_count,
                tool_framing,
                preamble: count(FUNCTIONS_CHANNEL) as i64,
                tools_total: with_tools - without_tools,
                framing,
                without_tools,
            }
        }
        Rendering::GeminiLocal => {
            let tools_total = tools_count.iter().sum();
            RequestTokens { tools: tools_count, tool_framing: 0, preamble: 0, tools_total, framing: 0, without_tools: concat(prompt_parts) }
        }
        Rendering::Anthropic | Rendering::CompactJson | Rendering::ChatTemplate => {
            let without_tools = concat(prompt_parts);
            let preamble = profile.tool_preamble.filter(|_| n > 0).map_or(0, |p| p.auto as i64);
            let (tool_framing, array) = if n == 0 {
                (0, 0)
            } else {
                // The array does not depend on the prompt: counted once per list (the agents and
                // modes sending it, and the edits of a prompt, find it counted).
                let joined = cache.get_or_insert(Kind::ToolArrayJoined, list, || {
                    let mut array = Vec::with_capacity(2 * n + 1);
                    push_tools(&mut array, &costed, ["[", ",", "]"], &count);
                    concat(&array)
                });
                ((count("[") + count("]") + (n - 1) * count(",")) as i64, joined)
            };
            RequestTokens { tools: tools_count, tool_framing, preamble, tools_total: array + preamble, framing: 0, without_tools }
        }
    }
}

/// The tool definitions with their counts, after `open`, `between` two of them, then `close`.
fn push_tools<'a>(
    parts: &mut Vec<(&'a str, usize)>,
    tools: &'a [ToolText],
    [open, between, close]: [&'a str; 3],
    count: &dyn Fn(&str) -> usize,
) {
    parts.push((open, count(open)));
    let between = (between, count(between));
    for (i, tool) in tools.iter().enumerate() {
        if i > 0 {
            parts.push(between);
        }
        parts.push((tool.0.as_str(), tool.1));
    }
    parts.push((close, count(close)));
}

/// A tool's text in a rendering, and its count.
type ToolText = Arc<(String, usize)>;

/// Each tool's text in `rendering` with its count. The agents and modes of a project mostly
/// send the same tool lists: each list is rendered and counted once per run, and each tool once
/// per rendering (a list that differs in one tool, as after an edit of one tool file, renders
/// only that one again). With the list's key, for what is memoized of the list as a whole.
fn tool_texts(
    rendering: Rendering,
    tools: &[&Tool],
    counter: &TokenCounter,
    tokenizer: Tokenizer,
    cache: &Cache,
) -> (Arc<Vec<ToolText>>, u128) {
    let keyed = |tools: &[&Tool]| {
        let mut key = Xxh3::new();
        key.update(tokenizer.name().as_bytes());
        key.update(&[0, rendering as u8]);
        for tool in tools {
            key.update(&tool.function_json_hash().to_le_bytes());
        }
        key.digest128()
    };
    let key = keyed(tools);
    if let Some((hit, first)) = cache.get_first::<Arc<Vec<ToolText>>>(Kind::ToolArrayCost, key) {
        // Found whole: its tools' texts are this generation's too, so that a sweep keeps them
        // for the next list that differs in one tool (marked at the list's first use in the
        // generation: the agents and modes sending it again find them marked).
        if first && cache.tracks_uses() {
            for tool in tools {
                cache.touch(Kind::ToolText, keyed(std::slice::from_ref(tool)));
            }
        }
        return (hit, key);
    }
    let texts = cache.get_or_insert(Kind::ToolArrayCost, key, || {
        // Each tool rendered and counted on all cores: a list of many tools (an MCP server's
        // thousands) is otherwise one thread's work.
        Arc::new(crate::parallel::map_in_order(tools, |t| {
            cache.get_or_insert(Kind::ToolText, keyed(std::slice::from_ref(t)), || {
                let text = match rendering {
                    // Each text of a declaration counted alone; shown one to a line.
                    Rendering::GeminiLocal => {
                        let texts = gemini::declaration_texts(t);
                        return Arc::new((texts.join("\n"), texts.iter().map(|text| counter.count(tokenizer, text)).sum()));
                    }
                    Rendering::Harmony => harmony::tool_text(t),
                    Rendering::Anthropic => anthropic::tool_text(t),
                    Rendering::CompactJson | Rendering::ChatTemplate => t.function_json().to_string(),
                };
                let tokens = counter.count(tokenizer, &text);
                Arc::new((text, tokens))
            })
        }))
    });
    (texts, key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::profile;

    #[test]
    fn each_model_gets_its_providers_rendering() {
        assert_eq!(Rendering::of(&profile("openai/gpt-oss-20b")), Rendering::Harmony);
        assert!(Rendering::Harmony.is_exact(&profile("openai/gpt-oss-120b")));
        assert!(!Rendering::Harmony.is_exact(&profile("gpt-4o")));
        assert_eq!(Rendering::of(&profile("gpt-4o")), Rendering::Harmony);
        assert_eq!(Rendering::of(&profile("claude-sonnet-4-5")), Rendering::Anthropic);
        assert_eq!(Rendering::of(&profile("gpt-4")), Rendering::CompactJson);
        assert_eq!(Rendering::of(&profile("gemini-2.5-pro")), Rendering::CompactJson);
    }

    #[test]
    fn the_reference_request_is_151_tokens_and_its_parts_add_up() {
        let tool = Tool::new(
            "get_weather".into(),
            "Gets the current weather in the provided location.".to_string(),
            serde_json::json!({"type": "object", "properties": {"location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"}, "format": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"}}, "required": ["location"]}),
            None,
        );
        let counter = TokenCounter::new();
        let prompt = "You are a helpful agent.";
        let p = profile("openai/gpt-oss-20b");
        let r = count_request(&p, Some(&[(prompt, counter.count(p.tokenizer, prompt))]), &[&tool], &counter, &Cache::default());
        // 151 tokens with the user message "hi" (4 framing tokens and 1 of text), per the reference rendering.
        assert_eq!(r.without_tools + r.tools_total + harmony::PER_MESSAGE as i64 + 1, 151);
        // The tool adds 81: 55 for its text, 15 of namespace framing, 15 of channel line, and -4
        // where the namespace's line breaks merge with the tool's.
        assert_eq!((r.tools[0], r.tool_framing, r.preamble, r.tools_total), (55, 15, 15, 81), "{r:?}");
        let claude = count_request(&profile("claude-sonnet-4-5"), None, &[&tool], &counter, &Cache::default());
        assert_eq!(claude.preamble, 346);
        let array = format!("[{}]", anthropic::tool_text(&tool));
        assert_eq!(claude.tools_total - claude.preamble, counter.count(Tokenizer::O200kBase, &array) as i64);
        assert_eq!(
            count_request(&profile("claude-sonnet-4-5"), None, &[], &counter, &Cache::default()).tools_total,
            0,
            "no preamble without tools"
        );
    }

    /// Tools `a`, `b`, `c`, and `b` with another description.
    fn four_tools() -> (Tool, Tool, Tool, Tool) {
        let tool = |name: &str, description: &str| {
            let parameters = serde_json::json!({"type": "object", "properties": {"q": {"type": "string"}}});
            Tool::new(name.into(), description.to_string(), parameters, None)
        };
        (tool("a", "Finds."), tool("b", "Reads."), tool("c", "Writes."), tool("b", "Reads, edited."))
    }

    /// The bytes of one tool's text as `profile`'s rendering writes it.
    fn text_bytes(profile: &ModelProfile, tool: &Tool) -> u64 {
        tool_texts(Rendering::of(profile), &[tool], &TokenCounter::new(), profile.tokenizer, &Cache::default()).0[0].0.len() as u64
    }

    /// Counted in bytes asked of the counter, not in time: a list that differs from one costed
    /// before in one tool renders and counts only that tool (each request still counts its joins).
    #[test]
    fn a_list_that_differs_in_one_tool_renders_only_that_one() {
        let (a, b, c, b2) = four_tools();
        let (counter, cache) = (TokenCounter::new(), Cache::default());
        for p in [profile("gpt-4o"), profile("claude-sonnet-4-5"), profile("gpt-4")] {
            let asked = |tools: &[&Tool]| {
                let before = counter.bytes_asked();
                let tokens = count_request(&p, None, tools, &counter, &cache);
                (tokens, counter.bytes_asked() - before)
            };
            let text = |tool: &Tool| text_bytes(&p, tool);
            asked(&[&a, &b, &c]);
            // Asked again: the framing and the joins only.
            let (_, again) = asked(&[&a, &b, &c]);
            let (tokens, edited) = asked(&[&a, &b2, &c]);
            assert!(edited - again < text(&b2) + text(&a).min(text(&c)), "{}: {edited} bytes against {again} unchanged", p.model);
            assert_eq!(tokens, count_request(&p, None, &[&a, &b2, &c], &TokenCounter::new(), &Cache::default()), "{}", p.model);
        }
    }

    /// In the editor, a sweep drops what the live generations did not use: a list found whole
    /// uses its tools' texts too, so the next edit of one tool renders only that tool again.
    #[test]
    fn a_list_found_whole_keeps_its_tools_through_a_sweep() {
        let (a, b, c, b2) = four_tools();
        let p = profile("claude-sonnet-4-5");
        let (counter, cache) = (TokenCounter::new(), Cache::default());
        let asked = |generation: u32, tools: &[&Tool]| {
            cache.begin(generation);
            counter.begin(generation);
            let before = counter.bytes_asked();
            count_request(&p, None, tools, &counter, &cache);
            counter.bytes_asked() - before
        };
        let text = |tool: &Tool| text_bytes(&p, tool);
        asked(1, &[&a, &b, &c]);
        let again = asked(2, &[&a, &b, &c]);
        // Generation 1 ended: only what generation 2 used is kept.
        cache.keep(|g| g == 2);
        counter.keep(|g| g == 2);
        let edited = asked(3, &[&a, &b2, &c]);
        assert!(edited - again < text(&b2) + text(&a).min(text(&c)), "{edited} bytes against {again} unchanged");
    }

    /// Counted in bytes asked of the counter, not in time: a tool list is counted once per list,
    /// so a request sending it again after another prompt (another agent, mode or edit) asks the
    /// counter as much for forty tools as for four: the prompt, its join with the list, and the
    /// framing, none of the tools' joins. The counts are those of a fresh run.
    #[test]
    fn a_tool_list_sent_again_after_another_prompt_is_not_counted_again() {
        let tool = |i: usize| {
            let parameters = serde_json::json!({"type": "object", "properties": {"q": {"type": "string", "description": "What to find."}}});
            Tool::new(format!("tool_{i}"), format!("Finds things of kind {i} in the index."), parameters, None)
        };
        let tools: Vec<Tool> = (0..40).map(tool).collect();
        let (many, few): (Vec<&Tool>, Vec<&Tool>) = (tools.iter().collect(), tools.iter().take(4).collect());
        let (counter, cache) = (TokenCounter::new(), Cache::default());
        for p in [profile("gpt-4o"), profile("claude-sonnet-4-5"), profile("gpt-4")] {
            let asked = |prompt: &str, tools: &[&Tool]| {
                let parts = [(prompt, counter.count(p.tokenizer, prompt))];
                let before = counter.bytes_asked();
                let tokens = count_request(&p, Some(&parts), tools, &counter, &cache);
                let fresh = count_request(&p, Some(&parts), tools, &TokenCounter::new(), &Cache::default());
                assert_eq!(tokens, fresh, "{}: {prompt}", p.model);
                (tokens, counter.bytes_asked() - before)
            };
            asked("You help.", &many);
            asked("You help.", &few);
            let (_, with_many) = asked("You help, edited.", &many);
            let (_, with_few) = asked("You help, edited.", &few);
            assert_eq!(with_many, with_few, "{}", p.model);
        }
    }
}
