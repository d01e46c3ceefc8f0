//! Files that are no tool file: what was found instead, named for the error ([`Code::TOOL010`]).
//! An MCP server configuration is the usual mistake, so it is recognised and explained.

use serde_json::Value;

use super::{holds_values, json_kind, ToolFileError, EXPECTED};
use crate::codes::Code;

/// How to get tools out of an MCP server, for the help of a server configuration.
const CAPTURE_HELP: &str = "a server configuration says how to start MCP servers, not which tools they offer: save each \
                            server's `tools/list` result (e.g. `npx @modelcontextprotocol/inspector --cli <server command> \
                            --method tools/list > tools/<server>.json`) and give that file";

pub(super) fn not_a_tool_file(text: &str) -> ToolFileError {
    let (found, help) = describe(text);
    let message = format!("not a tool file: found {found}; expected {EXPECTED}");
    ToolFileError { code: Code::TOOL010, message, offset: None, help, found: Some(found) }
}

/// What `text` holds, and a hint when there is one.
fn describe(text: &str) -> (String, Option<String>) {
    if text.trim().is_empty() {
        return ("an empty file".into(), None);
    }
    if text.starts_with("---\n") || text.starts_with("---\r\n") {
        return ("Markdown with YAML front matter".into(), Some("Markdown belongs in a module or skill, not in a tool list".into()));
    }
    let structured = serde_json::from_str::<Value>(text)
        .ok()
        .map(|v| (v, "JSON"))
        .or_else(|| crate::yaml::from_str::<Value>(text).ok().filter(Value::is_object).map(|v| (v, "YAML")));
    if let Some((value, language)) = structured {
        if let Some(servers) = mcp_servers(&value) {
            return (format!("an MCP server configuration ({language}) listing {servers}"), Some(CAPTURE_HELP.into()));
        }
        return (format!("a {language} {}", shape(&value)), None);
    }
    let first_line = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .and_then(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|_| text.trim_start().starts_with(['{', '[']));
    if let Some(value) = first_line {
        return (format!("JSON Lines (line 1: a JSON {})", shape(&value)), None);
    }
    if text.starts_with("#!") {
        return ("a script".into(), None);
    }
    if let Some(table) = toml::from_str::<toml::Table>(text).ok().filter(holds_values) {
        if table.contains_key("agent") || table.contains_key("pipeline") {
            return ("a ctxc manifest".into(), Some("give a manifest to `ctxc cost` or `ctxc check` itself, not as a tool file".into()));
        }
        return (format!("a TOML document with keys {}", keys(table.keys())), None);
    }
    if text.lines().any(|l| l.starts_with("# ") || l.starts_with("## ") || l.starts_with("```")) {
        return ("Markdown".into(), Some("Markdown belongs in a module or skill, not in a tool list".into()));
    }
    ("plain text".into(), None)
}

/// The servers of an MCP client configuration: `mcpServers` (Claude Desktop, Claude Code's
/// `.mcp.json`, Cursor), `servers` (VS Code's `mcp.json`) or `mcp.servers` (VS Code settings).
fn mcp_servers(value: &Value) -> Option<String> {
    let servers = ["/mcpServers", "/servers", "/mcp/servers"].iter().find_map(|p| value.pointer(p)).and_then(Value::as_object)?;
    Some(match servers.len() {
        0 => "no servers".into(),
        1 => format!("server {}", keys(servers.keys())),
        _ => format!("servers {}", keys(servers.keys())),
    })
}

fn shape(value: &Value) -> String {
    match value {
        Value::Object(map) if map.is_empty() => "empty object".into(),
        Value::Object(map) => format!("object with keys {}", keys(map.keys())),
        Value::Array(items) => match items.first() {
            None => "empty array".into(),
            Some(first) => format!("array of {}s", json_kind(first).trim_start_matches("an ").trim_start_matches("a ")),
        },
        other => json_kind(other).trim_start_matches("an ").trim_start_matches("a ").into(),
    }
}

/// Up to five names in sorted order (the same with or without serde_json's `preserve_order`),
/// quoted, then how many more.
fn keys<'a>(names: impl ExactSizeIterator<Item = &'a String>) -> String {
    let total = names.len();
    let mut sorted: Vec<&String> = names.collect();
    sorted.sort();
    let mut shown: Vec<String> = sorted.into_iter().take(5).map(|k| format!("`{k}`")).collect();
    if total > 5 {
        shown.push(format!("{} more", total - 5));
    }
    shown.join(", ")
}

#[cfg(test)]
mod tests {
    use crate::codes::Code;

    #[test]
    fn mcp_server_configurations_are_named_with_their_servers() {
        let claude = r#"{"mcpServers": {"github": {"command": "github-mcp-server"}, "files": {"command": "npx"}}}"#;
        let vscode = r#"{"servers": {"github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/"}}}"#;
        let settings = r#"{"editor.tabSize": 2, "mcp": {"servers": {}}}"#;
        let yaml = "mcpServers:\n  notes:\n    command: notes-server\n";
        for (text, found) in [
            (claude, "an MCP server configuration (JSON) listing servers `"),
            (vscode, "an MCP server configuration (JSON) listing server `github`"),
            (settings, "an MCP server configuration (JSON) listing no servers"),
            (yaml, "an MCP server configuration (YAML) listing server `notes`"),
        ] {
            let error = super::super::parse_tool_file(text).expect_err(text);
            assert_eq!(error.code, Code::TOOL010);
            assert!(error.message.contains(found), "{}", error.message);
            assert!(error.help.as_deref().is_some_and(|h| h.contains("tools/list")), "{:?}", error.help);
        }
    }
}
