//! CLAUDE033: a hook without a valid `type`.

use crate::rules::claude::{each_hook, hook_path};

use crate::rules::json_span::at_key;
use crate::rules::prelude::*;

const TYPES: [&str; 5] = ["command", "prompt", "agent", "http", "mcp_tool"];

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A hook has no `type`, or one that is not `command`, `prompt`, `agent`, `http` or `mcp_tool`.",
    why: "Every hook names its kind: `command` runs a shell command, `prompt` and `agent` ask a model, `http` posts \
          to a URL, `mcp_tool` calls an MCP tool. Without a known `type` Claude Code cannot run the hook, and the \
          settings fail validation. Source: https://code.claude.com/docs/en/hooks (hook types).",
    fails: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"shell\", \"command\": \"npm run lint\"}]}\n    ]\n  }\n}\n",
    },
    passes: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"npm run lint\"}]}\n    ]\n  }\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_hook(cx, |doc, event, g, h, hook| {
        let message = match hook.get("type") {
            Some(serde_json::Value::String(t)) if TYPES.contains(&t.as_str()) => return,
            Some(serde_json::Value::String(t)) => format!("hook type `{t}` is not `command`, `prompt`, `agent`, `http` or `mcp_tool`"),
            Some(_) => "hook `type` is not a string".to_string(),
            None => format!("hook #{} of `{event}` has no `type`", h + 1),
        };
        let path = hook_path(event, g, h, "type");
        let d = Diagnostic::finding(message).help("add `\"type\": \"command\"` for a shell command hook");
        findings.push(match hook.get("type") {
            Some(_) => at_key(d, doc, &path),
            None => at_key(d, doc, &path[..5]),
        });
    });
    findings
}
