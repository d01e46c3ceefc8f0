//! CURSOR023: a project hook's script path written relative to `.cursor/`, where Cursor does not
//! look for it.

use crate::rules::cursor::{definitions, hook_lists};
use crate::rules::json_span::{string_part, Step};
use crate::rules::prelude::*;
use crate::rules::refs::{resolve, Resolved};

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A command in a project's `.cursor/hooks.json` names a script by a path relative to `.cursor/` (`./hooks/x.sh`), but the script is only there: project hooks run from the project root.",
    why: "Cursor runs a project's hooks from the project root and a user's (`~/.cursor/hooks.json`) from `~/.cursor/`; \
          its examples use `./hooks/…`, which is right for user hooks. Copied into a project, `./hooks/format.sh` \
          names `<project>/hooks/format.sh`: the command fails, and Cursor lets the action go on (or, for \
          `beforeReadFile` and `beforeMCPExecution`, blocks every read or MCP call). Source: \
          https://cursor.com/docs/agent/hooks (checked 2026-11-29), \"Configuration\".",
    fails: Example {
        file: ".cursor/hooks.json",
        text: "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [{ \"command\": \"./hooks/format.sh\" }]\n  }\n}\n",
    },
    passes: Example {
        file: ".cursor/hooks.json",
        text: "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [{ \"command\": \".cursor/hooks/format.sh\" }]\n  }\n}\n",
    },
    notes: "Reported only when the path names no file from the project root and an existing file from `.cursor/` (the failing example needs `.cursor/hooks/format.sh` beside it). A dotfiles repository whose `.cursor/` is a user's `~/.cursor/` runs its hooks from `~/.cursor/`: suppress the rule for that file.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    hook_lists(cx, |doc, list| {
        // The project root is the folder that holds `.cursor/`.
        let cursor_dir = doc.rel.strip_suffix("/hooks.json").unwrap_or(&doc.rel);
        let root = cursor_dir.strip_suffix(".cursor").unwrap_or("").trim_end_matches('/');
        for (i, hook) in definitions(&list) {
            let Some(command) = hook.get("command").and_then(|c| c.as_str()) else { continue };
            for (at, word) in relative_paths(command) {
                let (Resolved::Missing(missing), Resolved::Exists(found)) = (resolve(cx, root, word), resolve(cx, cursor_dir, word)) else {
                    continue;
                };
                let path = [Step::Key("hooks"), Step::Key(list.event), Step::Index(i), Step::Key("command")];
                findings.push(
                    Diagnostic::finding(format!("`{word}` is read from the project root, where there is no `{missing}`: project hooks run from there, not from `.cursor/`"))
                        .in_file(&doc.file)
                        .at(string_part(doc, &path, command, at..at + word.len()))
                        .label("relative to the project root")
                        .help(format!("write the path from the project root: `{found}`")),
                );
            }
        }
    });
    findings
}

/// The words of a command that are relative file paths (`./x`, `../x`, `dir/x`), with their byte
/// offsets: not options, variables, URLs, absolute or home paths.
fn relative_paths(command: &str) -> impl Iterator<Item = (usize, &str)> {
    command.split_ascii_whitespace().filter_map(move |word| {
        let at = word.as_ptr() as usize - command.as_ptr() as usize;
        let path = word.contains('/') && !word.starts_with(['/', '~', '$', '-', '"', '\'']) && !word.contains(['$', '=', ':', '*', '`']);
        path.then_some((at, word))
    })
}
