//! SET104: summarization keeps more messages than the history holds.

use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "`[summarization] keep_messages` is larger than `[history] max_messages`.",
    why: "Summarization keeps the last N messages verbatim, but the history only ever holds `max_messages` of them \
          (Zeus: 30 kept, 5 preserved). Keeping more than the history holds means the setting never does what it says, \
          and usually one of the two numbers was changed without the other.",
    fails: Example { file: "ctxc.toml", text: "[history]\nmax_messages = 30\n\n[summarization]\nkeep_messages = 40\n" },
    passes: Example { file: "ctxc.toml", text: "[history]\nmax_messages = 30\n\n[summarization]\nkeep_messages = 5\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let Some(agent) = cx.agent() else { return Vec::new() };
    let (Some(keep), Some(history)) = (agent.settings.summarization_keep, agent.settings.history_messages) else { return Vec::new() };
    if keep <= history {
        return Vec::new();
    }
    let d = Diagnostic::finding(format!("summarization keeps the last {keep} messages, but the history holds at most {history}"))
        .label("more than the history holds")
        .help("keep fewer messages than `[history] max_messages`");
    vec![locate::at(d, locate::manifest_key(cx, "keep_messages"))]
}
