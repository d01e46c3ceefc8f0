//! Stage 5: measure a rendered prompt with the model's tokenizer. Each section is counted as
//! exactly the text it contributes; the whole prompt is counted as a whole, and the difference
//! (separators, and tokens that merge across section boundaries) is reported as `joins`, so the
//! parts add up to the total. Tool schemas are costed per tool, per category and per MCP server,
//! rendered as the model's provider renders them (src/providers/): each tool alone, the framing
//! around them, the provider's tool-use preamble, and the boundary `joins`; and the request's
//! fixed part (message framing, prompt and tools) as a whole.

use serde::Serialize;

use crate::counts::{Plan, PlanCounts, Provider, Recorded};
use crate::manifest::model::{Agent, CategoryTool, Reserve, StepKind};
use crate::memo::Cache;
use crate::models::{Calibration, ModelProfile, Tokenizer};
use crate::providers::{count_request, Rendering, RequestTokens};
use crate::render::Rendered;
use crate::resolve::ToolDecision;
use crate::tokens::TokenCounter;
use crate::tools::Tool;

/// How the worst case of bounded retrieved memories is costed.
pub const MEMORIES_WORST_CASE_METHOD: &str =
    "section frame and top-K item prefixes counted exactly, plus max_chars characters at one token each (the bound for ASCII text)";

/// A token count with the tokenizer that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Count {
    pub tokens: i64,
    pub tokenizer: &'static str,
    pub exact: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SectionCost {
    pub step: usize,
    pub id: String,
    pub title: String,
    pub kind: StepKind,
    pub sources: Vec<String>,
    pub tokens: Count,
    /// For bounded dynamic sections: the most this section can take.
    pub worst_case: Option<Count>,
    pub budget: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCost {
    pub name: String,
    pub category: String,
    pub server: Option<String>,
    pub tokens: Count,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupCost {
    pub name: String,
    pub tools: usize,
    pub tokens: Count,
}

/// The callable tools as the provider renders them. The parts add up:
/// `tools + framing + preamble + joins = total`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCosts {
    pub rendering: Rendering,
    /// Exactly what was counted, and whether it is exact or an estimate.
    pub method: String,
    pub exact: bool,
    pub tools: Vec<ToolCost>,
    pub categories: Vec<GroupCost>,
    pub servers: Vec<GroupCost>,
    /// The text around the definitions, counted alone: harmony's `# Tools … namespace
    /// functions {`, `}` and the line breaks between tools; a JSON array's brackets and commas.
    pub framing: Count,
    /// Added once when any tool is callable: harmony's commentary-channel line in the system
    /// message; Anthropic's tool-use system prompt (its published figure).
    pub preamble: Count,
    /// Boundary correction: what the tools add to the request, minus the parts above.
    pub joins: Count,
    /// What the tools add to the request: the request with them minus the request without.
    pub total: Count,
}

/// The fixed part of every request: message framing, system prompt and tools. The parts add
/// up: `framing + system prompt + joins + tool schemas = total`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RequestCost {
    pub rendering: Rendering,
    /// What the framing count holds, and whether it is exact or an estimate.
    pub method: String,
    pub exact: bool,
    /// The messages' framing counted alone (0 when the provider does not publish it).
    pub framing: Count,
    /// Boundary correction: the request without tools minus its framing and the system prompt.
    pub joins: Count,
    pub total: Count,
    /// Framing tokens each further message of the conversation history adds; `None` when the
    /// provider does not publish its format. Not in `total`: history is what the window leaves room for.
    pub per_message: Option<u64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Window {
    pub max_input_tokens: u64,
    /// Where the window comes from: the model's max input tokens, or the runtime's own size of
    /// the context (AgentScope's `context_size`).
    pub max_input_source: String,
    pub response_reserve: u64,
    /// Where the reserve comes from.
    pub response_reserve_source: String,
    /// The request's fixed part: message framing, system prompt and tool schemas.
    pub fixed: i64,
    /// Extra tokens the bounded dynamic sections can take beyond what this scenario renders.
    pub dynamic_headroom: i64,
    /// Dynamic sections with no bound (costed as rendered in this scenario).
    pub unbounded: Vec<String>,
    /// What is left for conversation history: window − reserve − fixed − dynamic headroom.
    pub history_room: i64,
    pub summarization_ratio: Option<f64>,
    /// The context size at which summarization fires.
    pub summarization_at: Option<u64>,
    /// Deep Agents' offloading and summarization (preset `deepagents`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deepagents: Option<crate::runtimes::deepagents::window::Window>,
    /// Zeph's window layout, compaction, pruning and truncation (preset `zeph`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zeph: Option<crate::runtimes::zeph::window::Window>,
    /// AgentScope's compression, reserve and tool-result limit (preset `agentscope`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agentscope: Option<crate::runtimes::agentscope::window::Window>,
}

/// Token accounting of one rendered mode and scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Measured {
    pub agent: String,
    pub mode: String,
    pub scenario: String,
    pub model: ModelProfile,
    /// The runtime release (or document) the agent's preset models.
    pub modelled: Option<String>,
    pub tokenizer: &'static str,
    pub method: String,
    pub exact: bool,
    /// Whether the counts come from `ctxc.counts` (only for models whose provider has a counting
    /// endpoint, when the project has the file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded: Option<Recording>,
    pub sections: Vec<SectionCost>,
    /// Whole prompt minus the sum of sections: separators and boundary merges.
    pub joins: Count,
    pub system_prompt: Count,
    pub tool_schemas: ToolCosts,
    pub request: RequestCost,
    pub window: Window,
}

