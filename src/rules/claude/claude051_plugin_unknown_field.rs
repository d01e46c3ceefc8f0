//! CLAUDE051: a plugin manifest field Claude Code does not read.

use crate::agent_files::FileKind;
use crate::diagnostic::did_you_mean;
use crate::rules::claude::read_fields;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_key, json_docs};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary:
        "A `plugin.json` has a field the plugin manifest does not define (such as `category`, which belongs in the marketplace entry).",
    why: "Claude Code reads a fixed set of manifest fields (metadata such as `name`, `version`, `author`, `license`, \
          and component paths such as `commands`, `agents`, `hooks`, `mcpServers`); anything else is ignored. \
          Marketplace fields (`category`, `source`, `tags`) have an effect only in the marketplace entry. Source: \
          `anthropics/claude-code:plugins/plugin-dev/skills/plugin-structure/references/manifest-reference.md` and \
          https://code.claude.com/docs/en/plugins-reference (plugin manifest schema).",
    fails: Example { file: ".claude-plugin/plugin.json", text: "{\n  \"name\": \"review-helpers\",\n  \"category\": \"development\"\n}\n" },
    passes: Example {
        file: ".claude-plugin/plugin.json",
        text: "{\n  \"name\": \"review-helpers\",\n  \"keywords\": [\"development\"]\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let fields = read_fields(FileKind::ClaudePlugin);
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudePlugin]) {
        let Ok(serde_json::Value::Object(map)) = &*json else { continue };
        for key in map.keys().filter(|k| !fields.contains(&k.as_str())) {
            let help = match (key.as_str(), did_you_mean(key, fields.iter().copied())) {
                ("category" | "source" | "tags" | "strict", _) => {
                    "it is a marketplace entry field: set it in the marketplace's `plugins` list".to_string()
                }
                (_, Some(s)) => format!("did you mean `{s}`?"),
                _ => "remove it".to_string(),
            };
            findings.push(at_key(
                Diagnostic::finding(format!("`{key}` is not a plugin manifest field; it is ignored")).help(help).groupable(),
                doc,
                &[Step::Key(key)],
            ));
        }
    }
    findings
}
