//! GEMINI013: a `gemini-extension.json` that is not valid JSON.

use crate::agent_files::FileKind;
use crate::rules::json_span::json_syntax;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "A Gemini CLI extension's `gemini-extension.json` is not valid JSON (comments included: the CLI reads it with `JSON.parse`).",
    why: "Gemini CLI reads an extension's manifest with a plain `JSON.parse`, unlike its settings files, whose comments \
          it strips first; a manifest that does not parse makes the CLI skip the extension with a warning, so none of \
          its MCP servers, context files or commands load. Source: \
          google-gemini/gemini-cli:packages/cli/src/config/extension-manager.ts@bc7b3739 (`loadExtensionConfig`).",
    fails: Example {
        file: "gemini-extension.json",
        text: "{\n  // the extension\n  \"name\": \"docs-search\",\n  \"version\": \"1.0.0\"\n}\n",
    },
    passes: Example { file: "gemini-extension.json", text: "{\n  \"name\": \"docs-search\",\n  \"version\": \"1.0.0\"\n}\n" },
    notes: "The other rules on `gemini-extension.json` skip a file that does not parse.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    json_syntax(cx, &[FileKind::GeminiExtension])
}
