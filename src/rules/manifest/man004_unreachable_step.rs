//! MAN004: a pipeline step that no mode and scenario ever enables.

use crate::manifest::model::{Step, StepKind};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A pipeline step contributes nothing in every mode and scenario the manifest declares.",
    why: "A step that never renders is dead configuration: usually a condition that names the wrong mode, a flag no \
          scenario sets, or a module file left empty. Its budget and its text are never checked against what the model \
          sees. Steps that carry scenario data (profile, memories, resources, …) are reported only when their \
          condition is false everywhere, since a scenario simply may not provide the data.",
    fails: Example {
        file: "ctxc.toml",
        text: "[pipeline]\nsteps = [\n  { id = \"core\", kind = \"module\" },\n  { id = \"review\", kind = \"module\", when = \"mode == 'reviw'\" },\n]\n\n[modes.edit]\n[modes.review]\n",
    },
    passes: Example {
        file: "ctxc.toml",
        text: "[pipeline]\nsteps = [\n  { id = \"core\", kind = \"module\" },\n  { id = \"review\", kind = \"module\", when = \"mode == 'review'\" },\n]\n\n[modes.edit]\n[modes.review]\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn condition_false(step: &Step, reason: &str) -> bool {
    step.when.as_ref().is_some_and(|c| reason == format!("`{}` is false", c.expr))
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let (Some(agent), runs) = (cx.agent(), cx.runs()) else { return Vec::new() };
    if runs.is_empty() {
        return Vec::new();
    }
    let mut findings = Vec::new();
    for step in &agent.steps {
        let decisions: Vec<_> = runs.iter().filter_map(|r| r.rendered.steps.iter().find(|d| d.step == step.number)).collect();
        if decisions.iter().any(|d| d.enabled) {
            continue;
        }
        if step.kind.is_scenario_data() && !decisions.iter().all(|d| condition_false(step, &d.reason)) {
            continue;
        }
        // The AgentScope preset's workspace step is meant to stay off for agents without a workspace.
        if step.kind == StepKind::Workspace && agent.systems.agentscope.as_ref().is_some_and(|a| a.workspace.is_none()) {
            continue;
        }
        if crate::runtimes::adk::steps::off_by_design(step, agent) {
            continue;
        }
        let mut reasons: Vec<&str> = decisions.iter().map(|d| d.reason.as_str()).collect();
        reasons.sort();
        reasons.dedup();
        let shown = reasons.iter().take(3).map(|r| r.to_string()).collect::<Vec<_>>().join("; ");
        let more = if reasons.len() > 3 { format!("; and {} more reasons", reasons.len() - 3) } else { String::new() };
        let d = Diagnostic::finding(format!(
            "step `{}` is never enabled in any mode or scenario ({} renders): {shown}{more}",
            step.id,
            runs.len()
        ))
        .label("never enabled")
        .help("fix its `when` condition or its source, add a scenario that enables it, or remove the step");
        findings.push(locate::at(d, locate::step(cx, &step.id)));
    }
    findings
}
