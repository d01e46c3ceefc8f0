//! ADK's own step kinds, as an `LlmAgent`'s request processors write the system instruction
//! (google-adk 2.13.0; each part joined to the last by `LlmRequest.append_instructions` with a
//! blank line, the pipeline's default separator):
//! - `adk_instruction`: the global or the agent's instruction (the module's text as written)
//!   with `{key}` placeholders filled from session state, the scenario's `vars`
//!   (`flows/llm_flows/prompt/_instructions_utils.py`, `_render_with_regex`);
//! - `adk_identity`: the agent's name and description (`flows/llm_flows/prompt/_identity.py`);
//! - `adk_transfer`: the agents it may transfer to (`flows/llm_flows/extensions/_agent_transfer.py`),
//!   in ADK's own words, which ctxc does not ship: the step's module holds them with `{agents}`
//!   and `{agent_names}` for the parts ctxc fills, module `transfer_to_parent` the parent line
//!   with `{parent}`.

use serde_json::Value;

use crate::manifest::model::{Agent, ModuleFiles, Scenario, Step, StepKind, TextFile};
use crate::runtimes::adk::settings::{is_identifier, PARENT_MODULE};
use crate::runtimes::{py_repr, Part, StepText};

/// Why an `adk_instruction` adds nothing: its module is not declared (an agent without a global
/// instruction declares none).
pub fn instruction_missing(step: &Step, agent: &Agent, _scenario: &Scenario) -> Option<String> {
    module_missing(step, agent, "the instruction")
}

/// Why `adk_transfer` adds nothing: the agent has nowhere to transfer to, or its module (ADK's
/// transfer text) is not declared.
pub fn transfer_missing(step: &Step, agent: &Agent, _scenario: &Scenario) -> Option<String> {
    let Some(adk) = agent.systems.adk.as_ref().filter(|a| !a.targets().is_empty()) else {
        return Some("no agent to transfer to ([adk] sub_agents, parent, peers)".to_string());
    };
    // Without its parent line the text would be ADK's minus a sentence: off, saying why.
    if adk.parent_to_name().is_some() && !agent.modules.contains_key(PARENT_MODULE) {
        return Some(format!("module `{PARENT_MODULE}` (ADK's line about the parent) is not declared, so this step adds no text"));
    }
    module_missing(step, agent, "ADK's transfer instruction")
}

/// The identity is always there (ADK leaves it out only for `single_turn` agents).
pub fn identity_missing(_step: &Step, _agent: &Agent, _scenario: &Scenario) -> Option<String> {
    None
}

/// Whether the step is one of ADK's that ADK itself leaves out for this agent: an instruction
/// whose module is not declared (no global instruction), the transfer text of an agent with
/// nowhere to transfer to. Such a step staying off in every render is no mistake (MAN004).
pub fn off_by_design(step: &Step, agent: &Agent) -> bool {
    match step.kind {
        StepKind::AdkInstruction => step.module.as_ref().is_some_and(|m| !agent.modules.contains_key(m)),
        StepKind::AdkTransfer => agent.systems.adk.as_ref().is_none_or(|a| a.targets().is_empty()),
        _ => false,
    }
}

fn module_missing(step: &Step, agent: &Agent, what: &str) -> Option<String> {
    step.module
        .as_ref()
        .filter(|m| !agent.modules.contains_key(*m))
        .map(|m| format!("module `{m}` ({what}) is not declared, so this step adds no text"))
}

/// The instruction with the scenario's session state filled in, kept as written (ADK trims nothing).
pub fn instruction_text<'a>(_agent: &'a Agent, scenario: &Scenario, module: Option<&'a TextFile>) -> StepText<&'a TextFile> {
    match module {
        Some(file) => StepText::Parts(vec![file.path.clone()], vec![Part::Text(inject_state(&file.text, &scenario.vars))]),
        None => StepText::Text(Vec::new(), String::new()),
    }
}

/// `You are an agent. Your internal name is "…".`, with the description when there is one.
pub fn identity_text<'a>(agent: &'a Agent, _scenario: &Scenario, _module: Option<&'a TextFile>) -> StepText<&'a TextFile> {
    let mut text = format!("You are an agent. Your internal name is \"{}\".", agent.name);
    if let Some(description) = agent.description.as_deref().filter(|d| !d.is_empty()) {
        text.push_str(&format!(" The description about you is \"{description}\"."));
    }
    StepText::Text(vec![agent.manifest.clone()], text)
}