impl Measured {
    /// Of the modes and scenarios measured, the one with the largest fixed context (system
    /// prompt, tool schemas, message framing): what the runtimes' settings checks hold against
    /// their compaction triggers.
    pub fn largest_fixed(all: &[Measured]) -> Option<&Measured> {
        all.iter().max_by_key(|m| m.window.fixed)
    }

    /// Where it was measured, as findings name it.
    pub fn place(&self) -> String {
        format!("{} mode, scenario `{}`", self.mode, self.scenario)
    }
}

/// How a mode × scenario stands against the project's recorded counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Recording {
    /// Every request was recorded: the counts are the endpoint's.
    Exact { endpoint: &'static str, date: String, requests: usize },
    /// Some requests are not recorded (a text changed since): the counts are estimates.
    Missing { endpoint: &'static str, missing: usize, requests: usize },
    /// Every request was recorded, but some figure they give is one no tokenizer counts for its
    /// text ([`crate::counts::plausible`]): none is used, the counts are estimates.
    Implausible { endpoint: &'static str, requests: usize, figures: Vec<Implausible> },
}

/// A figure whose recorded count is outside the plausible band of its estimate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Implausible {
    /// What the figure is: `system prompt`, `section `role``, `tool `search``, `request total`, …
    pub part: String,
    pub recorded: i64,
    pub estimate: i64,
}

struct Counting<'a> {
    counter: &'a TokenCounter,
    tokenizer: Tokenizer,
    /// For a model without a public tokenizer: how its o200k_base counts are scaled.
    calibration: Option<Calibration>,
}

impl Counting<'_> {
    /// The text counted, in the model's tokens.
    fn count(&self, text: &str) -> Count {
        self.wrap(self.scale(self.counter.count(self.tokenizer, text) as i64))
    }

    /// A tokenizer's count in the model's tokens: itself when exact, calibrated when estimated.
    fn scale(&self, counted: i64) -> i64 {
        self.calibration.map_or(counted, |c| c.scale(counted))
    }

    /// A figure already in the model's tokens (a scaled count, or a difference of them).
    fn wrap(&self, tokens: i64) -> Count {
        Count { tokens, tokenizer: self.tokenizer.name(), exact: self.tokenizer.is_exact() }
    }
}

