//! OPENCODE006: an `opencode.json` or `opencode.jsonc` that OpenCode's JSONC reader rejects.

use crate::agent_files::FileKind;
use crate::rules::opencode::opencode_jsonc;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An OpenCode configuration (`opencode.json`, `opencode.jsonc`) is not valid JSON with comments.",
    why: "OpenCode reads every `opencode.json` and `opencode.jsonc` from the working folder up to the top of the \
          repository, and those in `.opencode/`, with a JSONC reader that allows `//` and `/* */` comments and a comma \
          after the last item, and nothing else beyond JSON. Any other syntax error throws, and OpenCode stops with a \
          configuration error instead of starting. Sources: `packages/opencode/src/config/config.ts` and \
          `packages/opencode/src/config/parse.ts` (`ConfigParse.jsonc`) in anomalyco/opencode (the commits in \
          `data/hosts/opencode.toml`).",
    fails: Example {
        file: "opencode.jsonc",
        text: "{\n  // the team's model\n  \"model\": \"anthropic/claude-sonnet-4-5\"\n  \"autoupdate\": false,\n}\n",
    },
    passes: Example {
        file: "opencode.jsonc",
        text: "{\n  // the team's model\n  \"model\": \"anthropic/claude-sonnet-4-5\",\n  \"autoupdate\": false,\n}\n",
    },
    notes: "Single-quoted strings, unquoted keys and hexadecimal numbers (JSON5) are errors too: OpenCode's reader is \
            JSONC, not JSON5.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::OpencodeConfig) {
        if let Err(e) = jsonc_parser::parse_to_value(&doc.text, &opencode_jsonc()) {
            let range = e.range();
            findings.push(
                Diagnostic::finding(format!("{} is not valid JSONC: {}", doc.rel, e.kind()))
                    .in_file(&doc.file)
                    .at(Some(range.start..range.end.max(range.start)))
                    .label("here")
                    .help("fix the syntax (comments and a comma after the last item are fine); OpenCode will not start with this file"),
            );
        }
    }
    findings
}
