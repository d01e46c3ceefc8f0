//! AgentScope's own step kinds: `agent_skills`, the `<agent-skills>` block of the toolkit's
//! `DEFAULT_SKILL_INSTRUCTION` (`tool/_toolkit.py`), and `workspace`, the `LocalWorkspace`
//! instructions (`workspace/_local_workspace.py`), as the releases of
//! [`crate::runtimes::agentscope::window`] write them.

use crate::manifest::model::{Agent, Scenario, Step, TextFile};
use crate::runtimes::agentscope::window::Workspace;
use crate::runtimes::{Part, StepText};

/// Why `agent_skills` adds nothing: the agent has no skills.
pub fn skills_missing(_step: &Step, agent: &Agent, _scenario: &Scenario) -> Option<String> {
    agent.skills.is_empty().then(|| "the agent has no skills".to_string())
}

/// Why `workspace` adds nothing: no workspace offloader, or its module is not declared.
pub fn workspace_missing(step: &Step, agent: &Agent, _scenario: &Scenario) -> Option<String> {
    if agent.systems.agentscope.as_ref().is_none_or(|a| a.workspace.is_none()) {
        return Some("no workspace offloader ([agentscope.workspace])".to_string());
    }
    step.module
        .as_ref()
        .filter(|m| !agent.modules.contains_key(*m))
        .map(|m| format!("module `{m}` (the workspace instructions) is not declared, so this step adds no text"))
}

/// AgentScope's skills block: its opening, the module's instruction file, then the skill list.
pub fn skills_text<'a>(agent: &'a Agent, _scenario: &Scenario, module: Option<&'a TextFile>) -> StepText<&'a TextFile> {
    let entries: Vec<SkillEntry> = agent
        .skills
        .iter()
        .map(|s| SkillEntry { name: &s.name, description: &s.description, folder: s.path.strip_suffix("/SKILL.md").unwrap_or(&s.path) })
        .collect();
    let settings = agent.systems.agentscope.as_ref();
    let project_dir = settings.and_then(|a| a.project_dir.as_deref());
    let react_agent = settings.is_some_and(|a| a.release.is_react_agent());
    let [open, list] = if react_agent { react_agent_skills(&entries, project_dir) } else { skills_block(&entries, project_dir) };
    let mut sources: Vec<String> = agent.skills.iter().map(|s| s.path.clone()).collect();
    let mut parts = vec![Part::Text(open)];
    if let Some(instruction) = module {
        sources.push(instruction.path.clone());
        parts.push(Part::File(instruction));
    }
    parts.push(Part::Text(list));
    StepText::Parts(sources, parts)
}

/// The workspace instructions: the module's text with the workspace filled in.
pub fn workspace_text<'a>(agent: &'a Agent, _scenario: &Scenario, module: Option<&'a TextFile>) -> StepText<&'a TextFile> {
    match (module, agent.systems.agentscope.as_ref().and_then(|a| a.workspace.as_ref())) {
        (Some(file), Some(ws)) => StepText::Text(vec![file.path.clone()], workspace_instructions(&file.text, ws)),
        _ => StepText::Text(Vec::new(), String::new()),
    }
}

/// One skill as `DEFAULT_SKILL_INSTRUCTION` lists it.
struct SkillEntry<'a> {
    pub name: &'a str,
    pub description: &'a str,
    /// The skill's folder relative to the project root.
    pub folder: &'a str,
}

/// The skills block `Toolkit.get_skill_instructions` renders from `DEFAULT_SKILL_INSTRUCTION`
/// (tool/_toolkit.py, the same in 2.0.6–2.0.11), around its instruction text (AgentScope's own,
/// given as a module: ctxc ships none of it): what comes before it, and one `<skill>` per skill
/// after it, nothing escaped, `<dir>` absolute. Jinja drops the template's final line break.
fn skills_block(skills: &[SkillEntry], project_dir: Option<&str>) -> [String; 2] {
    let mut list = String::from("\n\n# Available Skills:");
    for skill in skills {
        let dir = skill_dir(skill.folder, project_dir);
        list.push_str(&format!(
            "\n<skill>\n<name>{}</name>\n<description>{}</description>\n<dir>{dir}</dir>\n</skill>",
            skill.name, skill.description
        ));
    }
    list.push_str("\n</agent-skills>");
    ["<agent-skills>\n".to_string(), list]
}

/// `skill_dir` as the agent names it: under `project_dir` when set, else relative to the project.
fn skill_dir(folder: &str, project_dir: Option<&str>) -> String {
    match project_dir {
        Some(root) => format!("{}/{folder}", root.trim_end_matches('/')),
        None => folder.to_string(),
    }
}

/// 1.x's skills text, `Toolkit.get_agent_skill_prompt` (tool/_toolkit.py, 1.0.21): the
/// instruction (the module) and one `## name` entry per skill (`_DEFAULT_AGENT_SKILL_TEMPLATE`,
/// `str.format`, nothing escaped), joined by line breaks; `ReActAgent.sys_prompt` puts a blank
/// line before it, one line break more than the step's separator.
fn react_agent_skills(skills: &[SkillEntry], project_dir: Option<&str>) -> [String; 2] {
    let mut list = String::new();
    for skill in skills {
        let dir = skill_dir(skill.folder, project_dir);
        list.push_str(&format!("\n## {}\n{}\nCheck \"{dir}/SKILL.md\" for how to use this skill", skill.name, skill.description));
    }
    ["\n".to_string(), list]
}

/// The workspace instructions as `LocalWorkspace.__init__` makes them: `instructions.format(backend=…,
/// workdir=…)` (Python `str.format`: `{{` and `}}` are braces; other fields are left as written,
/// where Python would raise).
fn workspace_instructions(template: &str, workspace: &Workspace) -> String {
    let mut out = String::with_capacity(template.len() + workspace.workdir.len());
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let (text, used) = if tail.starts_with("{{") {
            ("{", 2)
        } else if tail.starts_with("}}") {
            ("}", 2)
        } else if tail.starts_with("{workdir}") {
            (workspace.workdir.as_str(), "{workdir}".len())
        } else if tail.starts_with("{backend}") {
            (workspace.backend.as_str(), "{backend}".len())
        } else {
            (&tail[..1], 1)
        };
        out.push_str(text);
        rest = &tail[used..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workspace_template_is_filled_like_python_str_format() {
        let ws = Workspace { workdir: "/srv/ws".into(), backend: "local".into() };
        assert_eq!(workspace_instructions("a {backend} at {workdir}: {{x}} {other} }", &ws), "a local at /srv/ws: {x} {other} }");
    }
}
