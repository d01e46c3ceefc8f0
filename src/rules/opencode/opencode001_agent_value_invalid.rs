//! OPENCODE001: an OpenCode agent's `mode` or `color` is not a value OpenCode accepts.

use crate::agent_files::FileKind;
use crate::diagnostic::did_you_mean;
use crate::rules::opencode::{host, parsed};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary:
        "An OpenCode agent's `mode` is not `subagent`, `primary` or `all`, or its `color` is neither a `#rrggbb` code nor a theme color.",
    why: "OpenCode checks an agent's frontmatter against its agent schema, which accepts three modes and, for \
          `color`, a six-digit hex code or one of the theme colors (`primary`, `accent`, `warning`…). A value outside \
          these fails the schema and OpenCode reports a configuration error instead of loading the agent. Source: \
          `packages/core/src/v1/config/agent.ts` in anomalyco/opencode (the commit in `data/hosts/opencode.toml`).",
    fails: Example {
        file: ".opencode/agents/review.md",
        text: "---\ndescription: Reviews a change for bugs\nmode: sub-agent\ncolor: \"#F5A\"\n---\nRead the diff and list defects.\n",
    },
    passes: Example {
        file: ".opencode/agents/review.md",
        text: "---\ndescription: Reviews a change for bugs\nmode: subagent\ncolor: \"#FF55AA\"\n---\nRead the diff and list defects.\n",
    },
    notes: "The values are case-sensitive.",
    stage: Stage::Lint(check),
};

/// Whether `value` is a `#rrggbb` hex color.
fn is_hex_color(value: &str) -> bool {
    value.len() == 7 && value.starts_with('#') && value[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let modes = host().values("agent-modes");
    let colors = host().values("agent-theme-colors");
    let mut findings = Vec::new();
    for doc in parsed(cx, FileKind::OpencodeAgent) {
        for (key, accepted) in [("mode", &modes), ("color", &colors)] {
            let Some(value) = doc.field(key) else { continue };
            let written = value.as_str();
            if written.is_some_and(|v| accepted.contains(&v) || (key == "color" && is_hex_color(v))) {
                continue;
            }
            let shown = written.map_or_else(|| value.to_string(), str::to_string);
            let listed = accepted.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ");
            let help = match written.and_then(|v| did_you_mean(v, accepted.iter().copied())) {
                Some(s) => format!("did you mean `{s}`?"),
                None if key == "color" => format!("write a `#rrggbb` hex code or one of {listed}"),
                None => format!("use one of {listed}"),
            };
            findings.push(
                Diagnostic::finding(format!("`{key}: {shown}` is not a value OpenCode accepts for an agent's `{key}`"))
                    .in_file(&doc.file)
                    .at(doc.value_span(key))
                    .label("rejected by OpenCode's agent schema")
                    .help(help),
            );
        }
    }
    findings
}
