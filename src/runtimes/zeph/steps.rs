//! Zeph's own step kinds, as zeph-core 0.22.4 assembles its system prompt: `active_skills`
//! (the matched skills in full, `<available_skills>`), `other_skills` (the rest, `<other_skills>`),
//! `project_context` (the `[memory] walk_up` files, `<project_context>`) and `budget_hint`
//! (`<budget>`).

use crate::manifest::model::{Agent, Scenario, Step, TextFile};
use crate::runtimes::zeph::window::Settings;
use crate::runtimes::StepText;
use crate::skills::Skill;

/// Why `project_context` adds nothing: no walk-up file was found.
pub fn context_missing(_step: &Step, agent: &Agent, _scenario: &Scenario) -> Option<String> {
    agent
        .project_context
        .is_empty()
        .then(|| "no project context file ([memory] walk_up) between the agent's directory and the project root".to_string())
}

/// Why `active_skills` adds nothing: the scenario activates no skill.
pub fn active_missing(_step: &Step, _agent: &Agent, scenario: &Scenario) -> Option<String> {
    scenario.active_skills.is_empty().then(|| format!("scenario `{}` activates no skill", scenario.name))
}

/// Why `other_skills` adds nothing: no skill, or every one is active.
pub fn others_missing(_step: &Step, agent: &Agent, scenario: &Scenario) -> Option<String> {
    if agent.skills.is_empty() {
        return Some("the agent has no skills".to_string());
    }
    agent
        .skills
        .iter()
        .all(|k| scenario.active_skills.contains(&k.name))
        .then(|| format!("scenario `{}` activates every skill", scenario.name))
}

/// Why `budget_hint` adds nothing: Zeph writes no hint with these settings.
pub fn hint_missing(_step: &Step, agent: &Agent, _scenario: &Scenario) -> Option<String> {
    agent
        .systems
        .zeph
        .as_ref()
        .and_then(budget_hint)
        .is_none()
        .then(|| "Zeph adds no budget hint (`[zeph] budget_hint_enabled` is false, or no cost cap and no tool iterations)".to_string())
}

/// The walk-up files, root first, in `<project_context>`.
pub fn context_text<'a>(agent: &'a Agent, _scenario: &Scenario, _module: Option<&'a TextFile>) -> StepText<&'a TextFile> {
    let body: Vec<&str> = agent.project_context.iter().map(|f| trim_line_breaks(&f.text)).collect();
    StepText::Text(
        agent.project_context.iter().map(|f| f.path.clone()).collect(),
        format!("<project_context>\n{}\n</project_context>", body.join("\n\n")),
    )
}

/// The active skills' bodies, each in its `<skill>` block, in `<available_skills>`.
pub fn active_text<'a>(agent: &'a Agent, scenario: &Scenario, _module: Option<&'a TextFile>) -> StepText<&'a TextFile> {
    let active: Vec<&Skill> = scenario.active_skills.iter().filter_map(|name| agent.skills.iter().find(|s| &s.name == name)).collect();
    let blocks: Vec<String> = active
        .iter()
        .map(|s| {
            let body = agent.skill_bodies.get(&s.path).map_or("", |b| trim_line_breaks(b.trim_start_matches(['\n', '\r'])));
            format!("<skill name=\"{}\">\n{body}\n</skill>", s.name)
        })
        .collect();
    StepText::Text(
        active.iter().map(|s| s.path.clone()).collect(),
        format!("<available_skills>\n{}\n</available_skills>", blocks.join("\n")),
    )
}

/// One line per skill the scenario did not activate, in `<other_skills>`.
pub fn others_text<'a>(agent: &'a Agent, scenario: &Scenario, _module: Option<&'a TextFile>) -> StepText<&'a TextFile> {
    let others: Vec<&Skill> = agent.skills.iter().filter(|s| !scenario.active_skills.contains(&s.name)).collect();
    let lines: Vec<String> = others.iter().map(|s| format!("- {}: {}", s.name, s.description)).collect();
    StepText::Text(others.iter().map(|s| s.path.clone()).collect(), format!("<other_skills>\n{}\n</other_skills>", lines.join("\n")))
}

/// The budget hint (empty when Zeph writes none); its values come from the manifest.
pub fn hint_text<'a>(agent: &'a Agent, _scenario: &Scenario, _module: Option<&'a TextFile>) -> StepText<&'a TextFile> {
    StepText::Text(vec![agent.manifest.clone()], agent.systems.zeph.as_ref().and_then(budget_hint).unwrap_or_default())
}

/// A file's text without its final line breaks, as a generic step's is joined.
fn trim_line_breaks(text: &str) -> &str {
    text.trim_end_matches(['\n', '\r'])
}

/// The `<budget>` block Zeph appends to the system prompt at the start of a turn, or `None` when
/// it adds none. zeph-core 0.22.4 `agent/context/assembly.rs` (`assemble_final_system_prompt`)
/// builds the hint from the cost tracker (attached by the `zeph` binary's `apply_cost_tracker`
/// when `cost.enabled`, with `max_daily_cents` as its cap and nothing spent on a fresh day) and the
/// tool loop (`max_tool_iterations`, no iteration used yet); zeph-agent-context 0.22.4
/// `helpers.rs` `BudgetHint::format_xml` writes it: cents with two decimals, one element a line,
/// nothing at all without a cost cap and with no tool iterations.
fn budget_hint(s: &Settings) -> Option<String> {
    if !s.budget_hint_enabled.value {
        return None;
    }
    let cap = (s.cost_enabled.value && s.max_daily_cents.value > 0).then_some(s.max_daily_cents.value);
    let tool_calls = s.max_tool_iterations.value;
    if cap.is_none() && tool_calls == 0 {
        return None;
    }
    let mut block = String::from("<budget>");
    if let Some(cents) = cap {
        // Spend is 0 on a fresh day, so what is left is the whole cap.
        block.push_str(&format!("\n<remaining_cost_cents>{cents}.00</remaining_cost_cents>"));
        block.push_str(&format!("\n<total_budget_cents>{cents}.00</total_budget_cents>"));
    }
    if tool_calls > 0 {
        block.push_str(&format!("\n<remaining_tool_calls>{tool_calls}</remaining_tool_calls>"));
        block.push_str(&format!("\n<max_tool_calls>{tool_calls}</max_tool_calls>"));
    }
    block.push_str("\n</budget>");
    Some(block)
}
