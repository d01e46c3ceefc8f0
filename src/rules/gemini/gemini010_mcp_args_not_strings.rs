//! GEMINI010: MCP `args` that are not a list of strings.

use crate::rules::gemini::gemini_mcp_servers;
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An MCP server's `args` in `.gemini/settings.json` is not a list of strings.",
    why: "`args` is the list of command-line arguments passed to the server's `command`; one string holding the whole \
          command line, or numbers, do not reach the server as separate arguments and it fails to start. Source: \
          google-gemini/gemini-cli:docs/reference/configuration.md@5411f113 (`mcpServers`).",
    fails: Example {
        file: ".gemini/settings.json",
        text: "{\n  \"mcpServers\": {\n    \"db\": { \"command\": \"db-mcp\", \"args\": \"--port 5432\" }\n  }\n}\n",
    },
    passes: Example {
        file: ".gemini/settings.json",
        text: "{\n  \"mcpServers\": {\n    \"db\": { \"command\": \"db-mcp\", \"args\": [\"--port\", \"5432\"] }\n  }\n}\n",
    },
    notes: "",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let servers = gemini_mcp_servers(cx);
    let wrong =
        servers.iter().filter(|s| s.value.get("args").is_some_and(|a| !a.as_array().is_some_and(|a| a.iter().all(|x| x.is_string()))));
    wrong
        .map(|s| {
            let finding = Diagnostic::finding(format!("MCP server `{}` has `args` that are not a list of strings", s.name))
                .label("expected [\"…\", \"…\"]")
                .help("write each argument as its own string, e.g. `[\"--port\", \"5432\"]`");
            s.report(finding, Some("args"))
        })
        .collect()
}
