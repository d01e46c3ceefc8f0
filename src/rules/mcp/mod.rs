//! The MCP family: server configurations (`.mcp.json`) and MCP tool definitions.

use serde_json::Value;

use crate::agent_files::{Doc, FileKind};
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

/// What the family covers, in one line, for `docs/rules.md`.
pub const ABOUT: &str = "MCP server configurations (`.mcp.json`) and MCP tool definitions wherever they appear.";

/// Calls `f` with every server of every MCP configuration that parses.
pub fn each_server<'a>(cx: &Context<'a>, mut f: impl FnMut(&'a Doc, &str, &Value)) {
    for (doc, json) in json_docs(cx, &[FileKind::McpConfig]) {
        if let Ok(value) = &*json {
            for (name, server) in mcp_servers(value) {
                f(doc, name, server);
            }
        }
    }
}

/// The servers of an MCP configuration: (name, config).
pub fn mcp_servers(config: &Value) -> Vec<(&str, &Value)> {
    config.get("mcpServers").and_then(Value::as_object).map_or_else(Vec::new, |m| m.iter().map(|(k, v)| (k.as_str(), v)).collect())
}

/// The strings of one MCP server where `${VAR}` is expanded (`command`, `args`, `env`, `url`,
/// `headers`), with their paths in the file.
pub fn server_strings<'a>(name: &'a str, server: &'a Value) -> Vec<(Vec<Step<'a>>, &'a str)> {
    let base = [Step::Key("mcpServers"), Step::Key(name)];
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
