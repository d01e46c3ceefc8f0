//! GEMINI006: an MCP server with more than one transport.

use crate::rules::gemini::gemini_mcp_servers;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "An entry of `mcpServers` in `.gemini/settings.json` sets more than one of `httpUrl`, `url` and `command`.",
    why: "Gemini CLI uses one transport per server, by precedence `httpUrl` > `url` > `command`; the others are \
          ignored, so a server meant to run locally may be reached over the network instead, or the reverse. \
          Source: google-gemini/gemini-cli:docs/reference/configuration.md@5411f113 (`mcpServers`).",
    fails: Example {
        file: ".gemini/settings.json",
        text: "{\n  \"mcpServers\": {\n    \"docs\": { \"command\": \"docs-mcp\", \"url\": \"http://localhost:8080/sse\" }\n  }\n}\n",
    },
    passes: Example {
        file: ".gemini/settings.json",
        text: "{\n  \"mcpServers\": {\n    \"docs\": { \"url\": \"http://localhost:8080/sse\" }\n  }\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for s in gemini_mcp_servers(cx) {
        let set: Vec<&str> = ["httpUrl", "url", "command"].into_iter().filter(|k| s.value.get(k).is_some()).collect();
        if set.len() < 2 {
            continue;
        }
        let listed = set.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(" and ");
        let finding = Diagnostic::finding(format!("MCP server `{}` sets {listed}; Gemini CLI uses only `{}`", s.name, set[0]))
            .label("several transports")
            .help("keep the one transport the server speaks");
        findings.push(s.report(finding, None));
    }
    findings
}
