//! CLAUDE036: a hook timeout that looks like milliseconds.

use crate::diagnostic::{Edit, Fix};
use crate::rules::claude::{each_hook, hook_path};
use crate::rules::json_span::place;
use crate::rules::prelude::*;

/// Seconds; a hook allowed to run this long was almost always meant in milliseconds.
const SUSPICIOUS: f64 = 1000.0;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A hook's `timeout` is 1000 or more — seconds, so over 16 minutes; it was probably meant in milliseconds.",
    why: "Hook timeouts are in seconds (default 600). `\"timeout\": 5000` lets a hung hook block the session for \
          83 minutes instead of 5 seconds, and `30000` for over 8 hours. Source: https://code.claude.com/docs/en/hooks \
          (\"timeout: optional, in seconds\").",
    fails: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"./guard.sh\", \"timeout\": 5000}]}\n    ]\n  }\n}\n",
    },
    passes: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"./guard.sh\", \"timeout\": 5}]}\n    ]\n  }\n}\n",
    },
    notes: "For a multiple of 1000 the attached fix (unsafe: it changes the limit) divides the value by 1000.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_hook(cx, |doc, event, g, h, hook| {
        let Some(seconds) = hook.get("timeout").and_then(|t| t.as_f64()).filter(|t| *t >= SUSPICIOUS) else { return };
        let span = place(doc, &hook_path(event, g, h, "timeout")).map(|p| p.value);
        let minutes = (seconds / 60.0).round();
        let mut d = Diagnostic::finding(format!(
            "hook timeout is {} seconds ({minutes} minutes); timeouts are in seconds, not milliseconds",
            grouped(seconds)
        ))
        .in_file(&doc.file)
        .at(span.clone())
        .help(format!("if you meant {} seconds, write that", grouped(seconds / 1000.0)));
        if let (Some(span), true) = (span, seconds % 1000.0 == 0.0) {
            let fixed = (seconds / 1000.0) as u64;
            d = d.fix(Fix::unsafe_(format!("write {fixed} (seconds)"), vec![Edit::replace(&doc.file, span, fixed.to_string())]));
        }
        findings.push(d);
    });
    findings
}
