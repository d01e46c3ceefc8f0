//! OPENHANDS001: microagent frontmatter that is not valid YAML.

use crate::agent_files::FileKind;
use crate::rules::frontmatter::frontmatter_error;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An OpenHands microagent's frontmatter is not valid YAML, or is never closed.",
    why: "OpenHands reads microagents with `python-frontmatter`; a YAML error raises while loading, and the loader \
          stops with \"Error loading microagent from <file>\", so this microagent (and, in the V0 loader, the rest \
          of the folder) is not loaded. Source: All-Hands-AI/OpenHands:openhands/microagent/microagent.py@156d0686.",
    fails: Example {
        file: ".openhands/microagents/docker.md",
        text: "---\nname: docker\ntriggers: [docker, container\n---\nUse multi-stage builds.\n",
    },
    passes: Example {
        file: ".openhands/microagents/docker.md",
        text: "---\nname: docker\ntriggers: [docker, container]\n---\nUse multi-stage builds.\n",
    },
    notes: "Other OpenHands rules skip a file whose frontmatter does not parse.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    cx.files_of(FileKind::OpenHandsMicroagent)
        .filter_map(|d| frontmatter_error(d, "fix the YAML; OpenHands does not load a microagent whose frontmatter fails to parse"))
        .collect()
}