/// Every counted figure of a request in the model's tokens. Each part is scaled by the model's
/// calibration, and so is each boundary correction (a whole minus its parts), never a whole: the
/// parts still add up, and joins that are 0 stay 0. The provider's published preamble is in the
/// model's tokens already. `prompt` is the system prompt's count by the tokenizer and as scaled
/// (both 0 for a bare tool list).
fn calibrated(counted: RequestTokens, prompt: (i64, i64), c: &Counting) -> RequestTokens {
    if c.calibration.is_none() {
        return counted;
    }
    let (prompt_counted, prompt_scaled) = prompt;
    let tools: Vec<i64> = counted.tools.iter().map(|n| c.scale(*n)).collect();
    let tool_framing = c.scale(counted.tool_framing);
    let tool_joins = counted.tools_total - counted.tools.iter().sum::<i64>() - counted.tool_framing - counted.preamble;
    let framing = c.scale(counted.framing);
    let request_joins = counted.without_tools - counted.framing - prompt_counted;
    RequestTokens {
        tools_total: tools.iter().sum::<i64>() + tool_framing + counted.preamble + c.scale(tool_joins),
        tools,
        tool_framing,
        preamble: counted.preamble,
        framing,
        without_tools: framing + prompt_scaled + c.scale(request_joins),
    }
}

mod tool_files;
pub use tool_files::{cost_tool_files, CostedFile, Duplicate, ToolFiles, ToolFilesCost};

pub fn measure(agent: &Agent, rendered: &Rendered, counter: &TokenCounter) -> Measured {
    measure_with(agent, rendered, counter, None, &Cache::default())
}

/// [`measure`], with the counts `recorded` in the project's `ctxc.counts` used where they cover
/// the whole request (the model's provider has a counting endpoint), and what is counted once per
/// run memoized in `cache`.
pub fn measure_with(agent: &Agent, rendered: &Rendered, counter: &TokenCounter, recorded: Option<&Recorded>, cache: &Cache) -> Measured {
    let calibration = agent.profile.estimate_calibration();
    let mut m = estimate(agent, rendered, counter, calibration, cache);
    if let (Some(recorded), Some(provider)) = (recorded, Provider::of(&m.model)) {
        let callable = callable_tools(agent, rendered);
        let tools: Vec<&Tool> = callable.iter().map(|(t, _)| t.tool.as_ref()).collect();
        let plan = count_plan(provider, &m.model.model, rendered, &tools);
        let requests = plan.requests().count();
        match plan.counts(recorded) {
            Ok(counts) => match implausible(&m, &counts) {
                figures if figures.is_empty() => use_recorded(&mut m, provider, &counts, requests),
                figures => {
                    let first = &figures[0];
                    m.method = format!(
                        "{} (the recorded counts are not used: {} recorded as {} tokens against ~{} estimated, a count no tokenizer gives)",
                        m.method, first.part, first.recorded, first.estimate
                    );
                    m.recorded = Some(Recording::Implausible { endpoint: provider.endpoint(), requests, figures });
                }
            },
            Err(missing) => {
                let not_recorded = format!("not recorded: {missing} of {requests} requests; `ctxc counts sync` records them");
                m.method = format!("{} ({not_recorded})", m.method);
                if let Some((own, sections)) = recorded_ratio(&plan, recorded, rendered, counter, &agent.profile) {
                    let band = calibration.map_or(OWN_RATIO_BAND, |c| c.band_percent);
                    let own = Calibration { factor_per_mille: own, band_percent: band, ..OWN_RATIO };
                    m = estimate(agent, rendered, counter, Some(own), cache);
                    m.model.calibration = Some(own);
                    m.method = format!(
                        "estimate: o200k_base count × {:.2}, the ratio recorded for this render's first {sections} section(s), ±{band} % ({not_recorded})",
                        f64::from(own.factor_per_mille) / 1000.0
                    );
                }
                keep_recorded_sections(&mut m, &plan, recorded, provider);
                m.recorded = Some(Recording::Missing { endpoint: provider.endpoint(), missing, requests });
            }
        }
    }
    let zeph = agent.systems.zeph.as_ref().map(|_| crate::runtimes::zeph::measure::inputs(agent, rendered, counter));
    m.window = window(agent, &m.model, &m.sections, &m.request, zeph);
    m
}

