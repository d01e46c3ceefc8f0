//! CLAUDE032: a `hooks` block not shaped as event → matcher groups → hooks.

use serde_json::Value;

use crate::rules::claude::{hook_docs, hook_events};
use crate::rules::json_span::at_key;
use crate::rules::json_span::Step;
use crate::rules::prelude::*;
use crate::tools::json_kind;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "The `hooks` setting is not an object of events, each a list of matcher groups holding a `hooks` list.",
    why: "Claude Code reads hooks in three levels: `\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": \
          [{\"type\": \"command\", \"command\": \"…\"}]}]}`. A hook placed directly in the event's list (without the \
          group and its inner `hooks` array), or an event given an object instead of a list, is not registered: \
          the settings fail validation and the hook never runs. Source: https://code.claude.com/docs/en/hooks \
          (configuration structure).",
    fails: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\"type\": \"command\", \"command\": \"npx prettier --write .\"}\n    ]\n  }\n}\n",
    },
    passes: Example {
        file: ".claude/settings.json",
        text: "{\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\"matcher\": \"Edit|Write\", \"hooks\": [{\"type\": \"command\", \"command\": \"npx prettier --write .\"}]}\n    ]\n  }\n}\n",
    },
    notes: "A key that is not a hook event is CLAUDE030's finding alone: its value is not checked here, so one bad key \
            gives one finding.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    let known = hook_events();
    for (doc, json) in hook_docs(cx) {
        let Some(hooks) = json.as_ref().as_ref().ok().and_then(|v| v.get("hooks")) else { continue };
        let error = |message: String, path: &[Step]| {
            at_key(
                Diagnostic::finding(message)
                    .help("write `\"Event\": [{\"matcher\": \"…\", \"hooks\": [{\"type\": \"command\", \"command\": \"…\"}]}]`"),
                doc,
                path,
            )
        };
        let Value::Object(events) = hooks else {
            findings.push(error(format!("`hooks` is {}, not an object of hook events", json_kind(hooks)), &[Step::Key("hooks")]));
            continue;
        };
        for (event, groups) in events.iter().filter(|(event, _)| known.contains(&event.as_str())) {
            let Value::Array(groups) = groups else {
                findings.push(error(
                    format!("`{event}` is {}, not a list of matcher groups", json_kind(groups)),
                    &[Step::Key("hooks"), Step::Key(event)],
                ));
                continue;
            };
            for (g, group) in groups.iter().enumerate() {
                let path = [Step::Key("hooks"), Step::Key(event), Step::Index(g)];
                let problem = match group.get("hooks") {
                    _ if !group.is_object() => Some(format!("is {}, not a matcher group", json_kind(group))),
                    Some(Value::Array(_)) => None,
                    Some(other) => Some(format!("has `hooks` as {}, not a list", json_kind(other))),
                    None if group.get("command").is_some() || group.get("type").is_some() => {
                        Some("is a hook placed directly in the event's list; wrap it in `{\"hooks\": [ … ]}`".to_string())
                    }
                    None => Some("has no `hooks` list".to_string()),
                };
                if let Some(problem) = problem {
                    findings.push(error(format!("matcher group #{} of `{event}` {problem}", g + 1), &path));
                }
            }
        }
    }
    findings
}
