//! CLAUDE047: a plugin manifest without a name.

use crate::agent_files::FileKind;
use crate::rules::json_span::json_docs;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A `.claude-plugin/plugin.json` has no `name` string.",
    why: "`name` is the one required field of a plugin manifest: it identifies the plugin (`name@marketplace`) and \
          namespaces its commands and agents. A manifest without it fails validation and the plugin cannot be \
          installed. Source: `anthropics/claude-code:plugins/plugin-dev/skills/plugin-structure/references/manifest-reference.md` \
          (\"name: required\") and https://code.claude.com/docs/en/plugins-reference.",
    fails: Example { file: ".claude-plugin/plugin.json", text: "{\n  \"description\": \"Review helpers\",\n  \"version\": \"1.0.0\"\n}\n" },
    passes: Example {
        file: ".claude-plugin/plugin.json",
        text: "{\n  \"name\": \"review-helpers\",\n  \"description\": \"Review helpers\",\n  \"version\": \"1.0.0\"\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudePlugin]) {
        let Ok(value) = &*json else { continue };
        if value.get("name").and_then(|n| n.as_str()).is_some_and(|n| !n.trim().is_empty()) {
            continue;
        }
        let folder = doc.rel.trim_end_matches(".claude-plugin/plugin.json").trim_end_matches('/').rsplit('/').next().unwrap_or("my-plugin");
        findings.push(
            Diagnostic::finding(format!("plugin manifest {} has no `name`", doc.rel))
                .in_file(&doc.file)
                .at(Some(0..1))
                .help(format!("add `\"name\": \"{}\"` (kebab-case)", if folder.is_empty() { "my-plugin" } else { folder })),
        );
    }
    findings
}
