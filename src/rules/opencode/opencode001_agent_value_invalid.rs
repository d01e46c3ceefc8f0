//! OPENCODE001: an OpenCode agent's `mode` or `color` is not a value OpenCode accepts.

use crate::agent_files::FileKind;
use crate::rules::frontmatter::value_not_in;
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
    let (modes, colors) = (host().values("agent-modes"), host().values("agent-theme-colors"));
    let listed = |values: &[&str]| values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ");
    let mode_help = format!("use one of {}", listed(&modes));
    let color_help = format!("write a `#rrggbb` hex code or one of {}", listed(&colors));
    let (label, mut findings) = ("rejected by OpenCode's agent schema", Vec::new());
    for doc in parsed(cx, FileKind::OpencodeAgent) {
        findings.extend(value_not_in(doc, "mode", &modes, |_| false, "an OpenCode agent mode", label, &mode_help));
        findings.extend(value_not_in(doc, "color", &colors, is_hex_color, "an OpenCode agent color", label, &color_help));
    }
    findings
}