/// In a render not wholly recorded, the leading sections whose requests still are (the prompt
/// changed after them) keep their recorded counts, each plausible for its text; the joins take
/// the difference, so that the parts still add up to the estimated system prompt.
fn keep_recorded_sections(m: &mut Measured, plan: &Plan, recorded: &Recorded, provider: Provider) {
    let Some(mut before) = recorded.get(&plan.bare).map(|e| e.tokens as i64) else { return };
    let mut kept = 0;
    for (section, request) in m.sections.iter_mut().zip(&plan.prefixes) {
        let Some(tokens) = recorded.get(request).map(|e| e.tokens as i64 - before) else { break };
        if !crate::counts::plausible(tokens, section.tokens.tokens) {
            break;
        }
        m.joins.tokens += section.tokens.tokens - tokens;
        section.tokens = Count { tokens, tokenizer: provider.endpoint(), exact: true };
        before += tokens;
        kept += 1;
    }
    if kept > 0 {
        m.method = format!("{}; the first {kept} section(s), unchanged since, as recorded", m.method);
    }
}

/// The figures of a wholly recorded render whose counts no tokenizer gives for their text: each
/// part a report shows (framing, sections, system prompt, tools, request) against `m`, its
/// calibrated estimate. A forged count is one of these; so is any figure a forged count shifts,
/// since each part is a difference of two recorded requests.
fn implausible(m: &Measured, counts: &PlanCounts) -> Vec<Implausible> {
    let t = &m.tool_schemas;
    // The wholes first: the first figure is the one a finding names.
    let mut figures = vec![
        ("request total".to_string(), counts.total, m.request.total.tokens),
        ("system prompt".to_string(), counts.system_prompt, m.system_prompt.tokens),
        ("tool schemas".to_string(), counts.tools_total, t.total.tokens),
        ("message framing".to_string(), counts.bare, m.request.framing.tokens),
    ];
    figures.extend(m.sections.iter().zip(&counts.sections).map(|(s, n)| (format!("section `{}`", s.id), *n, s.tokens.tokens)));
    if let Some(split) = &counts.tools {
        figures.extend(t.tools.iter().zip(&split.each).map(|(tool, n)| (format!("tool `{}`", tool.name), *n, tool.tokens.tokens)));
        let each: i64 = t.tools.iter().map(|tool| tool.tokens.tokens).sum();
        figures.push(("tool-use prompt and framing".to_string(), split.fixed, t.total.tokens - each));
    }
    figures
        .into_iter()
        .filter(|(_, recorded, estimate)| !crate::counts::plausible(*recorded, *estimate))
        .map(|(part, recorded, estimate)| Implausible { part, recorded, estimate })
        .collect()
}

/// The band of an estimate at a project's own recorded ratio, for a family without a measured one.
const OWN_RATIO_BAND: u32 = 10;

/// A calibration from a project's own recorded ratio (its factor and band set where it is made).
const OWN_RATIO: Calibration = Calibration {
    generation: "recorded",
    factor_per_mille: 1000,
    band_percent: OWN_RATIO_BAND,
    method: "estimate: o200k_base count × the ratio recorded for this render",
};

/// The fewest o200k_base tokens a recorded prefix must hold for its ratio to stand for the rest.
const LEAST_TOKENS_FOR_A_RATIO: i64 = 100;

