//! The `[adk]` section: where the agent sits in its ADK agent tree, which decides what
//! `transfer_to_agent` offers (`flows/llm_flows/extensions/_agent_transfer.py`,
//! `_get_transfer_targets`, google-adk 2.13.0). The flags default to `LlmAgent`'s own (`false`).

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::provenance::{Provenance, Section};
use crate::runtimes::AgentFacts;
use crate::tools::Tool;

/// Where ADK's `transfer_to_agent` declaration is, beside the manifest: ADK's own text, which
/// ctxc does not ship (its `enum` is set to the agent's transfer targets).
pub const TRANSFER_TOOL_FILE: &str = "upstream/transfer-tool.json";

/// The module the parent line of the transfer instruction comes from (`{parent}` filled in).
pub const PARENT_MODULE: &str = "transfer_to_parent";

/// `[adk]` as written.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAdk {
    /// The agent's `sub_agents`, in order: each one's `name` and `description`.
    #[serde(default)]
    pub sub_agents: Vec<RawAgentRef>,
    /// The agent's parent, when it is itself a sub-agent.
    #[serde(default)]
    pub parent: Option<RawAgentRef>,
    /// The parent's other sub-agents, in order (transfer targets unless
    /// `disallow_transfer_to_peers`).
    #[serde(default)]
    pub peers: Vec<RawAgentRef>,
    /// `LlmAgent.disallow_transfer_to_parent`. Default: false.
    #[serde(default)]
    pub disallow_transfer_to_parent: bool,
    /// `LlmAgent.disallow_transfer_to_peers`. Default: false.
    #[serde(default)]
    pub disallow_transfer_to_peers: bool,
}

/// Another agent of the tree, as the transfer instruction names it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAgentRef {
    /// The agent's `name`.
    pub name: String,
    /// The agent's `description` (default: empty, as ADK's).
    #[serde(default)]
    pub description: String,
}

/// The validated `[adk]` section.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Settings {
    pub sub_agents: Vec<RawAgentRef>,
    pub parent: Option<RawAgentRef>,
    pub peers: Vec<RawAgentRef>,
    pub disallow_transfer_to_parent: bool,
    pub disallow_transfer_to_peers: bool,
}

/// `[adk]` validated, its problems reported at the key they are about (else its table).
pub fn validate(m: &mut Provenance, section: Section<'_, RawAdk>, agent: &AgentFacts) -> Settings {
    let (settings, problems) = check(section.merged, agent.name);
    for (key, problem) in problems {
        let span = m.locate_key(key).or_else(|| m.locate_key(&key[..1]));
        m.error(problem, span);
    }
    settings
}

/// `[adk]` checked with the agent's `name`: the settings, and what is wrong with them (ADK
/// refuses an agent tree with these when it builds it: `BaseAgent.validate_name`, unique
/// sub-agent names), each with the manifest key it is about.
pub fn check(raw: Option<&RawAdk>, name: &str) -> (Settings, Vec<(&'static [&'static str], String)>) {
    let raw = raw.cloned().unwrap_or_default();
    let mut problems = Vec::new();
    let mut seen = Vec::new();
    let own = RawAgentRef { name: name.to_string(), description: String::new() };
    let tree = raw.sub_agents.iter().map(|a| (&["adk", "sub_agents"][..], a)).chain(raw.peers.iter().map(|a| (&["adk", "peers"][..], a)));
    let all = std::iter::once((&["agent", "name"][..], &own)).chain(tree).chain(raw.parent.iter().map(|a| (&["adk", "parent"][..], a)));
    for (key, agent) in all {
        if !is_identifier(&agent.name) || agent.name == "user" {
            problems.push((key, format!("`{}` is not a valid ADK agent name (a Python identifier, not `user`)", agent.name)));
        } else if seen.contains(&agent.name.as_str()) {
            problems.push((key, format!("agent name `{}` is used twice in the agent tree", agent.name)));
        }
        seen.push(&agent.name);
    }
    if raw.parent.is_none() && !raw.peers.is_empty() {
        problems.push((&["adk", "peers"][..], "`peers` are the parent's other sub-agents: set `parent` too".to_string()));
    }
    let settings = Settings {
        sub_agents: raw.sub_agents,
        parent: raw.parent,
        peers: raw.peers,
        disallow_transfer_to_parent: raw.disallow_transfer_to_parent,
        disallow_transfer_to_peers: raw.disallow_transfer_to_peers,
    };
    (settings, problems)
}

