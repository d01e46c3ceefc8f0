//! SET101: a summarization trigger outside (0, 1).

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "`[summarization] trigger_ratio` is not between 0 and 1 (exclusive): summarization would never fire, or fire always.",
    why: "The trigger is a share of the model's max input tokens (Zeus and Deep Agents summarize at 0.85). At 1 or above \
          the window overflows before summarization fires, so requests fail instead of being compacted; at 0 or below \
          every turn is summarized.",
    fails: Example { file: "ctxc.toml", text: "[summarization]\ntrigger_ratio = 85  # meant 85 %\n" },
    passes: Example { file: "ctxc.toml", text: "[summarization]\ntrigger_ratio = 0.85\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let Some(agent) = cx.agent() else { return Vec::new() };
    let Some(ratio) = agent.settings.summarization_trigger else { return Vec::new() };
    if ratio > 0.0 && ratio < 1.0 {
        return Vec::new();
    }
    let d = Diagnostic::finding(format!(
        "summarization trigger_ratio {ratio} is not a share of the window between 0 and 1: {}",
        if ratio >= 1.0 { "the window overflows before summarization fires" } else { "every turn would be summarized" }
    ))
    .label("must be in (0, 1)")
    .help("write the trigger as a fraction of max input tokens, e.g. 0.85 for 85 %");
    let place = match &agent.settings.summarization_trigger_origin {
        Some(origin) => (origin.file.clone(), origin.span.clone()),
        None => locate::manifest_key(cx, "trigger_ratio"),
    };
    vec![locate::at(d, place)]
}
