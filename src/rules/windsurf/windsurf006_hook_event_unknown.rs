//! WINDSURF006: a `.windsurf/hooks.json` event Cascade does not run hooks on.

use crate::agent_files::FileKind;
use crate::diagnostic::did_you_mean;
use crate::rules::json_span::{at_key, Step};
use crate::rules::prelude::*;
use crate::rules::windsurf::host;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "A key of a Windsurf `.windsurf/hooks.json`'s `hooks` is not an event Cascade runs hooks on (often a Cursor or Claude Code event name).",
    why: "Cascade looks a hook up by the action it runs before or after, in snake_case (`pre_run_command`, \
          `post_write_code`, `pre_user_prompt`…); hooks under any other key, such as Claude Code's `PreToolUse` or \
          Cursor's `beforeShellExecution`, never run and nothing says so, so a guard meant to block a command lets it \
          through. Source: https://docs.windsurf.com/windsurf/cascade/hooks (checked 2026-11-29); the list is \
          Windsurf's host model, `data/hosts/windsurf.toml`.",
    fails: Example {
        file: ".windsurf/hooks.json",
        text: "{\n  \"hooks\": {\n    \"PreToolUse\": [{ \"command\": \"python3 .windsurf/guard.py\" }]\n  }\n}\n",
    },
    passes: Example {
        file: ".windsurf/hooks.json",
        text: "{\n  \"hooks\": {\n    \"pre_run_command\": [{ \"command\": \"python3 .windsurf/guard.py\" }]\n  }\n}\n",
    },
    notes: "A file that is not JSON, or whose `hooks` is not an object, is left alone: Windsurf does not document how it \
            reads either. Windsurf adds events over time; one newer than ctxc's host model is reported until the model \
            lists it.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let known = host().values("hook-events");
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::WindsurfHooks) {
        let json = doc.json();
        let Ok(serde_json::Value::Object(root)) = &*json else { continue };
        let Some(serde_json::Value::Object(hooks)) = root.get("hooks") else { continue };
        for event in hooks.keys().filter(|e| !known.contains(&e.as_str())) {
            let help = match did_you_mean(event, known.iter().copied()) {
                Some(k) => format!("did you mean `{k}`?"),
                None => format!("use one of Cascade's events: {}", known.join(", ")),
            };
            let finding = Diagnostic::finding(format!("`{event}` is not a Windsurf hook event: its hooks never run"))
                .label("unknown event")
                .help(help);
            findings.push(at_key(finding, doc, &[Step::Key("hooks"), Step::Key(event)]));
        }
    }
    findings
}
