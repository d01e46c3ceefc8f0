//! SEC002: an Anthropic API key in the prompt's sources.

use crate::rules::prelude::*;
use crate::rules::secrets::{self, Kind};

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A file the prompt is built from contains what looks like an Anthropic API key (`sk-ant-api03-…`).",
    why: "A key in the prompt is sent to the provider on every request, kept in logs, and can be coaxed out of the \
          model; in the repository it is readable by everyone with access. ctxc shows only its first four characters.",
    fails: Example { file: "AGENTS.md", text: "Use ANTHROPIC_API_KEY=sk-ant-api03-Zx8Kq2Lm… for the integration tests.\n" },
    passes: Example {
        file: "AGENTS.md",
        text: "The integration tests read ANTHROPIC_API_KEY from the environment; never paste keys here.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    secrets::check(cx, Kind::Anthropic)
}
