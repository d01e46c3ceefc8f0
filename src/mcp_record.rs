//! The record `ctxc mcp record` writes (`ctxc.mcp-tools`): MCP servers' tools, prompts and
//! resources as they answered, keyed by configuration file, server name and a hash of the
//! server's configuration. Read by the host view (`hostview/mcp_tools.rs`) and by a manifest's
//! tool file that names the record (`manifest/pipeline.rs`), which cost the tools, and by
//! MCP022, which says when a record is missing or older than its configuration; so it sits below
//! all of them. Reading only: the record is written by `src/mcp/record.rs`. See docs/mcp.md.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::hosts::McpServers;
use crate::project::{ProjectRoot, ReadError};

/// The record's file name, at the project root (beside `.mcp.json`). No `.json` extension: a
/// folder's loose JSON files are read as tool files, and the record is not one.
pub const RECORD_FILE: &str = "ctxc.mcp-tools";

/// The record format's version: a record of another version is not read.
pub const RECORD_VERSION: u64 = 1;

/// The members of a server's configuration its hash covers: what decides which program runs (or
/// which URL answers) and so which tools it lists. Other members (`timeout`, `disabled`…) do not.
const HASHED: &[&str] = &["type", "command", "args", "env", "cwd", "url", "headers"];

/// The record: every server recorded, sorted by file then name (`parse` and `insert` keep them
/// so, and `get` relies on it).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub version: u64,
    pub servers: Vec<RecordedServer>,
}

/// What one server answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedServer {
    /// The configuration file naming it, relative to the project root (`.mcp.json`).
    pub file: String,
    /// Its name in that file.
    pub server: String,
    /// The hash of its configuration ([`config_hash`]) when it was recorded.
    pub config: String,
    /// The protocol revision the server agreed on, and its `serverInfo`, as it answered.
    pub protocol_version: String,
    pub server_info: Value,
    /// Its tools, prompts and resources, as it listed them, sorted by name (`uri` for a
    /// resource). `None`: the server has no such capability.
    pub tools: Vec<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<Vec<Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<Vec<Value>>,
}

impl Record {
    /// The record from its text; an error says why it cannot be read.
    pub fn parse(text: &str) -> Result<Record, String> {
        let mut record: Record = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if record.version != RECORD_VERSION {
            return Err(format!("version {} (this ctxc reads version {RECORD_VERSION})", record.version));
        }
        // Sorted as written, so that looking each configured server up is a binary search (a
        // file edited by hand may not be sorted).
        record.servers.sort_by(|a, b| (&a.file, &a.server).cmp(&(&b.file, &b.server)));
        Ok(record)
    }

    /// The record as written: servers sorted, two-space JSON, a final line break.
    pub fn to_text(&self) -> String {
        let mut sorted = self.clone();
        sorted.servers.sort_by(|a, b| (&a.file, &a.server).cmp(&(&b.file, &b.server)));
        let mut text = serde_json::to_string_pretty(&sorted).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The entry of server `server` of `file`.
    pub fn get(&self, file: &str, server: &str) -> Option<&RecordedServer> {
        self.servers.binary_search_by(|s| (s.file.as_str(), s.server.as_str()).cmp(&(file, server))).ok().map(|at| &self.servers[at])
    }

    /// The entry of server `server` of `file`, and whether it was recorded from the
    /// configuration whose [`config_hash`] is `hash`.
    pub fn lookup(&self, file: &str, server: &str, hash: &str) -> Recorded<'_> {
        match self.get(file, server) {
            None => Recorded::Missing,
            Some(entry) if entry.config != hash => Recorded::Stale(entry),
            Some(entry) => Recorded::Current(entry),
        }
    }

    /// Puts `entry` in place of the entry of its server, if any.
    pub fn insert(&mut self, entry: RecordedServer) {
        match self.servers.binary_search_by(|s| (&s.file, &s.server).cmp(&(&entry.file, &entry.server))) {
            Ok(at) => self.servers[at] = entry,
            Err(at) => self.servers.insert(at, entry),
        }
    }
}

impl RecordedServer {
    /// Its tools as a tool file holds them (an MCP `tools/list` result); an error says which
    /// one is not a tool.
    pub fn tool_list(&self) -> Result<Vec<crate::tools::Tool>, String> {
        let listing = serde_json::json!({ "tools": self.tools }).to_string();
        crate::tools::parse_tool_file(&listing).map(|file| file.tools).map_err(|e| e.message)
    }
}

/// Whether a path names the record (its file name is [`RECORD_FILE`]).
pub fn is_record(path: &str) -> bool {
    path.rsplit(['/', '\\']).next() == Some(RECORD_FILE)
}

