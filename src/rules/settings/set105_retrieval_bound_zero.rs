//! SET105: memory retrieval bounded to nothing.

use crate::manifest::model::StepKind;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The pipeline has a `memories` step, but `[memory.retrieval] top_k` or `max_chars` is 0, so no memory can ever be shown.",
    why: "A bound of zero turns the memories step off in every scenario while it still looks configured; usually a value \
          meant for a test was committed.",
    fails: Example { file: "ctxc.toml", text: "[memory.retrieval]\ntop_k = 0\nmax_chars = 2000\n" },
    passes: Example { file: "ctxc.toml", text: "[memory.retrieval]\ntop_k = 5\nmax_chars = 2000\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let Some(agent) = cx.agent().filter(|_| cx.has_step(StepKind::Memories)) else { return Vec::new() };
    let r = &agent.settings.retrieval;
    [("top_k", r.top_k), ("max_chars", r.max_chars)]
        .into_iter()
        .filter(|(_, v)| *v == 0)
        .map(|(key, _)| {
            let d = Diagnostic::finding(format!("memory retrieval `{key}` is 0: the memories step can never show a memory"))
                .label("zero")
                .help("set a positive bound, or remove the memories step");
            locate::at(d, locate::manifest_key(cx, key))
        })
        .collect()
}