/// This project's own ratio for a render not wholly recorded: the longest prefix of its system
/// prompt whose request is recorded (with the bare request), its recorded tokens over its
/// o200k_base count, in thousandths; and how many sections that prefix holds. None when the
/// prefix's count is not plausible for its text ([`crate::counts::plausible`]).
fn recorded_ratio(
    plan: &Plan,
    recorded: &Recorded,
    rendered: &Rendered,
    counter: &TokenCounter,
    profile: &ModelProfile,
) -> Option<(u32, usize)> {
    let bare = recorded.get(&plan.bare)?.tokens as i64;
    let (k, prefix) = plan.prefixes.iter().enumerate().rev().find_map(|(i, r)| recorded.get(r).map(|e| (i + 1, e.tokens as i64)))?;
    let c = Counting { counter, tokenizer: profile.tokenizer, calibration: None };
    let counted: Vec<usize> = rendered.sections[..k].iter().map(|s| counter.count_hashed(c.tokenizer, &s.text, s.text.hash())).collect();
    let parts = prompt_parts(rendered, &counted, &c);
    let o200k = counter.count_concat(profile.tokenizer, &parts) as i64;
    // A ratio from counts no tokenizer gives would scale the whole render: the published one stays.
    let estimate = profile.estimate_calibration().map_or(o200k, |c| c.scale(o200k));
    let plausible = crate::counts::plausible_as_ratio(prefix - bare, estimate);
    (o200k >= LEAST_TOKENS_FOR_A_RATIO && prefix > bare && plausible)
        .then(|| (((prefix - bare) * 1000 + o200k / 2) / o200k) as u32)
        .map(|r| (r, k))
}

/// A text's tokens for a model: counted with its tokenizer, calibrated when it is an estimate
/// (the host view counts each file and listing so).
pub fn count_text(text: &str, profile: &ModelProfile, counter: &TokenCounter) -> Count {
    Counting { counter, tokenizer: profile.tokenizer, calibration: profile.estimate_calibration() }.count(text)
}

/// The estimated (or, for a public tokenizer, exact) accounting of one render, its window left
/// to compute: every count made with the model's tokenizer and scaled by `calibration`.
fn estimate(agent: &Agent, rendered: &Rendered, counter: &TokenCounter, calibration: Option<Calibration>, cache: &Cache) -> Measured {
    let profile = agent.profile.clone();
    let c = Counting { counter, tokenizer: profile.tokenizer, calibration };
    // The tokenizer's own counts of each section: the concatenation below is counted from them.
    let counted: Vec<usize> = rendered.sections.iter().map(|s| counter.count_hashed(c.tokenizer, &s.text, s.text.hash())).collect();
    let sections: Vec<SectionCost> = rendered
        .sections
        .iter()
        .zip(&counted)
        .map(|(s, counted)| {
            let step = agent.steps.iter().find(|st| st.number == s.step);
            SectionCost {
                step: s.step,
                id: s.id.clone(),
                title: s.title.clone(),
                kind: s.kind,
                sources: s.sources.clone(),
                tokens: c.wrap(c.scale(*counted as i64)),
                worst_case: (s.kind == StepKind::Memories).then(|| memories_worst_case(agent, &c)),
                budget: step.and_then(|st| st.budget.as_ref().map(|b| b.tokens)),
            }
        })
        .collect();
    let parts = prompt_parts(rendered, &counted, &c);
    let prompt_counted = counter.count_concat(profile.tokenizer, &parts) as i64;
    // Scaled as its sections plus its scaled joins, so that the parts add up after scaling.
    let joins = c.wrap(c.scale(prompt_counted - counted.iter().sum::<usize>() as i64));
    let system_prompt = c.wrap(sections.iter().map(|s| s.tokens.tokens).sum::<i64>() + joins.tokens);
    let callable = callable_tools(agent, rendered);
    let tools: Vec<&Tool> = callable.iter().map(|(t, _)| t.tool.as_ref()).collect();
    // Through the model's chat template when the agent names one, else the provider's rendering.
    let (rendering, counted) = match &rendered.request {
        Some(texts) => {
            let count = |text: &str| counter.count(profile.tokenizer, text);
            (Rendering::ChatTemplate, crate::providers::chat_template::count_request(texts, &rendered.system_messages(), &count))
        }
        None => (Rendering::of(&profile), count_request(&profile, Some(&parts), &tools, counter, cache)),
    };
    let request_tokens = calibrated(counted, (prompt_counted, system_prompt.tokens), &c);
    // A rendered template's special tokens are the model's only when the tokenizer finds them.
    let exact = rendering.is_exact(&profile) && (rendering != Rendering::ChatTemplate || counter.finds_special_tokens(profile.tokenizer));
    let tool_schemas = tool_costs(&callable, &profile, rendering, exact, &request_tokens);
    let mut request = request_cost(&profile, rendering, exact, &request_tokens, &system_prompt, &tool_schemas);
    if let (Rendering::ChatTemplate, Some(template)) = (rendering, &agent.chat_template) {
        request.method = format!("{} (the template of {})", request.method, template.source());
    }
    Measured {
        agent: rendered.agent.clone(),
        mode: rendered.mode.clone(),
        scenario: rendered.scenario.clone(),
        modelled: rendered.modelled.clone(),
        tokenizer: profile.tokenizer.name(),
        method: profile.method_label(),
        exact: profile.tokenizer.is_exact(),
        recorded: None,
        model: profile,
        sections,
        joins,
        system_prompt,
        tool_schemas,
        request,
        window: Window::default(),
    }
}

