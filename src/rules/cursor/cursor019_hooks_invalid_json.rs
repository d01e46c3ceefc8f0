//! CURSOR019: a `.cursor/hooks.json` that is not valid JSON.

use crate::agent_files::FileKind;
use crate::rules::json_span::json_syntax;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A Cursor `.cursor/hooks.json` is not valid JSON.",
    why: "Cursor reads its hooks from `hooks.json` (a project's `.cursor/hooks.json`, or `~/.cursor/hooks.json`); a file \
          that does not parse gives no hooks, so a hook meant to block a command or format an edit never runs. \
          Source: https://cursor.com/docs/agent/hooks (checked 2026-11-29).",
    fails: Example {
        file: ".cursor/hooks.json",
        text: "{\n  \"version\": 1\n  \"hooks\": {\n    \"afterFileEdit\": [{ \"command\": \".cursor/hooks/format.sh\" }]\n  }\n}\n",
    },
    passes: Example {
        file: ".cursor/hooks.json",
        text: "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [{ \"command\": \".cursor/hooks/format.sh\" }]\n  }\n}\n",
    },
    notes: "The other rules on `.cursor/hooks.json` skip a file that does not parse.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    json_syntax(cx, &[FileKind::CursorHooks])
}
