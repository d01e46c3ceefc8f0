//! What Zeph's window depends on in one render, counted as Zeph counts (for the measure stage).

use crate::manifest::model::{Agent, StepKind};
use crate::models::Tokenizer;
use crate::render::Rendered;
use crate::runtimes::zeph::window::{count_tokens, Inputs, GRAPH_FLAG, MEMORY_FIRST_FLAG};
use crate::tokens::TokenCounter;

/// What Zeph's budget depends on: its own counts (cl100k_base, whatever the model) of the whole
/// system prompt and of the active-skills prompt, and the scenario's graph / memory-first flags.
pub fn inputs(agent: &Agent, rendered: &Rendered, counter: &TokenCounter) -> Inputs {
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