/// The requests that count one render exactly at `provider`'s endpoint ([`Plan`]).
pub fn count_plan(provider: Provider, model: &str, rendered: &Rendered, tools: &[&Tool]) -> Plan {
    let sections: Vec<(&str, &str)> =
        rendered.sections.iter().enumerate().map(|(i, s)| (if i == 0 { "" } else { rendered.separator_before(i) }, &*s.text)).collect();
    Plan::new(provider, model, &sections, tools)
}

/// Replaces the estimated counts of `m` by the recorded ones: each section (with the separator
/// before it), the system prompt, the tools and the request. With two tools or more each tool is
/// exact too, and the tool-use prompt and the list's framing are one exact figure (the preamble
/// row); with one tool, the tool, framing and preamble stay estimated and the tools' joins make
/// them add up to the exact total.
fn use_recorded(m: &mut Measured, provider: Provider, counts: &PlanCounts, requests: usize) {
    let label = format!("exact: {}, recorded {}", provider.endpoint(), counts.date);
    let exact = |tokens: i64| Count { tokens, tokenizer: provider.endpoint(), exact: true };
    for (section, tokens) in m.sections.iter_mut().zip(&counts.sections) {
        section.tokens = exact(*tokens);
    }
    m.joins = exact(0);
    m.system_prompt = exact(counts.system_prompt);
    let t = &mut m.tool_schemas;
    t.total = exact(counts.tools_total);
    match &counts.tools {
        Some(split) => {
            for (tool, tokens) in t.tools.iter_mut().zip(&split.each) {
                tool.tokens = exact(*tokens);
            }
            for group in t.categories.iter_mut() {
                group.tokens = exact(t.tools.iter().filter(|tool| tool.category == group.name).map(|tool| tool.tokens.tokens).sum());
            }
            for group in t.servers.iter_mut() {
                let tokens = t.tools.iter().filter(|tool| tool.server.as_ref() == Some(&group.name)).map(|tool| tool.tokens.tokens).sum();
                group.tokens = exact(tokens);
            }
            t.framing = exact(0);
            t.preamble = exact(split.fixed);
            t.joins = exact(0);
            t.exact = true;
            t.method = format!(
                "{label}: each tool is what adding it to the request costs (the first tool: added after the second); the tool-use prompt and the list's framing are one figure, under preamble"
            );
        }
        None => {
            let parts: i64 = t.tools.iter().map(|tool| tool.tokens.tokens).sum::<i64>() + t.framing.tokens + t.preamble.tokens;
            t.joins = Count { tokens: counts.tools_total - parts, ..t.joins };
            t.method = format!(
                "{label} (the request with the tools minus the request without); the tool, the framing and the preamble: {}",
                t.method
            );
        }
    }
    let r = &mut m.request;
    r.framing = exact(counts.bare);
    r.joins = exact(0);
    r.total = exact(counts.total);
    r.exact = true;
    r.method = format!("{label}; framing: the request with no system prompt and a one-character user message, that message included");
    m.method = label;
    m.tokenizer = provider.endpoint();
    m.exact = true;
    m.recorded = Some(Recording::Exact { endpoint: provider.endpoint(), date: counts.date.clone(), requests });
}

