//! CLAUDE053: a marketplace entry whose local source folder does not exist.

use crate::agent_files::{marketplace_source, FileKind};
use crate::project::ReadError;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_value, json_docs};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A marketplace plugin entry's relative `source` (`./plugins/x`) names a folder that does not exist in the repository, or leaves it.",
    why: "A relative `source` is resolved from the marketplace's root (the folder holding `.claude-plugin/`, or \
          `metadata.pluginRoot`); when the folder is not there — renamed, moved, never committed — installing the \
          plugin fails for every user of the marketplace. Source: https://code.claude.com/docs/en/plugin-marketplaces \
          (plugin sources: relative paths) and `anthropics/claude-code:.claude-plugin/marketplace.json`.",
    fails: Example {
        file: ".claude-plugin/marketplace.json",
        text: "{\n  \"name\": \"team-tools\",\n  \"owner\": {\"name\": \"Platform team\"},\n  \"plugins\": [{\"name\": \"review-helpers\", \"source\": \"./plugins/review-helper\"}]\n}\n",
    },
    passes: Example {
        file: ".claude-plugin/marketplace.json",
        text: "{\n  \"name\": \"team-tools\",\n  \"owner\": {\"name\": \"Platform team\"},\n  \"plugins\": [{\"name\": \"review-helpers\", \"source\": \"./plugins/review-helpers\"}]\n}\n",
    },
    notes: "Only relative string sources are checked (GitHub, git and URL sources are fetched elsewhere). Paths are \
            resolved inside the project only; one that leaves it is reported too.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudeMarketplace]) {
        let Ok(value) = &*json else { continue };
        let plugin_root = value.pointer("/metadata/pluginRoot").and_then(|p| p.as_str()).unwrap_or("");
        for (i, plugin) in value.get("plugins").and_then(|p| p.as_array()).into_iter().flatten().enumerate() {
            let Some(source) = plugin.get("source").and_then(|s| s.as_str()) else { continue };
            let Some(joined) = marketplace_source(&doc.rel, plugin_root, source) else { continue };
            let problem = match cx.root.normalize(&joined).and_then(|rel| cx.root.resolve(&rel).map(|p| (rel, p))) {
                Ok((_, path)) if path.is_dir() => continue,
                Ok((rel, _)) => format!("`{rel}` is not a folder"),
                Err(ReadError::Escapes(_)) => "it leads out of the project".to_string(),
                Err(ReadError::Missing(rel)) => format!("`{rel}` does not exist"),
                Err(e) => e.message(),
            };
            let d = Diagnostic::finding(format!("plugin source `{source}` cannot be installed: {problem}"))
                .help("point `source` at the plugin's folder, relative to the marketplace root and starting with `./`");
            findings.push(at_value(d, doc, &[Step::Key("plugins"), Step::Index(i), Step::Key("source")]));
        }
    }
    findings
}
