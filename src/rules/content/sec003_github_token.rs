//! SEC003: a GitHub token in the prompt's sources.

use crate::rules::prelude::*;
use crate::rules::secrets::{self, Kind};

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A file the prompt is built from contains what looks like a GitHub token (`ghp_…`, `gho_…`, `ghs_…`, `github_pat_…`).",
    why: "A token in the prompt grants whoever reads the prompt, its logs or the repository the token's access to your \
          repositories. ctxc shows only its first four characters.",
    fails: Example {
        file: "scenarios/connected/github-mcp-instructions.md",
        text: "Authenticate with ghp_Zx8Kq2Lm9Np4… before calling tools.\n",
    },
    passes: Example {
        file: "scenarios/connected/github-mcp-instructions.md",
        text: "The server is already authenticated; call tools directly.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    secrets::check(cx, Kind::GitHub)
}
