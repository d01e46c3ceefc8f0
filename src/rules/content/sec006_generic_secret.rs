//! SEC006: a high-entropy value assigned to a key, token, secret or password.

use crate::rules::prelude::*;
use crate::rules::secrets::{self, Kind};

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A file the prompt is built from assigns a random-looking value to something named like a credential (`api_key`, `token`, `secret`, `password`, `client_secret`, …).",
    why: "Not every credential has a recognisable prefix. A long random value right after `password:` or `api_key =` is \
          almost always a real one, and a prompt is the worst place for it: it is sent with every request and logged. \
          ctxc shows only its first four characters.",
    fails: Example { file: "prompts/tools.md", text: "Use the internal search with api_key = \"9f8Kq2Lm4Np7…\".\n" },
    passes: Example { file: "prompts/tools.md", text: "Use the internal search; the gateway adds credentials.\n" },
    notes: "The value must be at least 16 characters of letters, digits and `+/_-.=`, contain both letters and digits, and \
            have at least 3.5 bits of entropy per character; values that look like placeholders (`your-…`, `xxxx`, \
            `example`, `${…}`, `<…>`) and keys another SEC rule reports are skipped.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    secrets::check(cx, Kind::Generic)
}
