//! Stage 5: measure a rendered prompt with the model's tokenizer. Each section is counted as
//! exactly the text it contributes; the whole prompt is counted as a whole, and the difference
//! (separators, and tokens that merge across section boundaries) is reported as `joins`, so the
//! parts add up to the total. Tool schemas are costed per tool, per category and per MCP server,
//! rendered as the model's provider renders them (src/providers/): each tool alone, the framing
//! around them, the provider's tool-use preamble, and the boundary `joins`; and the request's
//! fixed part (message framing, prompt and tools) as a whole.

use serde::Serialize;

use crate::manifest::model::{Agent, CategoryTool, Reserve, StepKind};
use crate::models::{ModelProfile, Tokenizer};
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
    pub method: &'static str,
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
    pub method: &'static str,
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

#[derive(Debug, Clone, PartialEq, Serialize)]
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
    pub deepagents: Option<crate::systems::deepagents::Window>,
    /// Zeph's window layout, compaction, pruning and truncation (preset `zeph`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zeph: Option<crate::systems::zeph::Window>,
    /// AgentScope's compression, reserve and tool-result limit (preset `agentscope`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agentscope: Option<crate::systems::agentscope::Window>,
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
    pub method: &'static str,
    pub exact: bool,
    pub sections: Vec<SectionCost>,
    /// Whole prompt minus the sum of sections: separators and boundary merges.
    pub joins: Count,
    pub system_prompt: Count,
    pub tool_schemas: ToolCosts,
    pub request: RequestCost,
    pub window: Window,
}

struct Counting<'a> {
    counter: &'a TokenCounter,
    tokenizer: Tokenizer,
}

impl Counting<'_> {
    fn count(&self, text: &str) -> Count {
        self.wrap(self.counter.count(self.tokenizer, text) as i64)
    }

    fn wrap(&self, tokens: i64) -> Count {
        Count { tokens, tokenizer: self.tokenizer.name(), exact: self.tokenizer.is_exact() }
    }
}

pub fn measure(agent: &Agent, rendered: &Rendered, counter: &TokenCounter) -> Measured {
    let profile = agent.profile.clone();
    let c = Counting { counter, tokenizer: profile.tokenizer };
    let sections: Vec<SectionCost> = rendered
        .sections
        .iter()
        .map(|s| {
            let step = agent.steps.iter().find(|st| st.number == s.step);
            SectionCost {
                step: s.step,
                id: s.id.clone(),
                title: s.title.clone(),
                kind: s.kind,
                sources: s.sources.clone(),
                tokens: c.wrap(counter.count_hashed(c.tokenizer, &s.text, s.text.hash()) as i64),
                worst_case: (s.kind == StepKind::Memories).then(|| memories_worst_case(agent, &c)),
                budget: step.and_then(|st| st.budget.as_ref().map(|b| b.tokens)),
            }
        })
        .collect();
    let parts = prompt_parts(rendered, &sections, &c);
    let system_prompt = c.wrap(counter.count_concat(profile.tokenizer, &parts) as i64);
    let joins = c.wrap(system_prompt.tokens - sections.iter().map(|s| s.tokens.tokens).sum::<i64>());
    let callable = callable_tools(agent, rendered);
    let tools: Vec<&Tool> = callable.iter().map(|(t, _)| t.tool.as_ref()).collect();
    let counted = count_request(&profile, Some(&parts), &tools, counter);
    let tool_schemas = tool_costs(&callable, &profile, &counted);
    let request = request_cost(&profile, &counted, &system_prompt, &tool_schemas);
    let zeph = agent.systems.zeph.as_ref().map(|_| zeph_inputs(agent, rendered, counter));
    let window = window(agent, &profile, &sections, &request, zeph);
    Measured {
        agent: rendered.agent.clone(),
        mode: rendered.mode.clone(),
        scenario: rendered.scenario.clone(),
        modelled: rendered.modelled.clone(),
        tokenizer: profile.tokenizer.name(),
        method: profile.tokenizer.method(),
        exact: profile.tokenizer.is_exact(),
        model: profile,
        sections,
        joins,
        system_prompt,
        tool_schemas,
        request,
        window,
    }
}

/// The prompt as the model receives it, in parts with their counts: each section, with the
/// separator between.
fn prompt_parts<'a>(rendered: &'a Rendered, costs: &[SectionCost], c: &Counting) -> Vec<(&'a str, usize)> {
    let mut parts = Vec::with_capacity(rendered.sections.len() * 2);
    for (i, (section, cost)) in rendered.sections.iter().zip(costs).enumerate() {
        if i > 0 {
            let separator = rendered.separator_before(i);
            parts.push((separator, c.count(separator).tokens as usize));
        }
        parts.push((&*section.text, cost.tokens.tokens as usize));
    }
    debug_assert_eq!(parts.iter().map(|p| p.0).collect::<String>(), rendered.prompt());
    parts
}

