//! SET103: retrieval ranking weights that do not add up to 1.

use crate::manifest::model::StepKind;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The ranking weights of retrieved memories (`[memory.retrieval] weights`: similarity, confidence, scope) are negative or do not add up to 1.",
    why: "The rank is a weighted sum (Zeus: 0.5 × similarity + 0.3 × confidence + 0.2 × scope priority). Weights that do \
          not add up to 1 change what the score means, and a slip such as 0.5 / 0.3 / 0.3 quietly favours one factor; a \
          negative weight ranks the best matches last.",
    fails: Example { file: "ctxc.toml", text: "[memory.retrieval]\nweights = { similarity = 0.5, confidence = 0.3, scope = 0.3 }\n" },
    passes: Example { file: "ctxc.toml", text: "[memory.retrieval]\nweights = { similarity = 0.5, confidence = 0.3, scope = 0.2 }\n" },
    notes: "Checked only when the pipeline has a `memories` step.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let Some(agent) = cx.agent().filter(|_| cx.has_step(StepKind::Memories)) else { return Vec::new() };
    let r = &agent.settings.retrieval;
    let weights = [r.weight_similarity, r.weight_confidence, r.weight_scope];
    let sum: f64 = weights.iter().sum();
    let problem = if weights.iter().any(|w| *w < 0.0) {
        "include a negative weight".to_string()
    } else if (sum - 1.0).abs() > 1e-6 {
        format!("add up to {sum}")
    } else {
        return Vec::new();
    };
    let d = Diagnostic::finding(format!(
        "memory ranking weights (similarity {}, confidence {}, scope {}) {problem}, not 1",
        r.weight_similarity, r.weight_confidence, r.weight_scope
    ))
    .label("weights")
    .help("use non-negative weights that add up to 1");
    vec![locate::at(d, locate::manifest_key(cx, "weights"))]
}
