//! The `[adk]` section: where the agent sits in its ADK agent tree, which decides what
//! `transfer_to_agent` offers (`flows/llm_flows/extensions/_agent_transfer.py`,
//! `_get_transfer_targets`, google-adk 2.13.0). The flags default to `LlmAgent`'s own (`false`).
//! `[adk.compaction]` is the App's `events_compaction_config` (`apps/_configs.py`,
//! `EventsCompactionConfig`): off unless set, as in ADK, and checked as ADK's model checks it.

use std::sync::Arc;

#[cfg(test)]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::provenance::{Provenance, Section};
use crate::runtimes::{AddedTool, AgentFacts};
use crate::tools::Tool;

/// Where ADK's `transfer_to_agent` declaration is, beside the manifest: ADK's own text, which
/// ctxc does not ship (its `enum` is set to the agent's transfer targets).
pub const TRANSFER_TOOL_FILE: &str = "upstream/transfer-tool.json";

/// The module the parent line of the transfer instruction comes from (`{parent}` filled in).
pub const PARENT_MODULE: &str = "transfer_to_parent";

/// `[adk]` as written.
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
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
    /// The App's `events_compaction_config` (`EventsCompactionConfig`). Default: none (no
    /// compaction).
    #[serde(default)]
    pub compaction: Option<RawCompaction>,
}

/// `[adk.compaction]` as written: `EventsCompactionConfig`'s two triggers, each a pair set
/// together.
#[derive(Debug, Clone, Default, Deserialize)]
#[cfg_attr(test, derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RawCompaction {
    /// Sliding window: compact once this many new invocations have completed (> 0).
    #[serde(default)]
    pub compaction_interval: Option<i64>,
    /// Sliding window: how many invocations before the new ones each summary also covers (≥ 0).
    #[serde(default)]
    pub overlap_size: Option<i64>,
    /// Token threshold: compact when the last prompt token count reached this (> 0).
    #[serde(default)]
    pub token_threshold: Option<i64>,
    /// Token threshold: how many of the latest events stay raw (≥ 0).
    #[serde(default)]
    pub event_retention_size: Option<i64>,
}

/// The validated `[adk.compaction]`: at least one trigger.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Compaction {
    /// `compaction_interval` and `overlap_size`.
    pub sliding_window: Option<(u64, u64)>,
    /// `token_threshold` and `event_retention_size`.
    pub token_threshold: Option<(u64, u64)>,
}

/// Another agent of the tree, as the transfer instruction names it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[cfg_attr(test, derive(JsonSchema))]
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
    /// `None`: the App has no `events_compaction_config`.
    pub compaction: Option<Compaction>,
}

/// ADK offers `transfer_to_agent` before the agent's tools when it has agents to transfer to.
pub fn added_tool(settings: &Settings) -> Option<AddedTool> {
    (!settings.targets().is_empty()).then_some(AddedTool {
        category: "adk_transfer",
        title: "ADK's agent transfer",
        file: TRANSFER_TOOL_FILE,
        first: true,
    })
}

/// `transfer_to_agent` with its agent names limited to the transfer targets.
pub fn shape_tool(settings: &Settings, tool: &Arc<Tool>) -> Arc<Tool> {
    settings.transfer_tool(tool)
}

/// `[adk]` validated, its problems reported at the key they are about (else its table).
pub fn validate(m: &mut Provenance, section: Section<'_, RawAdk>, agent: &AgentFacts) -> Settings {
    let (settings, problems) = check(section.merged, agent.name);
    for (key, problem) in problems {
        // The key, else the nearest table holding it.
        let span = (1..=key.len()).rev().find_map(|n| m.locate_key(&key[..n]));
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
    let compaction = raw.compaction.as_ref().and_then(|c| compaction(c, &mut problems));
    let settings = Settings {
        compaction,
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

/// `[adk.compaction]` checked as `EventsCompactionConfig` checks it (`Field(gt=0)`, `ge=0`, and
/// `_validate_trigger_params`): `None` when ADK refuses it.
fn compaction(raw: &RawCompaction, problems: &mut Vec<(&'static [&'static str], String)>) -> Option<Compaction> {
    const INTERVAL: &[&str] = &["adk", "compaction", "compaction_interval"];
    const OVERLAP: &[&str] = &["adk", "compaction", "overlap_size"];
    const THRESHOLD: &[&str] = &["adk", "compaction", "token_threshold"];
    const RETENTION: &[&str] = &["adk", "compaction", "event_retention_size"];
    let before = problems.len();
    let mut bounded = |key: &'static [&'static str], value: Option<i64>, least: i64| {
        let value = value?;
        if value < least {
            let bound = if least == 1 { "greater than 0" } else { "0 or more" };
            problems.push((key, format!("`{}` must be {bound} (ADK refuses {value})", key[2])));
            return None;
        }
        Some(value as u64)
    };
    let interval = bounded(INTERVAL, raw.compaction_interval, 1);
    let overlap = bounded(OVERLAP, raw.overlap_size, 0);
    let threshold = bounded(THRESHOLD, raw.token_threshold, 1);
    let retention = bounded(RETENTION, raw.event_retention_size, 0);
    let pair = |a: Option<i64>, b: Option<i64>, keys: (&'static [&'static str], &'static [&'static str])| match (a, b) {
        (Some(_), None) => Some((keys.1, format!("`{}` and `{}` must be set together (ADK refuses one alone)", keys.0[2], keys.1[2]))),
        (None, Some(_)) => Some((keys.0, format!("`{}` and `{}` must be set together (ADK refuses one alone)", keys.0[2], keys.1[2]))),
        _ => None,
    };
    problems.extend(pair(raw.token_threshold, raw.event_retention_size, (THRESHOLD, RETENTION)));
    problems.extend(pair(raw.compaction_interval, raw.overlap_size, (INTERVAL, OVERLAP)));
    if raw.token_threshold.is_none() && raw.compaction_interval.is_none() {
        problems.push((
            &["adk", "compaction"][..],
            "[adk.compaction] needs a trigger: `compaction_interval` with `overlap_size`, or `token_threshold` with `event_retention_size` (ADK refuses neither)"
                .to_string(),
        ));
    }
    if problems.len() > before {
        return None;
    }
    Some(Compaction { sliding_window: interval.zip(overlap), token_threshold: threshold.zip(retention) })
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