/// The prompt as the model receives it (or its first sections, as many as `counted` counts), in
/// parts with the tokenizer's counts of them: each section, with the separator between.
fn prompt_parts<'a>(rendered: &'a Rendered, counted: &[usize], c: &Counting) -> Vec<(&'a str, usize)> {
    let mut parts = Vec::with_capacity(rendered.sections.len() * 2);
    for (i, (section, tokens)) in rendered.sections.iter().zip(counted).enumerate() {
        if i > 0 {
            let separator = rendered.separator_before(i);
            parts.push((separator, c.counter.count(c.tokenizer, separator)));
        }
        parts.push((&*section.text, *tokens));
    }
    debug_assert!(counted.len() < rendered.sections.len() || parts.iter().map(|p| p.0).collect::<String>() == rendered.prompt());
    parts
}

/// The memories section at its bound: heading, K item prefixes, the cut marker, and
/// `max_chars` characters of memory text.
fn memories_worst_case(agent: &Agent, c: &Counting) -> Count {
    let r = &agent.settings.retrieval;
    let longest_scope = r.scopes.iter().max_by_key(|s| s.len()).map_or("", String::as_str);
    let mut frame = String::from("## Relevant memories\n");
    for _ in 0..r.top_k {
        frame.push_str(&format!("\n- ({longest_scope}) "));
    }
    frame.push_str(&format!("\n\n[999 more memories not shown: limits are {} memories and {} characters]", r.top_k, r.max_chars));
    c.wrap(c.count(&frame).tokens + r.max_chars as i64)
}

/// Costs a bare list of tools (a tool file) as `profile`'s provider renders them in a request
/// without a system prompt (each tool list rendered and counted once per `cache`).
pub fn cost_tool_list(tools: &[&Tool], profile: &ModelProfile, counter: &TokenCounter, cache: &Cache) -> ToolCosts {
    let c = Counting { counter, tokenizer: profile.tokenizer, calibration: profile.estimate_calibration() };
    let counted = calibrated(count_request(profile, None, tools, counter, cache), (0, 0), &c);
    let named: Vec<(String, String, Option<String>)> = tools.iter().map(|t| (t.name.clone(), String::new(), None)).collect();
    let rendering = Rendering::of(profile);
    tool_cost_parts(named, profile, rendering, rendering.is_exact(profile), &counted)
}

/// The tools a render makes callable, in order, each with its decision.
pub fn callable_tools<'a>(agent: &'a Agent, rendered: &'a Rendered) -> Vec<(&'a CategoryTool, &'a ToolDecision)> {
    crate::render::callable(agent, &rendered.tools).collect()
}

fn tool_costs(
    callable: &[(&CategoryTool, &ToolDecision)],
    profile: &ModelProfile,
    rendering: Rendering,
    exact: bool,
    counted: &RequestTokens,
) -> ToolCosts {
    let named: Vec<(String, String, Option<String>)> =
        callable.iter().map(|(t, d)| (t.tool.name.clone(), d.category.clone(), t.server.clone())).collect();
    tool_cost_parts(named, profile, rendering, exact, counted)
}

/// The tool costs of `counted`, each tool with its (name, category, server), moved into its row.
fn tool_cost_parts(
    named: Vec<(String, String, Option<String>)>,
    profile: &ModelProfile,
    rendering: Rendering,
    exact: bool,
    counted: &RequestTokens,
) -> ToolCosts {
    let wrap = |tokens: i64| Count { tokens, tokenizer: profile.tokenizer.name(), exact };
    let tools: Vec<ToolCost> = named
        .into_iter()
        .zip(&counted.tools)
        .map(|((name, category, server), tokens)| ToolCost { name, category, server, tokens: wrap(*tokens) })
        .collect();
    let group = |key: &dyn Fn(&ToolCost) -> Option<&str>| -> Vec<GroupCost> {
        let mut groups: Vec<GroupCost> = Vec::new();
        for tool in &tools {
            let Some(name) = key(tool) else { continue };
            match groups.iter_mut().find(|g| g.name == name) {
                Some(g) => {
                    g.tools += 1;
                    g.tokens.tokens += tool.tokens.tokens;
                }
                None => groups.push(GroupCost { name: name.to_string(), tools: 1, tokens: tool.tokens }),
            }
        }
        groups
    };
    let categories = group(&|t| Some(t.category.as_str()).filter(|c| !c.is_empty()));
    let servers = group(&|t| t.server.as_deref());
    let parts = counted.tools.iter().sum::<i64>() + counted.tool_framing + counted.preamble;
    ToolCosts {
        rendering,
        method: rendering.method(exact).to_string(),
        exact,
        tools,
        categories,
        servers,
        framing: wrap(counted.tool_framing),
        preamble: wrap(counted.preamble),
        joins: wrap(counted.tools_total - parts),
        total: wrap(counted.tools_total),
    }
}

