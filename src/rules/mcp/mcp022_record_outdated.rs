//! MCP022: an MCP server whose recorded tool list (`ctxc.mcp-tools`) is missing or older than
//! its configuration, in any host's configuration file. A manifest's tool file naming the record
//! reports it too, while loading (`manifest/pipeline.rs`).

use crate::mcp_record::{config_hash, read_record, Recorded, RECORD_FILE};
use std::collections::BTreeMap;
use std::ops::Range;

use toml_edit::TableLike;

use crate::agent_files::Doc;
use crate::hosts;
use crate::mcp_record::{host_servers, parse_config, Record};
use crate::memo::SharedText;
use crate::rules::codex::{named_tables, parse_config as parse_toml};
use crate::rules::json_span::{at_key, locate, Step};
use crate::rules::mcp::{claude_code_reads, each_server, server_path};
use crate::rules::prelude::*;

pub const RULE: Definition = Definition {
    severity: Severity::Warning,
    summary: "The repository records its MCP servers' tool lists (`ctxc.mcp-tools`), but a configured server has no record, or its configuration changed since it was recorded.",
    why: "`ctxc cost --host …`, manifest agents and CI count MCP tools from the record `ctxc mcp record` writes, never by \
          starting a server. A server missing from it costs nothing in the report though its tools are in every \
          request; a server whose command, arguments, environment or URL changed may list other tools than the \
          ones recorded. Record again after changing a server's configuration, as a lock file is updated after a manifest.",
    fails: Example {
        file: ".mcp.json",
        text: "{\n  \"mcpServers\": {\n    \"memory\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-memory@2026.8.31\"]}\n  }\n}\n",
    },
    passes: Example { file: ".mcp.json", text: "{\n  \"mcpServers\": {}\n}\n" },
    notes: "Only when the repository has a record: a repository that does not record its servers gets no finding. \
            The servers checked are those the hosts read from the repository: Claude Code's `.mcp.json` and its plugins' \
            (`.mcp.json` and the manifest's `mcpServers`), Codex's `.codex/config.toml` (`[mcp_servers.NAME]`; not \
            one with `enabled = false`), Gemini CLI's `.gemini/settings.json`, Cursor's `.cursor/mcp.json` and VS \
            Code's `.vscode/mcp.json` (`servers`), each finding at the server's name. The hash covers `type`, \
            `command`, `args`, `env`, `cwd`, `url` and `headers` as written (`${VAR}` unexpanded; Gemini CLI's \
            `httpUrl` as `url`). A manifest agent whose tool file is the record (`{ path = \"ctxc.mcp-tools\", server \
            = \"NAME\" }`) gets the same warning while loading, at the server it names, also when the record is \
            missing. The examples need the record beside the configuration: see the fixtures \
            `tests/fixtures/rules/MCP022/`.",
    stage: Stage::Lint(check),
};

fn check(cx: &Context) -> Vec<Diagnostic> {
    // No record, or one that cannot be read (the host view says so): nothing to compare.
    let Ok(Some(record)) = read_record(cx.root) else { return Vec::new() };
    let help = "run `ctxc mcp record` (it starts the server: it asks first) and commit the record";
    let mut findings = Vec::new();
    each_server(cx, |doc, name, server| {
        if !claude_code_reads(doc) {
            return;
        }
        if let Some(message) = outdated(&record, &doc.rel, name, &config_hash(server), None) {
            findings.push(at_key(Diagnostic::finding(message).help(help), doc, &server_path(doc, name, &[])));
        }
    });
    for (host, spec) in hosts::all().iter().filter_map(|h| Some((h, h.startup.as_ref()?.mcp.as_ref()?))) {
        let Some((display, text, doc)) = configuration(cx, &spec.file) else { continue };
        // A file that does not parse is its host's rules' business (CODEX004, GEMINI001…).
        let Ok(value) = parse_config(&spec.file, &text) else { continue };
        let servers = host_servers(spec, &value);
        // Where each server is named, looked up once per file, and only when one is reported.
        let mut toml_names: Option<BTreeMap<String, Range<usize>>> = None;
        // A server the host does not start is not recorded either.
        for server in servers.iter().filter(|s| !s.off) {
            let Some(message) = outdated(&record, &spec.file, server.name, &config_hash(&server.config), Some(&host.name)) else {
                continue;
            };
            let at = match spec.file.ends_with(".toml") {
                true => toml_names.get_or_insert_with(|| toml_names_in(doc, &text, &spec.key)).get(server.name).cloned(),
                false => {
                    let mut path: Vec<Step> = spec.key.split('.').map(Step::Key).collect();
                    path.push(Step::Key(server.name));
                    locate(cx.root.cache(), &text, &path).map(|p| p.key_or_value())
                }
            };
            findings.push(Diagnostic::finding(message).help(help).in_file(&display).at(at));
        }
    }
    findings
}

/// What is wrong with the record of server `name` of `file`, configured with the hash `hash`.
fn outdated(record: &Record, file: &str, name: &str, hash: &str, host: Option<&str>) -> Option<String> {
    let of = host.map(|h| format!(" ({h})")).unwrap_or_default();
    match record.lookup(file, name, hash) {
        Recorded::Missing => Some(format!("MCP server `{name}`{of} has no record in {RECORD_FILE}: its tools are not counted")),
        Recorded::Stale(_) => Some(format!("the record of MCP server `{name}`{of} in {RECORD_FILE} is older than its configuration")),
        Recorded::Current(_) => None,
    }
}

/// Another host's configuration file: its display path and text, and its document when the
/// lint walk found it (`.vscode/mcp.json` is no agent file, so it is read here).
fn configuration<'a>(cx: &Context<'a>, rel: &str) -> Option<(String, SharedText, Option<&'a Doc>)> {
    if let Some(doc) = cx.files.iter().find(|d| d.rel == rel) {
        return Some((doc.file.clone(), doc.text.clone(), Some(doc)));
    }
    let file = cx.root.read(rel).ok()?;
    Some((file.display, file.text, None))
}

/// Where each server is named in a TOML configuration (`[mcp_servers.NAME]`): from the parse of
/// its document that the Codex rules share, or a parse of its own when no document was found.
fn toml_names_in(doc: Option<&Doc>, text: &str, key: &str) -> BTreeMap<String, Range<usize>> {
    let parsed = match doc.map(parse_toml) {
        Some(Ok(parsed)) => parsed,
        Some(Err(_)) => return BTreeMap::new(),
        None => match toml_edit::ImDocument::parse(text.to_string()) {
            Ok(parsed) => std::sync::Arc::new(parsed),
            Err(_) => return BTreeMap::new(),
        },
    };
    let mut keys: Vec<&str> = key.split('.').collect();
    let Some(last) = keys.pop() else { return BTreeMap::new() };
    let mut table: &dyn TableLike = parsed.as_table();
    for k in keys {
        match table.get(k).and_then(|item| item.as_table_like()) {
            Some(inner) => table = inner,
            None => return BTreeMap::new(),
        }
    }
    named_tables(table, last).into_iter().filter_map(|(name, span, _)| Some((name.to_string(), span?))).collect()
}
