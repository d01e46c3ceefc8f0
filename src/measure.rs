//! Stage 5: measure a rendered prompt with the model's tokenizer. Each section is counted as
//! exactly the text it contributes; the whole prompt is counted as a whole, and the difference
//! (separators, and tokens that merge across section boundaries) is reported as `joins`, so the
//! parts add up to the total. Tool schemas are costed per tool, per category and per MCP server,
//! with the array's shared overhead counted once.

use std::sync::Arc;

use serde::Serialize;
use xxhash_rust::xxh3::Xxh3;

use crate::manifest::model::{Agent, CategoryTool, Reserve, StepKind};
use crate::memo::{Cache, Kind};
use crate::models::{ModelProfile, Tokenizer};
use crate::render::Rendered;
use crate::resolve::ToolDecision;
use crate::tokens::TokenCounter;
use crate::tools::Tool;

/// How tool schemas are costed, as shown next to the numbers.
pub const TOOL_METHOD: &str = "each callable tool as compact OpenAI function JSON ({\"type\":\"function\",\"function\":{name, description, parameters}}); the array's brackets and commas counted once as overhead";

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

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCosts {
    pub method: &'static str,
    pub tools: Vec<ToolCost>,
    pub categories: Vec<GroupCost>,
    pub servers: Vec<GroupCost>,
    /// Tokens of the array around the tools, counted once.
    pub overhead: Count,
    /// The whole array counted as one text.
    pub total: Count,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Window {
    pub max_input_tokens: u64,
    pub response_reserve: u64,
    /// Where the reserve comes from.
    pub response_reserve_source: String,
    /// System prompt plus tool schemas.
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
    let system_prompt = c.wrap(counter.count_concat(profile.tokenizer, &prompt_parts(rendered, &sections, &c)) as i64);
    let joins = c.wrap(system_prompt.tokens - sections.iter().map(|s| s.tokens.tokens).sum::<i64>());
    let tool_schemas = tool_costs(agent, rendered, &c);
    let zeph = agent.systems.zeph.as_ref().map(|_| zeph_inputs(agent, rendered, counter));
    let window = window(agent, &profile, &sections, &system_prompt, &tool_schemas, zeph);
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

/// Costs a list of tools as provider JSON: each counted alone, and the array `[t1,t2,…]` as a whole.
pub fn cost_tool_array(tools: &[&Tool], counter: &TokenCounter, tokenizer: Tokenizer) -> (Vec<Count>, Count, Count) {
    // The agents and modes of a project mostly send the same tool lists: each list is costed once.
    let c = Counting { counter, tokenizer };
    let mut key = Xxh3::new();
    key.update(&[counter.engine() as u8, tokenizer as u8]);
    for tool in tools {
        key.update(&tool.function_json_hash().to_le_bytes());
    }
    let costed = Cache::get_or_insert(Kind::ToolArrayCost, key.digest128(), || {
        let each: Vec<usize> = tools.iter().map(|t| counter.count_hashed(tokenizer, t.function_json(), t.function_json_hash())).collect();
        if tools.is_empty() {
            return Arc::new((each, 0));
        }
        let comma = (",", counter.count(tokenizer, ","));
        let mut parts = vec![("[", counter.count(tokenizer, "["))];
        for (i, (tool, tokens)) in tools.iter().zip(&each).enumerate() {
            if i > 0 {
                parts.push(comma);
            }
            parts.push((tool.function_json(), *tokens));
        }
        parts.push(("]", counter.count(tokenizer, "]")));
        let total = counter.count_concat(tokenizer, &parts);
        Arc::new((each, total))
    });
    let (each, total) = &*costed;
    let each: Vec<Count> = each.iter().map(|n| c.wrap(*n as i64)).collect();
    let overhead = c.wrap(*total as i64 - each.iter().map(|n| n.tokens).sum::<i64>());
    (each, overhead, c.wrap(*total as i64))
}

/// The tools a render makes callable, in order, each with its decision.
pub fn callable_tools<'a>(agent: &'a Agent, rendered: &'a Rendered) -> Vec<(&'a CategoryTool, &'a ToolDecision)> {
    let all_tools = agent.categories.iter().flat_map(|cat| cat.tools.iter());
    all_tools.zip(&rendered.tools).filter(|(_, d)| d.enabled).collect()
}

fn tool_costs(agent: &Agent, rendered: &Rendered, c: &Counting) -> ToolCosts {
    let callable = callable_tools(agent, rendered);
    let tools: Vec<&Tool> = callable.iter().map(|(t, _)| t.tool.as_ref()).collect();
    let (each, overhead, total) = cost_tool_array(&tools, c.counter, c.tokenizer);
    let tools: Vec<ToolCost> = callable
        .iter()
        .zip(each)
        .map(|((t, d), tokens)| ToolCost { name: t.tool.name.clone(), category: d.category.clone(), server: t.server.clone(), tokens })
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
    let categories = group(&|t| Some(t.category.clone()));
    let servers = group(&|t| t.server.clone());
    ToolCosts { method: TOOL_METHOD, tools, categories, servers, overhead, total }
}

fn window(
    agent: &Agent,
    profile: &ModelProfile,
    sections: &[SectionCost],
    system_prompt: &Count,
    tools: &ToolCosts,
    zeph: Option<crate::systems::zeph::Inputs>,
) -> Window {
    let max_input = profile.max_input_tokens;
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
    let fixed = system_prompt.tokens + tools.total.tokens;
    let dynamic_headroom: i64 = sections.iter().filter_map(|s| s.worst_case.map(|w| (w.tokens - s.tokens.tokens).max(0))).sum();
    let unbounded = sections.iter().filter(|s| s.kind.is_scenario_data() && s.kind != StepKind::Memories).map(|s| s.id.clone()).collect();
    let summarization_ratio = agent.settings.summarization_trigger;
    Window {
        max_input_tokens: max_input,
        response_reserve,
        response_reserve_source,
        fixed,
        dynamic_headroom,
        unbounded,
        history_room: max_input as i64 - response_reserve as i64 - fixed - dynamic_headroom,
        summarization_ratio,
        summarization_at: summarization_ratio.map(|r| (max_input as f64 * r).floor() as u64),
        deepagents: agent.systems.deepagents.as_ref().map(|s| crate::systems::deepagents::window(s, max_input)),
        zeph: agent.systems.zeph.as_ref().zip(zeph).map(|(s, inputs)| crate::systems::zeph::window(s, max_input, inputs)),
        agentscope: agent.systems.agentscope.as_ref().map(|s| crate::systems::agentscope::window(s, max_input, fixed)),
    }
}
