//! CURSOR020: a `.cursor/hooks.json` whose `version`, `hooks` or event lists are not the shape
//! Cursor reads.

use serde_json::Value;

use crate::agent_files::FileKind;
use crate::rules::cursor::cursor_values;
use crate::rules::json_span::{at_key, at_value, Step};
use crate::rules::prelude::*;
use crate::tools::json_kind;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A Cursor `.cursor/hooks.json` is not an object with a `hooks` object, its `version` is not `1`, or an event's hooks are not a list of objects.",
    why: "Cursor's hooks file is `{ \"version\": 1, \"hooks\": { \"<event>\": [ { \"command\": … }, … ] } }`: the `hooks` \
          object maps each event to a list of hook definitions, and `version` (1 by default) is the schema version. A \
          file without a `hooks` object, or an event whose value is a single object or a string rather than a list of \
          objects, defines no hook Cursor runs. Source: https://cursor.com/docs/agent/hooks (checked 2026-11-29), \
          \"Configuration\" and \"Global Configuration Options\".",
    fails: Example {
        file: ".cursor/hooks.json",
        text: "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": { \"command\": \".cursor/hooks/format.sh\" }\n  }\n}\n",
    },
    passes: Example {
        file: ".cursor/hooks.json",
        text: "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [{ \"command\": \".cursor/hooks/format.sh\" }]\n  }\n}\n",
    },
    notes: "The hooks of an event Cursor does not know are CURSOR021's finding alone; their list is not checked here.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let known = cursor_values("hook-events");
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::CursorHooks) {
        let json = doc.json();
        let Ok(value) = &*json else { continue };
        let finding = |message: String, label: &str, help: &str| Diagnostic::finding(message).label(label).help(help);
        let Value::Object(root) = value else {
            findings.push(at_value(
                finding(
                    format!("{} is {}, not an object", doc.rel, json_kind(value)),
                    "not an object",
                    "write `{ \"version\": 1, \"hooks\": { … } }`",
                ),
                doc,
                &[],
            ));
            continue;
        };
        match root.get("version") {
            None => {}
            Some(v) if v.as_f64() == Some(1.0) => {}
            Some(v) => findings.push(at_value(
                finding(format!("`version` is {v}; Cursor's hooks schema is version 1"), "not 1", "write `\"version\": 1`"),
                doc,
                &[Step::Key("version")],
            )),
        }
        let hooks = match root.get("hooks") {
            Some(Value::Object(hooks)) => hooks,
            Some(other) => {
                let message = format!("`hooks` is {}, not an object of events", json_kind(other));
                findings.push(at_value(
                    finding(message, "not an object", "map each event to a list: `\"hooks\": { \"stop\": [ … ] }`"),
                    doc,
                    &[Step::Key("hooks")],
                ));
                continue;
            }
            None => {
                let d = finding(
                    format!("{} has no `hooks` object: Cursor runs no hook from it", doc.rel),
                    "no `hooks`",
                    "add `\"hooks\": { \"<event>\": [{ \"command\": \"…\" }] }`",
                );
                findings.push(d.in_file(&doc.file).at(Some(0..0)));
                continue;
            }
        };
        for (event, list) in hooks.iter().filter(|(event, _)| known.contains(&event.as_str())) {
            let Value::Array(items) = list else {
                let message = format!("the hooks of `{event}` are {}, not a list", json_kind(list));
                findings.push(at_value(
                    finding(message, "not a list", "wrap the definition in a list: `[{ \"command\": \"…\" }]`"),
                    doc,
                    &[Step::Key("hooks"), Step::Key(event)],
                ));
                continue;
            };
            for (i, item) in items.iter().enumerate().filter(|(_, item)| !item.is_object()) {
                let message = format!("hook {} of `{event}` is {}, not an object", i + 1, json_kind(item));
                let help = "write each hook as an object: `{ \"command\": \"…\" }`";
                findings.push(at_key(
                    finding(message, "not an object", help),
                    doc,
                    &[Step::Key("hooks"), Step::Key(event), Step::Index(i)],
                ));
            }
        }
    }
    findings
}
