//! GEMINI001: `.gemini/settings.json` that is not valid JSON.

use crate::agent_files::FileKind;
use crate::rules::gemini::parse_settings;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "The project's `.gemini/settings.json` is not valid JSON (comments allowed, as Gemini CLI strips them).",
    why: "Gemini CLI merges the project settings over the user's; a file that does not parse contributes none of its \
          settings (context files, MCP servers, tool limits), so the project runs with defaults. The CLI removes `//` and \
          `/* */` comments before parsing (`stripJsonComments` in `packages/cli/src/config/settings.ts`), so comments are \
          fine; a comma after the last item is not. Sources: \
          google-gemini/gemini-cli:docs/reference/configuration.md@5411f113, packages/cli/src/config/settings.ts.",
    fails: Example {
        file: ".gemini/settings.json",
        text: "{\n  // shared with Codex\n  \"context\": { \"fileName\": \"AGENTS.md\", }\n}\n",
    },
    passes: Example {
        file: ".gemini/settings.json",
        text: "{\n  // shared with Codex\n  \"context\": { \"fileName\": \"AGENTS.md\" }\n}\n",
    },
    notes: "Other GEMINI rules skip a settings file that does not parse, and read one with comments as the CLI does.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::GeminiSettings) {
        if let Err((at, message)) = parse_settings(&doc.text) {
            findings.push(
                Diagnostic::finding(format!("{} is not valid JSON: {message}", doc.rel))
                    .in_file(&doc.file)
                    .at(Some(at..at))
                    .label("here")
                    .help("fix the JSON (comments are fine; a comma after the last item is not)"),
            );
        }
    }
    findings
}
