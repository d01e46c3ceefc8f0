//! The MCP family: server configurations (`.mcp.json`) and MCP tool definitions.

use serde_json::Value;

use crate::agent_files::{Doc, FileKind};
use crate::hosts;
use crate::rules::context::Context;
use crate::rules::json_span::{join, json_docs, Step};

// The rule files of this folder, one per code of the family in the table (src/codes.rs; a test
// checks the two lists agree).
pub mod mcp001_config_json_invalid;
pub mod mcp002_servers_missing;
pub mod mcp003_server_command_missing;
pub mod mcp004_server_url_missing;
pub mod mcp005_server_command_and_url;
pub mod mcp006_server_type_unknown;
pub mod mcp007_server_sse_deprecated;
pub mod mcp008_server_args_not_strings;
pub mod mcp009_server_env_not_strings;
pub mod mcp010_variable_without_default;
pub mod mcp011_variable_unbraced;
pub mod mcp012_literal_secret;
pub mod mcp013_remote_url_not_https;
pub mod mcp014_command_with_arguments;
pub mod mcp015_server_url_invalid;
pub mod mcp016_tool_name_invalid;
pub mod mcp017_tool_name_duplicate;
pub mod mcp018_tool_schema_not_object;
pub mod mcp019_tool_description_missing;
pub mod mcp020_tool_annotations_contradict;
pub mod mcp021_tool_annotation_invalid;
pub mod mcp022_record_outdated;

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "MCP server configurations (`.mcp.json`) and MCP tool definitions wherever they appear.";

/// Calls `f` with every server of every MCP configuration that parses, and of the plugin
/// manifests that define servers inline (`mcpServers` in plugin.json, the same shape).
pub fn each_server<'a>(cx: &Context<'a>, mut f: impl FnMut(&'a Doc, &str, &Value)) {
    for (doc, json) in json_docs(cx, &[FileKind::McpConfig, FileKind::ClaudePlugin]) {
        if let Ok(value) = &*json {
            for (name, server) in mcp_servers(doc, value) {
                f(doc, name, server);
            }
        }
    }
}

/// Whether a configuration is the server map itself, without `mcpServers`: a form Claude Code
/// accepts for a plugin's `.mcp.json` (its host model), an object of server objects.
pub fn flat(doc: &Doc, config: &Value) -> bool {
    let accepted = doc.kind.spec(hosts::claude_code()).is_some_and(|s| s.accepts_form(doc.root_kind(), "flat-server-map"));
    accepted && config.get("mcpServers").is_none() && config.as_object().is_some_and(|m| !m.is_empty() && m.values().all(Value::is_object))
}

/// Whether Claude Code reads MCP servers from `doc`: the project's `.mcp.json`, or a plugin's
/// `.mcp.json` or manifest.
pub fn claude_code_reads(doc: &Doc) -> bool {
    match doc.kind {
        FileKind::McpConfig => doc.rel == ".mcp.json" || (doc.plugin.is_some() && doc.name() == ".mcp.json"),
        FileKind::ClaudePlugin => true,
        _ => false,
    }
}

/// The servers of an MCP configuration: (name, config).
pub fn mcp_servers<'a>(doc: &Doc, config: &'a Value) -> Vec<(&'a str, &'a Value)> {
    let map = if flat(doc, config) { config.as_object() } else { config.get("mcpServers").and_then(Value::as_object) };
    map.map_or_else(Vec::new, |m| m.iter().map(|(k, v)| (k.as_str(), v)).collect())
}

/// The path to something of server `name` (`rest` below the server) in the file: under
/// `mcpServers`, or at the top of a flat server map.
pub fn server_path<'a>(doc: &Doc, name: &'a str, rest: &[Step<'a>]) -> Vec<Step<'a>> {
    let json = doc.json();
    // A flat map has no `mcpServers` key (`flat`), the other form has one: a lookup, where `flat`
    // reads every server (once per server, that was quadratic in a plugin's flat map).
    let top: &[Step<'a>] = match &*json {
        Ok(config) if config.get("mcpServers").is_none() => &[],
        _ => &[Step::Key("mcpServers")],
    };
    join(&join(top, &[Step::Key(name)]), rest)
}

/// The strings of one MCP server where `${VAR}` is expanded (`command`, `args`, `env`, `url`,
/// `headers`), with their paths in the file.
pub fn server_strings<'a>(doc: &Doc, name: &'a str, server: &'a Value) -> Vec<(Vec<Step<'a>>, &'a str)> {
    let base = server_path(doc, name, &[]);
    let mut out = Vec::new();
    for key in ["command", "url"] {
        if let Some(s) = server.get(key).and_then(Value::as_str) {
            out.push((join(&base, &[Step::Key(key)]), s));
        }
    }
    for (i, arg) in server.get("args").and_then(Value::as_array).into_iter().flatten().enumerate() {
        if let Some(s) = arg.as_str() {
            out.push((join(&base, &[Step::Key("args"), Step::Index(i)]), s));
        }
    }
    for key in ["env", "headers"] {
        for (k, v) in server.get(key).and_then(Value::as_object).into_iter().flatten() {
            if let Some(s) = v.as_str() {
                out.push((join(&base, &[Step::Key(key), Step::Key(k)]), s));
            }
        }
    }
    out
}

/// The MCP tool definitions of a tool file (a `tools/list` result or response, a list of tools or
/// one tool), each with its path in the file; none when the file is not in the MCP format.
pub fn mcp_tools(doc: &Doc) -> Vec<(Vec<Step<'static>>, Value)> {
    let json = doc.json();
    let Ok(json) = &*json else { return Vec::new() };
    if crate::tools::parse_tool_file(&doc.text).map(|f| f.format).ok() != Some(crate::tools::ToolFormat::Mcp) {
        return Vec::new();
    }
    let (prefix, value): (Vec<Step<'static>>, &Value) = match json.get("result") {
        Some(result) => (vec![Step::Key("result")], result),
        None => (Vec::new(), json),
    };
    let (prefix, items) = match value {
        Value::Array(items) => (prefix, items.as_slice()),
        Value::Object(map) => match map.get("tools") {
            Some(Value::Array(items)) => ([prefix, vec![Step::Key("tools")]].concat(), items.as_slice()),
            _ => return vec![(prefix, value.clone())],
        },
        _ => return Vec::new(),
    };
    items.iter().enumerate().map(|(i, item)| ([prefix.clone(), vec![Step::Index(i)]].concat(), item.clone())).collect()
}
