//! CLAUDE052: a marketplace manifest without its required fields.

use crate::agent_files::FileKind;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_key, json_docs};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A `.claude-plugin/marketplace.json` lacks `name`, `owner` or `plugins`, or a plugin entry lacks `name` or `source`.",
    why: "`/plugin marketplace add` reads the marketplace's `name` (the `@marketplace` part of every plugin id), its \
          `owner` and its `plugins` list; each entry needs a `name` and a `source` saying where to fetch the plugin. \
          A marketplace missing one of these cannot be added, and an entry missing one cannot be installed. Source: \
          https://code.claude.com/docs/en/plugin-marketplaces (marketplace schema; required fields) and the real \
          example `anthropics/claude-code:.claude-plugin/marketplace.json`.",
    fails: Example { file: ".claude-plugin/marketplace.json", text: "{\n  \"name\": \"team-tools\",\n  \"owner\": {\"name\": \"Platform team\"},\n  \"plugins\": [{\"name\": \"review-helpers\"}]\n}\n" },
    passes: Example {
        file: ".claude-plugin/marketplace.json",
        text: "{\n  \"name\": \"team-tools\",\n  \"owner\": {\"name\": \"Platform team\"},\n  \"plugins\": [{\"name\": \"review-helpers\", \"source\": \"./plugins/review-helpers\"}]\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudeMarketplace]) {
        let Ok(value) = &*json else { continue };
        for key in ["name", "owner", "plugins"] {
            if value.get(key).is_none() {
                findings.push(
                    Diagnostic::finding(format!("marketplace {} has no `{key}`", doc.rel))
                        .in_file(&doc.file)
                        .at(Some(0..1))
                        .help("a marketplace needs `name`, `owner` ({\"name\": …}) and a `plugins` list"),
                );
            }
        }
        for (i, plugin) in value.get("plugins").and_then(|p| p.as_array()).into_iter().flatten().enumerate() {
            for key in ["name", "source"].into_iter().filter(|k| plugin.get(k).is_none()) {
                let label = plugin.get("name").and_then(|n| n.as_str()).map_or_else(|| format!("#{}", i + 1), |n| format!("`{n}`"));
                let d = Diagnostic::finding(format!("marketplace plugin entry {label} has no `{key}`"))
                    .help("each entry needs `name` and `source` (a `./` path in this repository or an object such as {\"source\": \"github\", \"repo\": \"owner/repo\"})");
                findings.push(at_key(d, doc, &[Step::Key("plugins"), Step::Index(i)]));
            }
        }
    }
    findings
}