/// A configured server in the record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Recorded<'a> {
    /// Not recorded: its tools cannot be counted.
    Missing,
    /// Recorded from another configuration than the one written now (its hash differs): its
    /// tools are counted as recorded, but the server may list others.
    Stale(&'a RecordedServer),
    Current(&'a RecordedServer),
}

/// A list's items sorted by `key` (a tool's or prompt's `name`, a resource's `uri`), so that a
/// server listing in another order records the same file.
pub fn sorted_by(mut items: Vec<Value>, key: &str) -> Vec<Value> {
    items.sort_by(|a, b| a.get(key).and_then(Value::as_str).cmp(&b.get(key).and_then(Value::as_str)));
    items
}

/// The hash of a server's configuration as written (`${VAR}` not expanded, so that it is the
/// same on every machine): SHA-256 of the `HASHED` members as JSON with sorted keys.
pub fn config_hash(server: &Value) -> String {
    let members: BTreeMap<&str, Value> = HASHED.iter().filter_map(|k| Some((*k, sorted_keys(server.get(*k)?)))).collect();
    let text = serde_json::to_string(&members).unwrap_or_default();
    format!("sha256:{:x}", Sha256::digest(text.as_bytes()))
}

/// `value` with every object's keys in sorted order (serde_json keeps insertion order here).
fn sorted_keys(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let sorted: BTreeMap<&String, Value> = map.iter().map(|(k, v)| (k, sorted_keys(v))).collect();
            Value::Object(sorted.into_iter().map(|(k, v)| (k.clone(), v)).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted_keys).collect()),
        other => other.clone(),
    }
}

/// The record at the project root: `Ok(None)` when there is none; an error when it cannot be
/// read or parsed.
pub fn read_record(root: &ProjectRoot) -> Result<Option<Record>, String> {
    match root.read(RECORD_FILE) {
        Ok(file) => Record::parse(&file.text).map(Some).map_err(|e| format!("{}: {e}", root.display_path(RECORD_FILE))),
        Err(ReadError::Missing(_)) => Ok(None),
        Err(e) => Err(e.into_diagnostic().message),
    }
}

/// A project configuration file (one naming MCP servers, or a host's settings), as a value:
/// TOML, or JSON with comments, by its extension (Gemini CLI and VS Code strip comments before
/// parsing); an error gives the line and column.
pub fn parse_config(file: &str, text: &str) -> Result<Value, String> {
    match file.ends_with(".json") {
        true => {
            let options = jsonc_parser::ParseOptions { allow_comments: true, ..crate::providers::chat_template::strict_json() };
            match jsonc_parser::parse_to_ast(text, &jsonc_parser::CollectOptions::default(), &options) {
                Ok(parsed) => parsed.value.map(Into::into).ok_or_else(|| "the file holds no JSON value".to_string()),
                Err(e) => {
                    let (line, column) = crate::diagnostic::line_col(text, e.range().start.min(text.len()));
                    Err(format!("{} at line {line}, column {column}", e.kind()))
                }
            }
        }
        false => toml::from_str::<toml::Table>(text)
            .map_err(|e| e.message().to_string())
            .and_then(|t| serde_json::to_value(t).map_err(|e| e.to_string())),
    }
}

/// A setting by its dotted key (`context.fileName`).
pub fn setting<'v>(settings: &'v Value, key: &str) -> Option<&'v Value> {
    key.split('.').try_fold(settings, |v, k| v.get(k))
}

/// One server of a host's configuration file ([`McpServers`]).
pub struct HostServer<'v> {
    pub name: &'v str,
    /// As written, and in the shape the launcher and [`config_hash`] read (its members renamed
    /// as `spec.rename` says).
    pub written: &'v Value,
    pub config: Value,
    /// Whether the configuration turns it off (the host does not start it).
    pub off: bool,
}

/// The servers of a host's configuration file `value`, in the order it writes them.
pub fn host_servers<'v>(spec: &McpServers, value: &'v Value) -> Vec<HostServer<'v>> {
    let Some(servers) = setting(value, &spec.key).and_then(Value::as_object) else { return Vec::new() };
    servers
        .iter()
        .map(|(name, written)| {
            let flag = |key: &Option<String>| key.as_deref().and_then(|k| written.get(k)).and_then(Value::as_bool);
            let mut config = written.clone();
            if let Some(object) = config.as_object_mut() {
                for (theirs, ours) in &spec.rename {
                    if let Some(v) = object.remove(theirs) {
                        object.insert(ours.clone(), v);
                    }
                }
            }
            let off = flag(&spec.enabled_key) == Some(false) || flag(&spec.disabled_key) == Some(true);
            HostServer { name, written, config, off }
        })
        .collect()
}

