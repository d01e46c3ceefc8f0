//! Stage 2: resolve a mode and scenario. Decides, for one (mode, scenario), which steps are on
//! and why, and which tools are callable and why not.

use serde::Serialize;

use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::manifest::model::*;

/// Whether a step contributes to this mode and scenario, and what decided it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepDecision {
    pub step: usize,
    pub id: String,
    pub kind: StepKind,
    pub enabled: bool,
    pub reason: String,
}

/// One tool's status in this mode and scenario.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolDecision {
    pub name: String,
    pub category: String,
    /// `read` or `write`.
    pub access: &'static str,
    pub enabled: bool,
    /// Why the tool is not callable; `None` when enabled.
    pub reason: Option<String>,
    /// Listed in the prompt as unavailable (mode setting `disabled_tools = "placeholder"`).
    pub placeholder: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Resolved<'a> {
    pub agent: &'a Agent,
    pub mode: &'a Mode,
    pub scenario: &'a Scenario,
    pub steps: Vec<StepDecision>,
    pub tools: Vec<ToolDecision>,
}

/// Why a mode or scenario name could not be resolved.
pub fn unknown_name(agent: &str, what: &str, name: &str, known: Vec<&str>) -> Diagnostic {
    let mut d = Diagnostic::error(format!("agent `{agent}` has no {what} `{name}`"));
    d = d.help(match crate::diagnostic::did_you_mean(name, known.iter().copied()) {
        Some(s) => format!("did you mean `{s}`?"),
        None => format!("{what}s: {}", known.join(", ")),
    });
    d
}

/// The scenario used when none is named: `default` if declared, else the first.
pub fn default_scenario(agent: &Agent) -> &str {
    if agent.scenarios.contains_key("default") {
        "default"
    } else {
        agent.scenarios.keys().next().map_or("default", String::as_str)
    }
}

pub fn resolve<'a>(agent: &'a Agent, mode: &str, scenario: Option<&str>) -> Result<Resolved<'a>, Diagnostics> {
    let Some(mode) = agent.modes.get(mode) else {
        return Err(vec![unknown_name(&agent.name, "mode", mode, agent.modes.keys().map(String::as_str).collect())]);
    };
    let scenario_name = scenario.unwrap_or_else(|| default_scenario(agent));
    let Some(scenario) = agent.scenarios.get(scenario_name) else {
        return Err(vec![unknown_name(&agent.name, "scenario", scenario_name, agent.scenarios.keys().map(String::as_str).collect())]);
    };
    let mut diagnostics = Vec::new();
    let context = condition_context(mode, scenario);
    let mut evaluate = |condition: &Condition| -> bool {
        match eval_condition(condition, &context) {
            Ok(value) => value,
            Err(d) => {
                diagnostics.push(d);
                false
            }
        }
    };
    let tools = decide_tools(agent, mode, scenario, &mut evaluate);
    let steps = agent
        .steps
        .iter()
        .map(|step| {
            let (enabled, reason) = decide_step(agent, step, mode, scenario, &tools, &mut evaluate);
            StepDecision { step: step.number, id: step.id.clone(), kind: step.kind, enabled, reason }
        })
        .collect();
    if diagnostics.is_empty() {
        Ok(Resolved { agent, mode, scenario, steps, tools })
    } else {
        Err(diagnostics)
    }
}

fn condition_context(mode: &Mode, scenario: &Scenario) -> minijinja::Value {
    minijinja::context! {
        mode => mode.name,
        scenario => scenario.name,
        flags => scenario.flags,
        connectors => scenario.connectors,
        mcp_servers => scenario.mcp_servers.keys().collect::<Vec<_>>(),
        oauth => scenario.oauth,
    }
}

fn eval_condition(condition: &Condition, context: &minijinja::Value) -> Result<bool, Diagnostic> {
    let env = crate::templates::environment();
    let fail = |e: minijinja::Error| {
        Diagnostic::error(format!("cannot evaluate condition `{}`: {}", condition.expr, e.detail().unwrap_or("error")))
            .code(Code::MAN006)
            .in_file(&condition.origin.file)
            .at(condition.origin.span.clone())
    };
    let (value, spent) = crate::templates::within_limits(|| env.compile_expression(&condition.expr).and_then(|expr| expr.eval(context)));
    match spent {
        // A spent budget fails the condition even where its value came out.
        Some(spent) => {
            Err(crate::templates::over_budget(spent).code(Code::MAN006).in_file(&condition.origin.file).at(condition.origin.span.clone()))
        }
        None => value.map(|v| v.is_true()).map_err(fail),
    }
}

