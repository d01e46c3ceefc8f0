//! CLAUDE029: a top-level settings key Claude Code does not read.

use crate::agent_files::FileKind;
use crate::diagnostic::did_you_mean;
use crate::rules::claude::read_fields;
use crate::rules::json_span::Step;
use crate::rules::json_span::{at_key, json_docs};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary:
        "A Claude Code settings file has a top-level key Claude Code does not read (such as `instructions`, `tools` or `allowedTools`).",
    why: "Claude Code ignores settings keys it does not know. Instructions written into `settings.json` never reach the \
          model (they belong in CLAUDE.md), and a made-up `tools` or `allowedTools` block grants or restricts nothing \
          (permissions go under `permissions.allow`/`deny`). Source: https://code.claude.com/docs/en/settings \
          (available settings) and the schema https://json.schemastore.org/claude-code-settings.json.",
    fails: Example { file: ".claude/settings.json", text: "{\n  \"instructions\": [\"Always run the tests before committing.\"]\n}\n" },
    passes: Example { file: ".claude/settings.json", text: "{\n  \"permissions\": {\n    \"allow\": [\"Bash(npm test)\"]\n  }\n}\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let keys = read_fields(FileKind::ClaudeSettings);
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudeSettings]) {
        let Ok(serde_json::Value::Object(map)) = &*json else { continue };
        for key in map.keys().filter(|k| !keys.contains(&k.as_str())) {
            let help = match (key.as_str(), did_you_mean(key, keys.iter().copied())) {
                ("instructions" | "rules" | "systemPrompt" | "customInstructions", _) => "instructions belong in CLAUDE.md".to_string(),
                ("tools" | "allowedTools" | "allowed_tools" | "disallowedTools", _) => {
                    "grant or block tools with `permissions.allow` and `permissions.deny`".to_string()
                }
                ("mcpServers", _) => "project MCP servers go in `.mcp.json` at the project root".to_string(),
                (_, Some(s)) => format!("did you mean `{s}`?"),
                _ => "remove it".to_string(),
            };
            findings.push(at_key(
                Diagnostic::finding(format!("`{key}` is not a Claude Code setting; it is ignored")).help(help).groupable(),
                doc,
                &[Step::Key(key)],
            ));
        }
    }
    findings
}
