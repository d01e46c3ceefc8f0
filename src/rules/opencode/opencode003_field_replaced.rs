//! OPENCODE003: an OpenCode agent or command sets a field OpenCode has deprecated or overwrites.

use crate::agent_files::FileKind;
use crate::hosts::Status;
use crate::rules::opencode::{parsed, spec, tools_is_a_map};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An OpenCode agent sets the deprecated `tools` or `maxSteps`, or an agent or command sets `prompt` or `template`, which the body overwrites.",
    why: "OpenCode's agent schema marks `tools` as deprecated in favour of `permission` and `maxSteps` in favour of \
          `steps`; both still work, translated on load, until they are removed. In a Markdown file the body is the \
          prompt: OpenCode sets an agent's `prompt` and a command's `template` from it after reading the frontmatter, \
          so those keys are discarded. Source: `packages/core/src/v1/config/agent.ts`, \
          `packages/opencode/src/config/agent.ts` and `command.ts` in anomalyco/opencode (the commits in \
          `data/hosts/opencode.toml`).",
    fails: Example {
        file: ".opencode/agents/build.md",
        text: "---\ndescription: Builds features\nmaxSteps: 40\ntools:\n  bash: false\n---\nImplement the plan.\n",
    },
    passes: Example {
        file: ".opencode/agents/build.md",
        text: "---\ndescription: Builds features\nsteps: 40\npermission:\n  bash: deny\n---\nImplement the plan.\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for kind in [FileKind::OpencodeAgent, FileKind::OpencodeCommand] {
        let groups: Vec<_> = spec(kind).fields.iter().filter(|g| matches!(g.status, Status::Deprecated | Status::Removed)).collect();
        for doc in parsed(cx, kind) {
            for group in &groups {
                let instead = group.replaced_by.as_deref().unwrap_or("the documented field");
                // A `tools` OpenCode rejects is OPENCODE001's error, not a deprecation.
                let reported = |n: &str| doc.field(n).is_some_and(|v| n != "tools" || tools_is_a_map(v));
                for name in group.names.iter().filter(|n| reported(n)) {
                    let (message, label) = match group.status {
                        Status::Deprecated => (format!("`{name}` is deprecated in OpenCode"), "deprecated field"),
                        _ => (format!("`{name}` is overwritten by the Markdown body"), "discarded by OpenCode"),
                    };
                    let help = match group.status {
                        Status::Deprecated => format!("use `{instead}` instead"),
                        _ => format!("move its text into {instead} and delete the field"),
                    };
                    findings.push(Diagnostic::finding(message).in_file(&doc.file).at(doc.key_span(name)).label(label).help(help));
                }
            }
        }
    }
    findings
}
