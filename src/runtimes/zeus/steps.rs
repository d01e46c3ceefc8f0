//! Zeus's own step kind, `zeus_skills`: its skills section, in the format its documentation
//! shows (docs.zeus.agentspro.cn, Core capabilities → Skills, "Representation in System Prompt"
//! and "Metadata Fields").

use std::collections::BTreeMap;

use crate::manifest::model::{Agent, Scenario, Step, TextFile};
use crate::runtimes::StepText;
use crate::skills::{Skill, SkillBody};

/// Why `zeus_skills` adds nothing: no skill is shown.
pub fn skills_missing(_step: &Step, agent: &Agent, _scenario: &Scenario) -> Option<String> {
    shown(&agent.skills).next().is_none().then(|| "the agent has no enabled skills".to_string())
}

/// The skills section and the skill files it comes from.
pub fn skills_text<'a>(agent: &'a Agent, scenario: &Scenario, _module: Option<&'a TextFile>) -> StepText<&'a TextFile> {
    StepText::Text(
        shown(&agent.skills).map(|s| s.path.clone()).collect(),
        skills_section(&agent.skills, &scenario.active_skills, &agent.skill_bodies),
    )
}

/// The skills section of a Zeus prompt. Skills the scenario activates are injected whole as
/// `<activated_skill name="…">` blocks; the others are listed as discovery summaries in
/// `<available_skills>`, one `<skill name="…">description</skill>` line each (the agent loads
/// them with `load_skill`). Skills with `enabled: false` are left out; the rest are ordered by
/// `priority`, highest first, ties in discovery order. Empty when nothing is left to show.
fn skills_section(skills: &[Skill], activated: &[String], bodies: &BTreeMap<String, SkillBody>) -> String {
    let mut listed: Vec<&Skill> = skills.iter().filter(|s| enabled(s)).collect();
    listed.sort_by_key(|s| std::cmp::Reverse(priority(s)));
    let (active, available): (Vec<&Skill>, Vec<&Skill>) = listed.into_iter().partition(|s| activated.contains(&s.name));
    let mut blocks: Vec<String> = active
        .iter()
        .map(|s| {
            let body = bodies.get(&s.path).map_or("", |b| b.trim_start_matches(['\n', '\r']).trim_end_matches(['\n', '\r']));
            format!("<activated_skill name=\"{}\">\n{body}\n</activated_skill>", s.name)
        })
        .collect();
    if !available.is_empty() {
        let lines: Vec<String> = available.iter().map(|s| format!("<skill name=\"{}\">{}</skill>", s.name, s.description)).collect();
        blocks.push(format!("<available_skills>\n{}\n</available_skills>", lines.join("\n")));
    }
    blocks.join("\n\n")
}

/// The skills a Zeus prompt shows (`enabled` is not `false`).
fn shown(skills: &[Skill]) -> impl Iterator<Item = &Skill> {
    skills.iter().filter(|s| enabled(s))
}

/// `enabled` from the frontmatter: true unless it is `false`.
fn enabled(skill: &Skill) -> bool {
    field(skill, "enabled").and_then(serde_json::Value::as_bool).unwrap_or(true)
}

/// `priority` from the frontmatter: an integer, 0 when absent.
fn priority(skill: &Skill) -> i64 {
    field(skill, "priority").and_then(serde_json::Value::as_i64).unwrap_or(0)
}

fn field<'a>(skill: &'a Skill, key: &str) -> Option<&'a serde_json::Value> {
    skill.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}