/// What Zeph's budget depends on: its own counts (cl100k_base, whatever the model) of the whole
/// system prompt and of the active-skills prompt, and the scenario's graph / memory-first flags.
fn zeph_inputs(agent: &Agent, rendered: &Rendered, counter: &TokenCounter) -> crate::systems::zeph::Inputs {
    use crate::systems::zeph::{count_tokens, Inputs, GRAPH_FLAG, MEMORY_FIRST_FLAG};
    let flag = |name| agent.scenarios.get(&rendered.scenario).and_then(|s| s.flags.get(name)).copied().unwrap_or(false);
    let skills: Vec<&str> = rendered.sections.iter().filter(|s| s.kind == StepKind::ActiveSkills).map(|s| &*s.text).collect();
    let cl100k = |text: &str| counter.count(Tokenizer::Cl100kBase, text);
    Inputs {
        system_prompt_tokens: count_tokens(&rendered.prompt(), cl100k),
        skills_tokens: count_tokens(&skills.join(&rendered.separator), cl100k),
        graph: flag(GRAPH_FLAG),
        memory_first: flag(MEMORY_FIRST_FLAG),
    }
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
/// without a system prompt.
pub fn cost_tool_list(tools: &[&Tool], profile: &ModelProfile, counter: &TokenCounter) -> ToolCosts {
    let counted = count_request(profile, None, tools, counter);
    let named: Vec<(String, String, Option<String>)> = tools.iter().map(|t| (t.name.clone(), String::new(), None)).collect();
    tool_cost_parts(&named, profile, &counted)
}

/// The tools a render makes callable, in order, each with its decision.
pub fn callable_tools<'a>(agent: &'a Agent, rendered: &'a Rendered) -> Vec<(&'a CategoryTool, &'a ToolDecision)> {
    let all_tools = agent.categories.iter().flat_map(|cat| cat.tools.iter());
    all_tools.zip(&rendered.tools).filter(|(_, d)| d.enabled).collect()
}

fn tool_costs(callable: &[(&CategoryTool, &ToolDecision)], profile: &ModelProfile, counted: &RequestTokens) -> ToolCosts {
    let named: Vec<(String, String, Option<String>)> =
        callable.iter().map(|(t, d)| (t.tool.name.clone(), d.category.clone(), t.server.clone())).collect();
    tool_cost_parts(&named, profile, counted)
}

/// The tool costs of `counted`, each tool with its (name, category, server).
fn tool_cost_parts(named: &[(String, String, Option<String>)], profile: &ModelProfile, counted: &RequestTokens) -> ToolCosts {
    let rendering = Rendering::of(profile);
    let exact = rendering.is_exact(profile);
    let wrap = |tokens: i64| Count { tokens, tokenizer: profile.tokenizer.name(), exact };
    let tools: Vec<ToolCost> = named
        .iter()
        .zip(&counted.tools)
        .map(|((name, category, server), tokens)| ToolCost {
            name: name.clone(),
            category: category.clone(),
            server: server.clone(),
            tokens: wrap(*tokens),
        })
        .collect();
    let group = |key: &dyn Fn(&ToolCost) -> Option<String>| -> Vec<GroupCost> {
        let mut groups: Vec<GroupCost> = Vec::new();
        for tool in &tools {
            let Some(name) = key(tool) else { continue };
            match groups.iter_mut().find(|g| g.name == name) {
                Some(g) => {
                    g.tools += 1;
                    g.tokens.tokens += tool.tokens.tokens;
                }
                None => groups.push(GroupCost { name, tools: 1, tokens: tool.tokens }),
            }
        }
        groups
    };
    let categories = group(&|t| Some(t.category.clone()).filter(|c| !c.is_empty()));
    let servers = group(&|t| t.server.clone());
    let parts = counted.tools.iter().sum::<i64>() + counted.tool_framing + counted.preamble;
    ToolCosts {
        rendering,
        method: rendering.method(exact),
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

fn request_cost(profile: &ModelProfile, counted: &RequestTokens, system_prompt: &Count, tools: &ToolCosts) -> RequestCost {
    let rendering = Rendering::of(profile);
    let exact = rendering.is_exact(profile);
    let wrap = |tokens: i64| Count { tokens, tokenizer: profile.tokenizer.name(), exact };
    RequestCost {
        rendering,
        method: rendering.framing_method(exact),
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
    zeph: Option<crate::systems::zeph::Inputs>,
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
        deepagents: agent.systems.deepagents.as_ref().map(crate::systems::deepagents::window),
        zeph: agent.systems.zeph.as_ref().zip(zeph).map(|(s, inputs)| crate::systems::zeph::window(s, max_input, inputs)),
        agentscope: agent.systems.agentscope.as_ref().map(|s| crate::systems::agentscope::window(s, max_input, fixed)),
    }
}
