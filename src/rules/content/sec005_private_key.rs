//! SEC005: a private key block in the prompt's sources.

use crate::rules::prelude::*;
use crate::rules::secrets::{self, Kind};

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A file the prompt is built from contains a PEM private key (`-----BEGIN … PRIVATE KEY-----`).",
    why: "A private key in a prompt is sent to the provider with every request and is readable by anyone with the \
          repository; it must be treated as leaked. ctxc never prints the key.",
    fails: Example {
        file: "scenarios/default/resources/server.md",
        text: "-----BEGIN OPENSSH PRIVATE KEY-----\n(key material)\n-----END OPENSSH PRIVATE KEY-----\n",
    },
    passes: Example { file: "scenarios/default/resources/server.md", text: "Connect with the deploy key configured in the SSH agent.\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    secrets::check(cx, Kind::PrivateKey)
}
