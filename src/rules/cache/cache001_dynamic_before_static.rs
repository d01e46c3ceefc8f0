//! CACHE001: a dynamic step placed before static steps.

use serde::Serialize;

use crate::manifest::model::StepKind;
use crate::rules::context::Run;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A dynamic step (time, profile, memories, resources, attachments, sandbox files, connector or MCP prompts) comes before static steps in the rendered prompt.",
    why: "Providers cache the longest byte-identical prefix of a prompt (OpenAI automatically, Anthropic at cache \
          breakpoints); cached input tokens cost a fraction and arrive faster. Everything after the first byte that \
          changes is re-sent uncached, so a timestamp placed before the skill catalogue makes the catalogue — and every \
          static step after it — uncacheable on every request. Later Deep Agents releases moved memory to the end of \
          the prompt for exactly this reason. The finding gives the stable prefix per mode: the tokens before the \
          first dynamic step.",
    fails: Example {
        file: "ctxc.toml",
        text: "[pipeline]\nsteps = [\n  { id = \"core\", kind = \"module\" },\n  { id = \"time\", kind = \"time\" },\n  { id = \"skills\", kind = \"skills\" },\n]\n",
    },
    passes: Example {
        file: "ctxc.toml",
        text: "[pipeline]\nsteps = [\n  { id = \"core\", kind = \"module\" },\n  { id = \"skills\", kind = \"skills\" },\n  { id = \"time\", kind = \"time\" },\n]\n",
    },
    notes: "`ctxc check --format json` reports the stable prefix of every mode and scenario under `agents[].prefixes`.",
    stage: Stage::Lint(check),
};

/// Steps whose text changes between requests.
pub fn is_dynamic(kind: StepKind) -> bool {
    kind == StepKind::Time || kind.is_scenario_data()
}

/// The cacheable prefix of one mode × scenario: the tokens before the first dynamic section.
/// Fields are in alphabetical order, as they appear in JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrefixSummary {
    /// Whether the counts are exact (false: an estimate).
    pub exact: bool,
    pub mode: String,
    /// The first dynamic step, where the stable prefix ends (`None` when the prompt has none).
    pub prefix_ends_at: Option<String>,
    pub scenario: String,
    pub stable_prefix_tokens: i64,
    pub system_prompt_tokens: i64,
}

/// The stable prefix of one mode × scenario.
pub fn prefix_summary(cx: &Context, run: &Run) -> PrefixSummary {
    let sections = &run.rendered.sections;
    let first_dynamic = sections.iter().position(|s| is_dynamic(s.kind));
    let stable_prefix_tokens = match first_dynamic {
        None => run.measured.system_prompt.tokens,
        Some(0) => 0,
        Some(i) => {
            let mut parts = Vec::with_capacity(2 * i);
            for (n, (section, cost)) in sections[..i].iter().zip(&run.measured.sections).enumerate() {
                if n > 0 {
                    let separator = run.rendered.separator_before(n);
                    parts.push((separator, cx.counter.count(cx.tokenizer, separator)));
                }
                parts.push((&*section.text, cost.tokens.tokens as usize));
            }
            cx.counter.count_concat(cx.tokenizer, &parts) as i64
        }
    };
    PrefixSummary {
        mode: run.rendered.mode.clone(),
        scenario: run.rendered.scenario.clone(),
        system_prompt_tokens: run.measured.system_prompt.tokens,
        stable_prefix_tokens,
        prefix_ends_at: first_dynamic.map(|i| sections[i].id.clone()),
        exact: run.measured.exact,
    }
}

/// The exact step entry that moves `id` after the last static step, and, when the order is a
/// preset's (the runtime's own), how to accept it instead.
fn move_help(cx: &Context, id: &str, last_static: &str) -> String {
    let yaml = cx.agent().is_some_and(|a| a.manifest.ends_with(".yaml") || a.manifest.ends_with(".yml"));
    let entry =
        if yaml { format!("{{ id: {id}, after: {last_static} }}") } else { format!("{{ id = \"{id}\", after = \"{last_static}\" }}") };
    let mut help = format!("to make the prefix cacheable, move `{id}` after the static steps: add `{entry}` to `[pipeline] steps`");
    let preset = cx.agent().and_then(|a| a.preset.as_deref());
    if let Some(preset) = preset.filter(|_| locate::step(cx, id) == locate::manifest_key(cx, "preset")) {
        help.push_str(&format!(
            "; this order is the `{preset}` preset's, as its runtime sends it: to keep modelling the runtime, accept it with `[lint] ignore = [\"CACHE001\"]`"
        ));
    }
    help
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    // Per offending dynamic step: (its id, the static steps after it, "mode: prefix of total" per mode).
    let mut offenders: Vec<(String, Vec<String>, Vec<String>)> = Vec::new();
    for run in cx.runs() {
        let sections = &run.rendered.sections;
        let Some(first) = sections.iter().position(|s| is_dynamic(s.kind)) else { continue };
        let after: Vec<String> = sections[first..].iter().filter(|s| !is_dynamic(s.kind)).map(|s| s.id.clone()).collect();
        if after.is_empty() {
            continue;
        }
        let summary = prefix_summary(cx, run);
        let approx = cx.approx();
        let line = format!(
            "{} {approx}{} of {approx}{}",
            run.rendered.mode,
            grouped(summary.stable_prefix_tokens),
            grouped(summary.system_prompt_tokens)
        );
        let id = sections[first].id.clone();
        match offenders.iter_mut().find(|(d, _, _)| *d == id) {
            Some((_, statics, modes)) => {
                for s in after {
                    if !statics.contains(&s) {
                        statics.push(s);
                    }
                }
                if !modes.iter().any(|m| m.split(' ').next() == Some(run.rendered.mode.as_str())) {
                    modes.push(line);
                }
            }
            None => offenders.push((id, after, vec![line])),
        }
    }
    offenders
        .into_iter()
        .map(|(id, statics, modes)| {
            let last_static = statics.last().cloned().unwrap_or_default();
            let statics = statics.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ");
            let d = Diagnostic::finding(format!(
                "dynamic step `{id}` comes before static steps {statics}, so the cacheable prefix ends at `{id}`; stable prefix per mode (tokens before it, of the system prompt): {}",
                modes.join(", ")
            ))
            .label("ends the cacheable prefix")
            .help(move_help(cx, &id, &last_static));
            locate::at(d, locate::step(cx, &id))
        })
        .collect()
}
