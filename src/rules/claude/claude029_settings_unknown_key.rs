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
            let help = help_for(key, &keys);
            findings.push(at_key(
                Diagnostic::finding(format!("`{key}` is not a Claude Code setting; it is ignored")).help(help).groupable(),
                doc,
                &[Step::Key(key)],
            ));
        }
    }
    findings
}

/// What to do with an unknown key: where its content belongs when the key says what it is for,
/// else the nearest known key.
fn help_for(key: &str, keys: &[&str]) -> String {
    match (key, did_you_mean(key, keys.iter().copied())) {
        ("instructions" | "rules" | "systemPrompt" | "customInstructions", _) => "instructions belong in CLAUDE.md".to_string(),
        ("tools" | "allowedTools" | "allowed_tools" | "disallowedTools", _) => {
            "grant or block tools with `permissions.allow` and `permissions.deny`".to_string()
        }
        ("mcpServers", _) => "project MCP servers go in `.mcp.json` at the project root".to_string(),
        (_, Some(s)) => format!("did you mean `{s}`?"),
        _ if is_environment_variable(key) => format!("environment variables are set under `env`: `\"env\": {{\"{key}\": …}}`"),
        _ => "remove it".to_string(),
    }
}

/// A name written as environment variables are (`MAX_THINKING_TOKENS`): capitals, digits and
/// underscores, with at least one underscore or capital after the first letter.
fn is_environment_variable(key: &str) -> bool {
    key.len() > 1
        && key.starts_with(|c: char| c.is_ascii_uppercase())
        && key.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::help_for;

    #[test]
    fn an_environment_variable_written_as_a_setting_is_sent_under_env() {
        let keys = ["env", "model", "permissions"];
        assert_eq!(
            help_for("MAX_THINKING_TOKENS", &keys),
            "environment variables are set under `env`: `\"env\": {\"MAX_THINKING_TOKENS\": …}`"
        );
        assert!(help_for("CLAUDE_CODE_SUBAGENT_MODEL", &keys).contains("under `env`"));
        assert_eq!(help_for("autoUpdaterStatus", &keys), "remove it");
        assert_eq!(help_for("X", &keys), "remove it");
        assert_eq!(help_for("instructions", &keys), "instructions belong in CLAUDE.md");
    }
}