impl Settings {
    /// The agents `transfer_to_agent` offers, in ADK's order: sub-agents, the parent, peers.
    pub fn targets(&self) -> Vec<&RawAgentRef> {
        let mut targets: Vec<&RawAgentRef> = self.sub_agents.iter().collect();
        if let Some(parent) = &self.parent {
            if !self.disallow_transfer_to_parent {
                targets.push(parent);
            }
            if !self.disallow_transfer_to_peers {
                targets.extend(&self.peers);
            }
        }
        targets
    }

    /// The parent the instruction says to fall back to (`_build_transfer_instructions`).
    pub fn parent_to_name(&self) -> Option<&RawAgentRef> {
        self.parent.as_ref().filter(|_| !self.disallow_transfer_to_parent)
    }

    /// ADK's `transfer_to_agent` declaration (`base`, from [`TRANSFER_TOOL_FILE`]) with its
    /// `agent_name` limited to the targets, as `TransferToAgentTool._get_declaration` sets it.
    pub fn transfer_tool(&self, base: &Tool) -> Arc<Tool> {
        let mut tool = Tool::new(base.name.clone(), base.description.clone(), base.parameters.clone(), base.read_only);
        tool.response = base.response.clone();
        tool.response_json_schema = base.response_json_schema.clone();
        tool.parameters_json_schema = base.parameters_json_schema;
        tool.no_parameters = base.no_parameters;
        let names: Vec<Value> = self.targets().iter().map(|t| Value::String(t.name.clone())).collect();
        if let Some(agent_name) = tool.parameters.pointer_mut("/properties/agent_name").and_then(Value::as_object_mut) {
            agent_name.insert("enum".into(), Value::Array(names));
        }
        Arc::new(tool)
    }
}

/// Python's `str.isidentifier` for the names ADK accepts (Unicode letters, digits, `_`).
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_') && chars.all(|c| c.is_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(name: &str) -> RawAgentRef {
        RawAgentRef { name: name.into(), description: String::new() }
    }

    #[test]
    fn targets_follow_adk_order_and_flags() {
        let raw = RawAdk { sub_agents: vec![agent("b")], parent: Some(agent("root")), peers: vec![agent("p")], ..Default::default() };
        let (settings, problems) = check(Some(&raw), "me");
        assert!(problems.is_empty(), "{problems:?}");
        let names = |s: &Settings| s.targets().iter().map(|t| t.name.clone()).collect::<Vec<_>>();
        assert_eq!(names(&settings), ["b", "root", "p"]);
        let no_parent = Settings { disallow_transfer_to_parent: true, disallow_transfer_to_peers: true, ..settings };
        assert_eq!(names(&no_parent), ["b"]);
        assert!(no_parent.parent_to_name().is_none());
    }

    #[test]
    fn bad_trees_are_refused() {
        let raw =
            RawAdk { sub_agents: vec![agent("me"), agent("not valid"), agent("user")], peers: vec![agent("x")], ..Default::default() };
        let (_, problems) = check(Some(&raw), "me");
        assert_eq!(problems.len(), 4, "{problems:?}");
        let (_, problems) = check(None, "my-agent");
        assert_eq!(
            problems,
            [(&["agent", "name"][..], "`my-agent` is not a valid ADK agent name (a Python identifier, not `user`)".to_string())]
        );
    }
}
