//! OPENCODE001: an OpenCode agent's `mode`, `color` or `tools` is not a value OpenCode accepts.

use crate::agent_files::{Doc, FileKind};
use crate::rules::frontmatter::value_not_in;
use crate::rules::opencode::{host, parsed, tools_is_a_map};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary:
        "An OpenCode agent's `mode` is not `subagent`, `primary` or `all`, its `color` is neither a `#rrggbb` code nor a theme color, or its `tools` is not a map of tool names to `true`/`false`.",
    why: "OpenCode checks an agent's frontmatter against its agent schema, which accepts three modes and, for \
          `color`, a six-digit hex code or one of the theme colors (`primary`, `accent`, `warning`…). A value outside \
          these fails the schema and OpenCode reports a configuration error instead of loading the agent. The deprecated \
          `tools` must be a map of tool names to booleans (`bash: false`): Claude Code's comma-separated string \
          (`tools: Read, Write`) fails the schema, and since the agent loader does not catch that error \
          (`ConfigParse.schema` throws `InvalidError`), OpenCode's whole configuration fails to load. Source: \
          `packages/core/src/v1/config/agent.ts` and `packages/opencode/src/config/{agent,parse}.ts` in \
          anomalyco/opencode (the commits in `data/hosts/opencode.toml`).",
    fails: Example {
        file: ".opencode/agents/review.md",
        text: "---\ndescription: Reviews a change for bugs\nmode: sub-agent\ncolor: \"#F5A\"\ntools: Read, Grep\n---\nRead the diff and list defects.\n",
    },
    passes: Example {
        file: ".opencode/agents/review.md",
        text: "---\ndescription: Reviews a change for bugs\nmode: subagent\ncolor: \"#FF55AA\"\n---\nRead the diff and list defects.\n",
    },
    notes: "The values are case-sensitive. A `tools` map that OpenCode accepts is still deprecated (OPENCODE003).",
    stage: Stage::Lint(check),
};

/// Whether `value` is a `#rrggbb` hex color.
fn is_hex_color(value: &str) -> bool {
    value.len() == 7 && value.starts_with('#') && value[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// The finding for a `tools` value that is not a map of booleans (the shape of the agent schema's
/// `tools`, named in `data/hosts/opencode.toml`).
fn tools_not_a_map(doc: &Doc) -> Option<Diagnostic> {
    let value = doc.field("tools")?;
    if tools_is_a_map(value) {
        return None;
    }
    let shown = value.as_str().map_or_else(|| value.to_string(), str::to_string);
    Some(
        Diagnostic::finding(format!("`tools: {shown}` is not a map of tool names to booleans: OpenCode's configuration fails to load"))
            .in_file(&doc.file)
            .at(doc.value_span("tools"))
            .label("rejected by OpenCode's agent schema")
            .help("give tool access with `permission:` (`bash: deny`, `edit: allow`), or write `tools:` as a map (`write: false`)"),
    )
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
        findings.extend(tools_not_a_map(doc));
    }
    findings
}
