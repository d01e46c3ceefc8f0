//! CODEX007: an MCP server of `.codex/config.toml` with neither `command` nor `url`, or with both.

use crate::rules::codex::{codex_configs, key_span, named_tables};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Error,
    summary: "An `[mcp_servers.NAME]` table of `.codex/config.toml` has neither `command` (a local server) nor `url` (a streamable HTTP server), or has both.",
    why: "Codex starts a server from `command` (with `args`, `env`, `cwd`) or connects to it at `url`; a server with \
          neither cannot be reached, and one with both is refused, since Codex would not know which transport to use \
          (openai/codex:docs/config.md, `[mcp_servers]`; codex-rs/core/config.schema.json@000c857e, `RawMcpServerConfig`).",
    fails: Example { file: ".codex/config.toml", text: "[mcp_servers.docs]\nargs = [\"-y\", \"docs-mcp\"]\n" },
    passes: Example { file: ".codex/config.toml", text: "[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"docs-mcp\"]\n" },
    notes: "A server with `enabled = false` is checked too: Codex reads it before it looks at `enabled`.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    let mut findings = Vec::new();
    for (doc, toml) in codex_configs(cx) {
        for (name, at, server) in named_tables(toml.as_table(), "mcp_servers") {
            let (command, url) = (server.contains_key("command"), server.contains_key("url"));
            let finding = match (command, url) {
                (false, false) => Diagnostic::finding(format!("MCP server `{name}` has neither `command` nor `url`"))
                    .at(at)
                    .label("no transport")
                    .help("add `command = \"…\"` for a server Codex starts, or `url = \"https://…\"` for one it connects to"),
                (true, true) => Diagnostic::finding(format!("MCP server `{name}` has both `command` and `url`"))
                    .at(key_span(server, "url"))
                    .label("second transport")
                    .help("keep `command` for a server Codex starts, or `url` for one it connects to, not both"),
                _ => continue,
            };
            findings.push(finding.in_file(&doc.file));
        }
    }
    findings
}
