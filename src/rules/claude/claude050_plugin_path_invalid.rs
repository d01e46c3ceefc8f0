//! CLAUDE050: a plugin component path that is not `./`-relative inside the plugin.

use crate::agent_files::FileKind;
use crate::rules::claude::component_paths;
use crate::rules::json_span::{at_value, json_docs};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A component path in `plugin.json` (`commands`, `agents`, `skills`, `hooks`, `mcpServers`, …) is absolute, climbs out with `..`, or does not start with `./`.",
    why: "A plugin is copied into Claude Code's plugin cache when installed, so its paths must be relative to the \
          plugin root and start with `./`; an absolute path or `../` points at something that is not in the copy \
          (it works on the author's machine only). Source: \
          `anthropics/claude-code:plugins/plugin-dev/skills/plugin-structure/references/manifest-reference.md` \
          (\"paths must be relative and start with ./\") and https://code.claude.com/docs/en/plugins-reference.",
    fails: Example { file: ".claude-plugin/plugin.json", text: "{\n  \"name\": \"review-helpers\",\n  \"commands\": [\"commands/review.md\", \"../shared/agents\"]\n}\n" },
    passes: Example { file: ".claude-plugin/plugin.json", text: "{\n  \"name\": \"review-helpers\",\n  \"commands\": [\"./commands/review.md\", \"./shared/agents\"]\n}\n" },
    notes: "Inline `hooks` and `mcpServers` objects are not paths and are not checked here. `${CLAUDE_PLUGIN_ROOT}/…` is accepted.",
    stage: Stage::Lint(check),
};

fn problem(path: &str) -> Option<&'static str> {
    if path.starts_with('/') || path.starts_with('~') || path.chars().nth(1) == Some(':') {
        Some("is absolute")
    } else if path.split(['/', '\\']).any(|p| p == "..") {
        Some("climbs out of the plugin with `..`")
    } else if !path.starts_with("./") && !path.starts_with("${CLAUDE_PLUGIN_ROOT}") {
        Some("does not start with `./`")
    } else {
        None
    }
}

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudePlugin]) {
        let Ok(value) = &*json else { continue };
        for (key, path, steps) in component_paths(value) {
            let Some(problem) = problem(path) else { continue };
            let d = Diagnostic::finding(format!("`{key}` path `{path}` {problem}"))
                .help("write paths relative to the plugin root, starting with `./` (e.g. `./commands/`)");
            findings.push(at_value(d, doc, &steps));
        }
    }
    findings
}
