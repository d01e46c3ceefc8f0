//! GEMINI007: an underscore in an MCP server's name.

use crate::rules::gemini::gemini_mcp_servers;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The name of an MCP server in `.gemini/settings.json` contains `_`.",
    why: "Gemini CLI names a server's tools `mcp_<server>_<tool>` and its policy engine splits that name at \
          underscores; an underscore in the server name makes policy rules (allow, deny, confirm) match the wrong \
          server or none. Source: google-gemini/gemini-cli:docs/reference/configuration.md@5411f113 (`mcpServers`).",
    fails: Example { file: ".gemini/settings.json", text: "{\n  \"mcpServers\": {\n    \"my_db\": { \"command\": \"db-mcp\" }\n  }\n}\n" },
    passes: Example { file: ".gemini/settings.json", text: "{\n  \"mcpServers\": {\n    \"my-db\": { \"command\": \"db-mcp\" }\n  }\n}\n" },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let servers = gemini_mcp_servers(cx);
    servers
        .iter()
        .filter(|s| s.name.contains('_'))
        .map(|s| {
            let finding =
                Diagnostic::finding(format!("MCP server name `{}` contains `_`, which breaks tool-name parsing in policies", s.name))
                    .label("underscore")
                    .help(format!("rename it, e.g. `{}`", s.name.replace('_', "-")));
            s.report(finding, None)
        })
        .collect()
}