/// The [`config_hash`] of server `server` as the configuration file `file` names it now, `file`
/// relative to `folder` (the record's folder, relative to the root: `""` at the root), as a
/// record's entries are: `Ok(None)` when the file or the server is not there. A host's file
/// (`[startup.mcp]` of its host data, which is relative to the folder the host reads) is read as
/// that host reads it; any other file as Claude Code reads an `.mcp.json` (`mcpServers`, or a
/// plugin's map of servers by name) or a plugin manifest (its inline `mcpServers`). Also returns
/// the file's display path, whether it could be read or not (a file created later changes the
/// answer too): its reader keeps it among the files it consulted, so that an edit of it checks
/// the reader again (the editor, `ctxc watch`).
pub fn configured_hash(root: &ProjectRoot, folder: &str, file: &str, server: &str) -> (String, Result<Option<String>, String>) {
    let path = if folder.is_empty() { file.to_string() } else { format!("{folder}/{file}") };
    let shown = root.display_path(&path);
    let read = match root.read(&path) {
        Ok(read) => read,
        Err(ReadError::Missing(_)) => return (shown, Ok(None)),
        Err(e) => return (shown, Err(e.into_diagnostic().message)),
    };
    let value = match parse_config(file, &read.text) {
        Ok(value) => value,
        Err(e) => return (shown, Err(format!("{}: {e}", read.display))),
    };
    let spec = crate::hosts::all().iter().filter_map(|h| h.startup.as_ref()?.mcp.as_ref()).find(|m| m.file == file);
    let hash = match spec {
        Some(spec) => host_servers(spec, &value).into_iter().find(|s| s.name == server).map(|s| config_hash(&s.config)),
        None => value.get("mcpServers").unwrap_or(&value).get(server).filter(|s| s.is_object()).map(config_hash),
    };
    (shown, Ok(hash))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_hash_covers_what_runs_in_any_key_order() {
        let a = json!({ "command": "npx", "args": ["-y", "x"], "env": { "A": "1", "B": "${B}" }, "timeout": 5 });
        let b = json!({ "env": { "B": "${B}", "A": "1" }, "args": ["-y", "x"], "command": "npx" });
        assert_eq!(config_hash(&a), config_hash(&b), "order and unhashed members do not matter");
        assert_ne!(config_hash(&a), config_hash(&json!({ "command": "npx", "args": ["-y", "y"], "env": { "A": "1", "B": "${B}" } })));
        assert_ne!(config_hash(&a), config_hash(&json!({ "command": "npx", "args": ["-y", "x"], "env": { "A": "2", "B": "${B}" } })));
    }

    #[test]
    fn a_record_reads_back_sorted() {
        let entry = |file: &str, server: &str| RecordedServer {
            file: file.into(),
            server: server.into(),
            config: "sha256:0".into(),
            protocol_version: "2025-06-18".into(),
            server_info: json!({ "name": server }),
            tools: vec![json!({ "name": "t", "inputSchema": { "type": "object" } })],
            prompts: None,
            resources: Some(Vec::new()),
        };
        let mut record = Record { version: RECORD_VERSION, servers: vec![entry("p/.mcp.json", "a"), entry(".mcp.json", "b")] };
        record.insert(entry(".mcp.json", "a"));
        let text = record.to_text();
        let back = Record::parse(&text).expect("reads back");
        let order: Vec<(&str, &str)> = back.servers.iter().map(|s| (s.file.as_str(), s.server.as_str())).collect();
        assert_eq!(order, [(".mcp.json", "a"), (".mcp.json", "b"), ("p/.mcp.json", "a")]);
        assert_eq!(back.to_text(), text);
        assert!(Record::parse(&text.replace("\"version\": 1", "\"version\": 2")).is_err());
        // Found by a binary search, whatever order the file lists them in.
        let unsorted =
            Record { version: RECORD_VERSION, servers: vec![entry("p/.mcp.json", "a"), entry(".mcp.json", "b"), entry(".mcp.json", "a")] };
        let listed = serde_json::to_string(&unsorted).expect("JSON");
        let read = Record::parse(&listed).expect("reads");
        for (file, server) in [(".mcp.json", "a"), (".mcp.json", "b"), ("p/.mcp.json", "a")] {
            assert_eq!(read.get(file, server).map(|s| (s.file.as_str(), s.server.as_str())), Some((file, server)));
        }
        assert!(read.get(".mcp.json", "c").is_none() && read.get("q", "a").is_none());
    }
}
