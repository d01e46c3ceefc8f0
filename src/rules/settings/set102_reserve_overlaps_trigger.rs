//! SET102: the response reserve does not fit above the summarization trigger.

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The response reserve is at or above what the summarization trigger leaves free: trigger × window + reserve is more than the window.",
    why: "Summarization keeps the context below the trigger; the reserve is the room the answer needs on top of it. If \
          the reserve does not fit between the trigger and the end of the window (say a 0.9 trigger with a 20 % \
          reserve), a context just under the trigger plus a full answer overflows the window, and the request fails \
          instead of being summarized first. Lower the trigger or the reserve.",
    fails: Example { file: "ctxc.toml", text: "[summarization]\ntrigger_ratio = 0.9\n\n[budgets]\nresponse_reserve = 0.2\n" },
    passes: Example { file: "ctxc.toml", text: "[summarization]\ntrigger_ratio = 0.75\n\n[budgets]\nresponse_reserve = 0.2\n" },
    notes: "Without `budgets.response_reserve`, the reserve is the model's max output tokens, capped at a quarter of the window.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let Some(agent) = cx.agent() else { return Vec::new() };
    let Some(run) = cx.runs().first() else { return Vec::new() };
    let w = &run.measured.window;
    let (Some(at), Some(ratio)) = (w.summarization_at, w.summarization_ratio) else { return Vec::new() };
    if !(ratio > 0.0 && ratio < 1.0) || at + w.response_reserve <= w.max_input_tokens {
        return Vec::new();
    }
    let d = Diagnostic::finding(format!(
        "the response reserve ({} tokens, {}) does not fit above the summarization trigger ({} tokens = {:.0} % of {}): a context just under the trigger plus the answer needs {} tokens",
        grouped(w.response_reserve),
        w.response_reserve_source,
        grouped(at),
        ratio * 100.0,
        grouped(w.max_input_tokens),
        grouped(at + w.response_reserve)
    ))
    .label("reserve and trigger overlap")
    .help(format!("keep trigger_ratio + reserve share at or below 1 (here the trigger can be at most {:.2})", 1.0 - w.response_reserve as f64 / w.max_input_tokens as f64));
    let place = match (&agent.budgets.response_reserve_origin, &agent.settings.summarization_trigger_origin) {
        (Some(o), _) | (None, Some(o)) => (o.file.clone(), o.span.clone()),
        (None, None) => locate::manifest_key(cx, "trigger_ratio"),
    };
    vec![locate::at(d, place)]
}
