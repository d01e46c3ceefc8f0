//! MCP022: an MCP server whose recorded tool list (`ctxc.mcp-tools`) is missing or older than
//! its configuration.

use crate::mcp_record::{config_hash, read_record, Recorded, RECORD_FILE};
use crate::rules::json_span::at_key;
use crate::rules::mcp::{claude_code_reads, each_server, server_path};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The repository records its MCP servers' tool lists (`ctxc.mcp-tools`), but a configured server has no record, or its configuration changed since it was recorded.",
    why: "`ctxc cost --host claude-code` and CI count MCP tools from the record `ctxc mcp record` writes, never by \
          starting a server. A server missing from it costs nothing in the report though its tools are in every \
          request; a server whose command, arguments, environment or URL changed may list other tools than the \
          ones recorded. Record again after changing `.mcp.json`, as a lock file is updated after a manifest.",
    fails: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"memory\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-memory@2026.8.31\"]}\n  }\n}\n",
    },
    passes: Example { file: ".mcp.json", text: "{\n  \"mcpServers\": {}\n}\n" },
    notes: "Only when the repository has a record: a repository that does not record its servers gets no finding. \
            The servers checked are those Claude Code reads: the project's `.mcp.json` and its plugins' (`.mcp.json` \
            and the manifest's `mcpServers`). The hash covers `type`, `command`, `args`, `env`, `cwd`, `url` and \
            `headers` as written (`${VAR}` unexpanded). The examples need the record beside the configuration: see \
            the fixtures `tests/fixtures/rules/MCP022/`.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    // No record, or one that cannot be read (the host view says so): nothing to compare.
    let Ok(Some(record)) = read_record(cx.root) else { return Vec::new() };
    let mut findings = Vec::new();
    each_server(cx, |doc, name, server| {
        if !claude_code_reads(doc) {
            return;
        }
        let message = match record.lookup(&doc.rel, name, &config_hash(server)) {
            Recorded::Missing => format!("MCP server `{name}` has no record in {RECORD_FILE}: its tools are not counted"),
            Recorded::Stale(_) => format!("the record of MCP server `{name}` in {RECORD_FILE} is older than its configuration"),
            Recorded::Current(_) => return,
        };
        let d = Diagnostic::finding(message).help("run `ctxc mcp record` (it starts the server: it asks first) and commit the record");
        findings.push(at_key(d, doc, &server_path(doc, name, &[])));
    });
    findings
}
