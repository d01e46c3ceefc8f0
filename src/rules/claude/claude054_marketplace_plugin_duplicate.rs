//! CLAUDE054: two marketplace entries with the same plugin name.

use crate::agent_files::FileKind;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_value, json_docs};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "Two entries in a marketplace's `plugins` list have the same `name`.",
    why: "A plugin is installed as `name@marketplace`, so names must be unique within a marketplace; with two entries \
          of one name only one can be installed, and which one depends on the order Claude Code reads them. Source: \
          https://code.claude.com/docs/en/plugin-marketplaces (plugin entries) and \
          `anthropics/claude-code:plugins/plugin-dev/skills/plugin-structure/references/manifest-reference.md`.",
    fails: Example {
        file: ".claude-plugin/marketplace.json",
        text: "{\n  \"name\": \"team-tools\",\n  \"owner\": {\"name\": \"Platform team\"},\n  \"plugins\": [\n    {\"name\": \"review\", \"source\": \"./plugins/review\"},\n    {\"name\": \"review\", \"source\": \"./plugins/review-v2\"}\n  ]\n}\n",
    },
    passes: Example {
        file: ".claude-plugin/marketplace.json",
        text: "{\n  \"name\": \"team-tools\",\n  \"owner\": {\"name\": \"Platform team\"},\n  \"plugins\": [\n    {\"name\": \"review\", \"source\": \"./plugins/review\"},\n    {\"name\": \"review-v2\", \"source\": \"./plugins/review-v2\"}\n  ]\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudeMarketplace]) {
        let Ok(value) = &*json else { continue };
        let names: Vec<Option<&str>> =
            value.get("plugins").and_then(|p| p.as_array()).into_iter().flatten().map(|p| p.get("name").and_then(|n| n.as_str())).collect();
        for (i, name) in names.iter().enumerate() {
            let Some(name) = name else { continue };
            if let Some(first) = names[..i].iter().position(|n| n == &Some(*name)) {
                let d = Diagnostic::finding(format!("plugin `{name}` is listed twice (also entry #{})", first + 1))
                    .help("give each plugin its own name");
                findings.push(at_value(d, doc, &[Step::Key("plugins"), Step::Index(i), Step::Key("name")]));
            }
        }
    }
    findings
}
