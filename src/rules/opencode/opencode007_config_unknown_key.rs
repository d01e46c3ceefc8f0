//! OPENCODE007: a top-level key of `opencode.json` or `opencode.jsonc` that OpenCode's
//! configuration does not have.

use crate::agent_files::FileKind;
use crate::diagnostic::did_you_mean;
use crate::rules::json_span::{at_key, Step};
use crate::rules::opencode::{opencode_jsonc, spec};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An OpenCode configuration (`opencode.json`, `opencode.jsonc`) has a top-level key OpenCode does not read (such as `mcpServers` or `agents`).",
    why: "OpenCode drops a top-level key its configuration schema does not have, with only a line on the console \
          (`ignoring unrecognized keys`), so MCP servers written under Claude Code's `mcpServers`, or agents under \
          `agents`, are never started or defined. The keys are those of the `Config` type in the SDK OpenCode \
          generates from its server's API (npm `@opencode-ai/sdk` 1.19.3: `dist/v2/gen/types.gen.d.ts`, and the v1 \
          client's `theme`, `keybinds` and `tui` from `dist/gen/types.gen.d.ts`), as `data/hosts/opencode.toml` \
          lists them. Source of the behaviour: `packages/opencode/src/config/parse.ts` in anomalyco/opencode (the \
          commit in `data/hosts/opencode.toml`).",
    fails: Example {
        file: "opencode.json",
        text: "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"mcpServers\": {\n    \"docs\": { \"type\": \"remote\", \"url\": \"https://example.com/mcp\" }\n  }\n}\n",
    },
    passes: Example {
        file: "opencode.json",
        text: "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"mcp\": {\n    \"docs\": { \"type\": \"remote\", \"url\": \"https://example.com/mcp\" }\n  }\n}\n",
    },
    notes: "Only top-level keys are checked. A file that is not valid JSONC is OPENCODE006's. A key a newer OpenCode \
            added is reported until the pinned SDK version moves: suppress it with `[lint]` or an inline comment \
            meanwhile.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let known: Vec<&str> = spec(FileKind::OpencodeConfig).read_fields().collect();
    let mut findings = Vec::new();
    for doc in cx.files_of(FileKind::OpencodeConfig) {
        let Ok(Some(jsonc_parser::JsonValue::Object(object))) = jsonc_parser::parse_to_value(&doc.text, &opencode_jsonc()) else {
            continue;
        };
        for (key, _) in object {
            if known.contains(&key.as_ref()) {
                continue;
            }
            let help = match (key.as_ref(), did_you_mean(&key, known.iter().copied())) {
                ("mcpServers" | "mcp_servers" | "servers", _) => "OpenCode reads MCP servers under `mcp`".to_string(),
                (_, Some(s)) => format!("did you mean `{s}`?"),
                _ => "remove it, or move it where OpenCode reads it".to_string(),
            };
            let message = format!("`{key}` is not an OpenCode configuration key; OpenCode ignores it");
            findings.push(at_key(Diagnostic::finding(message).label("unknown key").help(help).groupable(), doc, &[Step::Key(&key)]));
        }
    }
    findings
}
