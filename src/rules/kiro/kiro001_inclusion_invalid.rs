//! KIRO001: a steering file's `inclusion` is not one of Kiro's inclusion modes.

use crate::rules::frontmatter::value_not_in;
use crate::rules::kiro::{inclusion_modes, steering};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A steering file's `inclusion` is not `always`, `fileMatch`, `auto` or `manual`.",
    why: "Kiro decides when a steering file enters the context from its `inclusion`: every request (`always`, the \
          default), when a matching file is in play (`fileMatch`), when its description fits the request (`auto`), or \
          when the user names it (`manual`). Another value (`file_match`, `Always`, `on-demand`) is none of these, so \
          the file is not included as its author meant. Source: kiro.dev/docs/steering.",
    fails: Example {
        file: ".kiro/steering/api.md",
        text: "---\ninclusion: filematch\nfileMatchPattern: \"api/**/*.ts\"\n---\nValidate every request body.\n",
    },
    passes: Example {
        file: ".kiro/steering/api.md",
        text: "---\ninclusion: fileMatch\nfileMatchPattern: \"api/**/*.ts\"\n---\nValidate every request body.\n",
    },
    notes: "The modes are case-sensitive (`fileMatch`).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let modes = inclusion_modes();
    let quoted: Vec<String> = modes.iter().map(|m| format!("`{m}`")).collect();
    let otherwise = match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("use {} or {last}", rest.join(", ")),
        _ => format!("use {}", quoted.concat()),
    };
    steering(cx)
        .filter_map(|doc| value_not_in(doc, "inclusion", &modes, |_| false, "a Kiro inclusion mode", "unknown mode", &otherwise))
        .collect()
}
