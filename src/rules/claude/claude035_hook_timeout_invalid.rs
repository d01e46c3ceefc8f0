//! CLAUDE035: a hook `timeout` that is not a positive number of seconds.

use crate::rules::claude::{each_hook, hook_path};

use crate::rules::json_span::at_value;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A hook's `timeout` is zero, negative or not a number.",
    why: "`timeout` is how many seconds Claude Code lets a hook run before cancelling it (default 600 for commands). \
          Zero, a negative value or a string such as `\"30s\"` is not a timeout the settings schema accepts, so the \
          settings fail validation. Source: https://code.claude.com/docs/en/hooks (\"timeout: optional, in seconds\").",
    fails: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"./guard.sh\", \"timeout\": \"30s\"}]}\n    ]\n  }\n}\n",
    },
    passes: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"./guard.sh\", \"timeout\": 30}]}\n    ]\n  }\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    each_hook(cx, |doc, event, g, h, hook| {
        let Some(timeout) = hook.get("timeout") else { return };
        if timeout.as_f64().is_some_and(|t| t > 0.0) {
            return;
        }
        let d = Diagnostic::finding(format!("hook timeout `{timeout}` is not a positive number of seconds"))
            .help("write the timeout in seconds as a number, e.g. `\"timeout\": 30`");
        findings.push(at_value(d, doc, &hook_path(event, g, h, "timeout")));
    });
    findings
}