fn request_cost(
    profile: &ModelProfile,
    rendering: Rendering,
    exact: bool,
    counted: &RequestTokens,
    system_prompt: &Count,
    tools: &ToolCosts,
) -> RequestCost {
    let wrap = |tokens: i64| Count { tokens, tokenizer: profile.tokenizer.name(), exact };
    RequestCost {
        rendering,
        method: rendering.framing_method(exact).to_string(),
        exact,
        framing: wrap(counted.framing),
        joins: wrap(counted.without_tools - counted.framing - system_prompt.tokens),
        total: wrap(counted.without_tools + tools.total.tokens),
        per_message: rendering.per_message().map(|n| n as u64),
    }
}

fn window(
    agent: &Agent,
    profile: &ModelProfile,
    sections: &[SectionCost],
    request: &RequestCost,
    zeph: Option<crate::runtimes::zeph::window::Inputs>,
) -> Window {
    // An AgentScope model's `context_size` (set, or its class's default) is the context the
    // runtime works within: the window of the whole report.
    let agentscope_size = agent.systems.agentscope.as_ref().and_then(|s| s.context_size.as_ref());
    let (max_input, max_input_source) = match agentscope_size {
        Some(size) => (size.value, format!("AgentScope's context_size · {}", size.source)),
        None => (profile.max_input_tokens, format!("{} max input tokens", profile.model)),
    };
    let (response_reserve, response_reserve_source) = match agent.budgets.response_reserve {
        Some(Reserve::Tokens(n)) => (n, "budgets.response_reserve".to_string()),
        Some(Reserve::Ratio(r)) => {
            ((max_input as f64 * r).round() as u64, format!("budgets.response_reserve ({:.0} % of the window)", r * 100.0))
        }
        None => {
            let capped = profile.max_output_tokens.min(max_input / 4);
            let note = if capped < profile.max_output_tokens { ", capped at a quarter of the window" } else { "" };
            (capped, format!("the model's max output tokens{note}"))
        }
    };
    let fixed = request.total.tokens;
    let dynamic_headroom: i64 = sections.iter().filter_map(|s| s.worst_case.map(|w| (w.tokens - s.tokens.tokens).max(0))).sum();
    let unbounded = sections.iter().filter(|s| s.kind.is_scenario_data() && s.kind != StepKind::Memories).map(|s| s.id.clone()).collect();
    let summarization_ratio = agent.settings.summarization_trigger;
    Window {
        max_input_tokens: max_input,
        max_input_source,
        response_reserve,
        response_reserve_source,
        fixed,
        dynamic_headroom,
        unbounded,
        history_room: max_input as i64 - response_reserve as i64 - fixed - dynamic_headroom,
        summarization_ratio,
        summarization_at: summarization_ratio.map(|r| (max_input as f64 * r).floor() as u64),
        deepagents: agent.systems.deepagents.as_ref().map(crate::runtimes::deepagents::window::window),
        zeph: agent.systems.zeph.as_ref().zip(zeph).map(|(s, inputs)| crate::runtimes::zeph::window::window(s, max_input, inputs)),
        agentscope: agent.systems.agentscope.as_ref().and_then(|s| crate::runtimes::agentscope::window::window(s, max_input, fixed)),
    }
}
