//! CLAUDE059: a plugin component path that names nothing in the plugin.

use crate::agent_files::FileKind;
use crate::rules::claude::component_paths;
use crate::rules::json_span::{at_value, json_docs};
use crate::rules::prelude::*;
use crate::rules::refs::{self, Resolved};

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A component path in `plugin.json` (`commands`, `agents`, `hooks`, `mcpServers`, …) names a file or folder that is not in the plugin.",
    why: "Claude Code loads a plugin's components from the paths its manifest gives; a path to nothing (a renamed \
          folder, a file never committed) loads nothing, and the plugin installs without the commands, agents or \
          hooks it promises. Source: https://code.claude.com/docs/en/plugins-reference (component path fields).",
    fails: Example {
        file: "review/.claude-plugin/plugin.json",
        text: "{\n  \"name\": \"review\",\n  \"agents\": [\"./roles\"]\n}\n\n// review/agents/ holds the agents; review/roles/ does not exist\n",
    },
    passes: Example {
        file: "review/.claude-plugin/plugin.json",
        text: "{\n  \"name\": \"review\",\n  \"agents\": [\"./agents\"]\n}\n\n// review/agents/ holds the agents\n",
    },
    notes: "Only `./`-relative paths are looked up, from the folder holding `.claude-plugin/` (a path that is \
            absolute or climbs out is CLAUDE050's); inline `hooks` and `mcpServers` objects are not paths. The \
            component fields are those of Claude Code's host model (docs/hosts.md).",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudePlugin]) {
        let (Ok(value), Some(plugin)) = (&*json, &doc.plugin) else { continue };
        for (key, path, steps) in component_paths(value) {
            let Some(inner) = path.strip_prefix("./").filter(|p| !p.split('/').any(|part| part == "..")) else { continue };
            let Resolved::Missing(rel) = refs::resolve(cx, &plugin.rel, inner) else { continue };
            let d = Diagnostic::finding(format!("`{key}` path `{path}` names nothing: `{rel}` does not exist"))
                .help("point it at the plugin's file or folder (paths are relative to the folder holding `.claude-plugin/`), or remove it");
            findings.push(at_value(d, doc, &steps));
        }
    }
    findings
}
