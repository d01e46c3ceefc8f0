//! CLAUDE046: a literal credential in the `env` of committed settings.

use crate::agent_files::FileKind;
use crate::rules::json_span::Step;
use crate::rules::json_span::{json_docs, place};
use crate::rules::prelude::*;
use crate::rules::secrets;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A settings file's `env` gives a variable named like a credential (`…_TOKEN`, `…_API_KEY`, `…_SECRET`) a literal, random-looking value.",
    why: "`env` values are set for every Claude Code session and every command it runs, and `.claude/settings.json` \
          is committed: a real token there is shared with everyone who can read the repository (and with the model, \
          whenever a command prints its environment). Keep credentials in the shell environment or a secrets \
          manager; `apiKeyHelper` can fetch Anthropic keys at runtime. Source: https://code.claude.com/docs/en/settings \
          (\"env\", \"apiKeyHelper\").",
    fails: Example { file: ".claude/settings.json", text: "{\n  \"env\": {\n    \"JIRA_API_TOKEN\": \"Zx8Kq2Lm9Np4Rt7Vw1Yb5Cd3\"\n  }\n}\n" },
    passes: Example { file: ".claude/settings.json", text: "{\n  \"env\": {\n    \"JIRA_BASE_URL\": \"https://example.atlassian.net\"\n  }\n}\n" },
    notes: "The value is shown redacted. Values a SEC rule already recognises (an OpenAI key, a GitHub token…) are \
            left to that rule.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, json) in json_docs(cx, &[FileKind::ClaudeSettings]) {
        let Some(env) = json.as_ref().as_ref().ok().and_then(|v| v.get("env")).and_then(|e| e.as_object()) else { continue };
        for (name, value) in env {
            let Some(value) = value.as_str().filter(|v| secrets::credential_value(name, v)) else { continue };
            let Some(at) = place(doc, &[Step::Key("env"), Step::Key(name)]) else { continue };
            if secrets::found_in(cx.root.cache(), &doc.text, &at.value) {
                continue;
            }
            findings.push(
                Diagnostic::finding(format!(
                    "`{name}` is set to what looks like a real credential (`{}`)",
                    crate::diagnostic::redact(value)
                ))
                .in_file(&doc.file)
                .at(Some(at.value))
                .label("secret (not shown)")
                .help("remove it, rotate it, and set the variable in your shell or fetch it at runtime")
                .redacted(),
            );
        }
    }
    findings
}
