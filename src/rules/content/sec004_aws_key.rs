//! SEC004: an AWS access key id in the prompt's sources.

use crate::rules::prelude::*;
use crate::rules::secrets::{self, Kind};

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A file the prompt is built from contains what looks like an AWS access key id (`AKIA…`, `ASIA…`).",
    why: "An access key id is half of an AWS credential and usually travels with its secret. In a prompt it is sent to \
          the provider and logged; in the repository it is public to every reader. AWS's documented example key \
          (`AKIAIOSFODNN7EXAMPLE`) is not reported.",
    fails: Example {
        file: "skills/deploy/SKILL.md",
        text: "---\nname: deploy\ndescription: Deploy the site.\n---\nUse access key AKIAZ7Q3M5N2… with the deploy role.\n",
    },
    passes: Example {
        file: "skills/deploy/SKILL.md",
        text: "---\nname: deploy\ndescription: Deploy the site.\n---\nThe deploy role's credentials come from the CI environment.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    secrets::check(cx, Kind::Aws)
}