fn decide_tools(agent: &Agent, mode: &Mode, scenario: &Scenario, evaluate: &mut impl FnMut(&Condition) -> bool) -> Vec<ToolDecision> {
    // One decision per tool: room for all of them at once (an MCP server may list thousands).
    let mut decisions = Vec::with_capacity(agent.categories.iter().map(|c| c.tools.len()).sum());
    for category in &agent.categories {
        let category_off =
            category.when.as_ref().filter(|c| !evaluate(c)).map(|c| format!("category `{}` is off: `{}` is false", category.name, c.expr));
        let access = mode.access.get(&category.name).cloned().unwrap_or(Access::Level(AccessLevel::All));
        for tool in &category.tools {
            let mut placeholder = false;
            let reason = if let Some(off) = &category_off {
                Some(off.clone())
            } else if let Some(server) = tool.server.as_ref().filter(|s| !scenario.mcp_servers.contains_key(*s)) {
                Some(format!("MCP server `{server}` is not enabled in scenario `{}`", scenario.name))
            } else if let Some(app) = tool.app.as_ref().filter(|a| !scenario.oauth.contains(a)) {
                Some(format!("OAuth app `{app}` is not authorized in scenario `{}`", scenario.name))
            } else {
                let denied = match &access {
                    Access::Level(AccessLevel::All) => None,
                    Access::Level(AccessLevel::Disabled) => Some(format!("`{}` is disabled in {} mode", category.name, mode.name)),
                    Access::Level(AccessLevel::ReadOnly) => {
                        tool.writes.then(|| format!("writes, and {} mode gives `{}` read-only access", mode.name, category.name))
                    }
                    Access::Only(allowed) => (!allowed.contains(&tool.tool.name))
                        .then(|| format!("not among the `{}` tools {} mode allows", category.name, mode.name)),
                };
                placeholder = denied.is_some() && mode.disabled_tools == DisabledTools::Placeholder;
                denied
            };
            decisions.push(ToolDecision {
                name: tool.tool.name.clone(),
                category: category.name.clone(),
                access: if tool.writes { "write" } else { "read" },
                enabled: reason.is_none(),
                reason,
                placeholder,
                server: tool.server.clone(),
            });
        }
    }
    decisions
}

/// Expands the `steps` row of the runtime table (`src/runtimes/mod.rs`).
macro_rules! runtime_steps {
    ($($runtime:ident { $($kind:ident: $missing:ident, $text:ident $(, $present:ident)?;)* })*) => {
        /// Why a runtime's own step kind adds nothing here (`None` when it adds text, and for
        /// the generic kinds, which [`decide_step`] decides).
        fn runtime_step_missing(step: &Step, agent: &Agent, scenario: &Scenario) -> Option<String> {
            match step.kind {
                $($(StepKind::$kind => crate::runtimes::$runtime::steps::$missing(step, agent, scenario),)*)*
                _ => None,
            }
        }

        /// Why a runtime's own step kind adds its text, when its runtime says more than "always".
        fn runtime_step_present(step: &Step, agent: &Agent, scenario: &Scenario) -> Option<String> {
            match step.kind {
                $($($(StepKind::$kind => Some(crate::runtimes::$runtime::steps::$present(step, agent, scenario)),)?)*)*
                _ => None,
            }
        }
    };
}
crate::runtimes::runtime_table!(steps runtime_steps);

fn decide_step(
    agent: &Agent,
    step: &Step,
    mode: &Mode,
    scenario: &Scenario,
    tools: &[ToolDecision],
    evaluate: &mut impl FnMut(&Condition) -> bool,
) -> (bool, String) {
    if let Some(condition) = &step.when {
        if !evaluate(condition) {
            return (false, format!("`{}` is false", condition.expr));
        }
    }
    let s = &scenario.name;
    let missing = match step.kind {
        StepKind::ModePrompt if mode.prompt.is_none() => Some(format!("{} mode has no prompt", mode.name)),
        StepKind::ToolList if !tools.iter().any(|t| t.enabled || t.placeholder) => Some("no tool is enabled".to_string()),
        StepKind::Skills if agent.skills.is_empty() => Some("the agent has no skills".to_string()),
        StepKind::MemoryFiles if agent.memory_files.is_empty() => Some("no memory files are configured".to_string()),
        StepKind::ConnectorPrompts if scenario.connectors.is_empty() => Some(format!("scenario `{s}` connects no connector")),
        StepKind::McpPrompts if !scenario.mcp_servers.values().any(Option::is_some) => {
            Some(format!("scenario `{s}` enables no MCP server with a prompt"))
        }
        StepKind::Profile if scenario.profile.is_none() => Some(format!("scenario `{s}` has no profile")),
        StepKind::Memories if scenario.memories.is_empty() => Some(format!("scenario `{s}` retrieves no memories")),
        StepKind::Resources if scenario.resources.is_empty() => Some(format!("scenario `{s}` has no resources")),
        StepKind::SandboxFiles if scenario.sandbox_files.is_empty() => Some(format!("scenario `{s}` has no sandbox files")),
        StepKind::Attachments if scenario.attachments.is_empty() => Some(format!("scenario `{s}` has no attachments")),
        StepKind::Middleware => agent.undeclared_module(step).map(|m| format!("module `{m}` is not declared, so this step adds no text")),
        _ => runtime_step_missing(step, agent, scenario),
    };
    match (missing, &step.when) {
        (Some(reason), _) => (false, reason),
        (None, Some(condition)) => (true, format!("`{}` is true", condition.expr)),
        (None, None) if step.kind.is_scenario_data() => (true, format!("provided by scenario `{s}`")),
        (None, None) => (true, runtime_step_present(step, agent, scenario).unwrap_or_else(|| "always".to_string())),
    }
}