/// The transfer instruction: the module with each target's name and description (one block
/// each, joined by a line break) and the sorted names filled in, then the parent line.
pub fn transfer_text<'a>(agent: &'a Agent, _scenario: &Scenario, module: Option<&'a TextFile>) -> StepText<&'a TextFile> {
    let (Some(file), Some(adk)) = (module, agent.systems.adk.as_ref()) else {
        return StepText::Text(Vec::new(), String::new());
    };
    let targets = adk.targets();
    let agents: Vec<String> = targets.iter().map(|t| format!("\nAgent name: {}\nAgent description: {}\n", t.name, t.description)).collect();
    let mut names: Vec<&str> = targets.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    let mut sources = vec![agent.manifest.clone(), file.path.clone()];
    let mut text = fill(&file.text, &[("agents", &agents.join("\n")), ("agent_names", &names.join(", "))]);
    if let (Some(parent), Some(ModuleFiles::Single(line))) = (adk.parent_to_name(), agent.modules.get(PARENT_MODULE)) {
        sources.push(line.path.clone());
        text.push_str(&fill(&line.text, &[("parent", &parent.name)]));
    }
    StepText::Parts(sources, vec![Part::Text(text)])
}

/// `text` with each `{name}` of `values` replaced; other braces are kept.
fn fill(text: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        match values.iter().find(|(name, _)| tail[1..].strip_prefix(name).is_some_and(|t| t.starts_with('}'))) {
            Some((name, value)) => {
                out.push_str(value);
                rest = &tail[name.len() + 2..];
            }
            None => {
                out.push('{');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// ADK's state injection: each match of `(?<![\$\{\\]){+[^{}]*}+` whose inner name (braces and
/// surrounding whitespace stripped) is a state name (`name`, or `app:`, `user:`, `temp:` and a
/// name) becomes the state value (`str(value)`; `None` empty); `{name?}` is empty when the state
/// has no such key. A required key that is missing (ADK raises `KeyError`) and artifacts are
/// left as written.
pub fn inject_state(template: &str, state: &indexmap::IndexMap<String, Value>) -> String {
    let bytes = template.as_bytes();
    let mut out = String::with_capacity(template.len());
    let (mut copied, mut i) = (0, 0);
    while i < bytes.len() {
        if bytes[i] != b'{' || (i > 0 && matches!(bytes[i - 1], b'$' | b'{' | b'\\')) {
            i += 1;
            continue;
        }
        let open_end = i + bytes[i..].iter().take_while(|&&b| b == b'{').count();
        let inner_end = open_end + bytes[open_end..].iter().take_while(|&&b| b != b'{' && b != b'}').count();
        let close = bytes[inner_end..].iter().take_while(|&&b| b == b'}').count();
        if close == 0 {
            // No match starts here; the braces that follow are each preceded by `{`.
            i = open_end;
            continue;
        }
        let end = inner_end + close;
        out.push_str(&template[copied..i]);
        out.push_str(&replacement(&template[i..end], &template[open_end..inner_end], state));
        (copied, i) = (end, end);
    }
    out.push_str(&template[copied..]);
    out
}

/// What one placeholder becomes (`_replace_match`).
fn replacement(whole: &str, inner: &str, state: &indexmap::IndexMap<String, Value>) -> String {
    let name = inner.trim();
    let (name, optional) = match name.strip_suffix('?') {
        Some(name) => (name, true),
        None => (name, false),
    };
    if name.starts_with("artifact.") {
        return if optional { String::new() } else { whole.to_string() };
    }
    if !is_state_name(name) {
        return whole.to_string();
    }
    match state.get(name) {
        Some(value) => python_str(value),
        None if optional => String::new(),
        None => whole.to_string(),
    }
}

/// `_is_valid_state_name`: an identifier, or `app:`, `user:` or `temp:` and one.
fn is_state_name(name: &str) -> bool {
    match name.split_once(':') {
        None => is_identifier(name),
        Some((prefix, rest)) => matches!(prefix, "app" | "user" | "temp") && is_identifier(rest),
    }
}

/// Python's `str()` of a state value (`None` is filled in as empty text).
fn python_str(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        _ => py_repr(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_is_filled_as_adk_fills_it() {
        let state: indexmap::IndexMap<String, Value> = serde_json::from_value(serde_json::json!({
            "user_name": "Ada", "n": 3, "flag": true, "none": null, "user:tier": "gold", "tags": ["a", "b's"]
        }))
        .expect("a JSON object");
        let template = "Hi {user_name}, {{n}} {flag} [{none}] {user:tier} {tags} {missing?}|{missing} {not a var} ${user_name} \\{user_name} {{ {x} {artifact.f?}{ n }";
        assert_eq!(
            inject_state(template, &state),
            "Hi Ada, 3 True [] gold ['a', \"b's\"] |{missing} {not a var} ${user_name} \\{user_name} {{ {x} 3"
        );
    }

    #[test]
    fn fill_replaces_only_named_fields() {
        assert_eq!(fill("a {agents} {other} {agent_names}", &[("agents", "X"), ("agent_names", "Y")]), "a X {other} Y");
    }
}
