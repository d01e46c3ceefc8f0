//! `ctxc mcp`: a Model Context Protocol server, so that a coding agent can check, explain, cost
//! and render agent files while it edits them. The transport is stdio: one JSON-RPC 2.0 message a
//! line ([`framing`] reads them, bounded). [`Server::handle`] answers one line with the line to
//! write back, or nothing for a notification; the binary (`src/cli/mcp.rs`) does the reading and
//! writing. The tools ([`tools`]) call the library entry points the commands use, so a tool's
//! result is the command's JSON.
//!
//! Paths a client names are confined to the server's root, the working folder it was started in:
//! an absolute path outside it, a `..` and a link leading out are refused (see [`confine`]).

pub mod framing;
mod tools;

use std::path::{Component, Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::tokenizer_files::discover::Places;
use crate::Session;

/// The protocol revisions this server speaks through the `initialize` handshake, newest first: a
/// client asking for one of them gets it, any other client the newest.
pub const PROTOCOL_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// JSON-RPC 2.0's error codes.
pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;

/// What every tool's session starts from, as the commands' sessions do: the `CTXC_…` variables'
/// overrides and where tokenizer files are looked for.
#[derive(Debug, Clone, Default)]
pub struct Setup {
    pub env_overrides: Vec<String>,
    pub places: Places,
}

/// The server: its root (the canonical working folder) and its setup.
pub struct Server {
    root: PathBuf,
    setup: Setup,
}

impl Server {
    /// A server over the current folder, which every path a client names is confined to and
    /// resolved against (the commands resolve the same paths against it too).
    pub fn new(setup: Setup) -> std::io::Result<Server> {
        Ok(Server { root: std::env::current_dir()?.canonicalize()?, setup })
    }

    /// The answer to one line: a response, or `None` for a notification, a blank line, or a
    /// response from the client (this server sends no request).
    pub fn handle(&self, line: &str) -> Option<String> {
        if line.trim().is_empty() {
            return None;
        }
        let message = match serde_json::from_str::<Value>(line) {
            Ok(message) => message,
            Err(e) => return Some(error(Value::Null, PARSE_ERROR, format!("the line is not JSON: {e}"))),
        };
        let Value::Object(message) = message else {
            return Some(error(Value::Null, INVALID_REQUEST, "a message is one JSON object (MCP has no batches since 2025-06-18)"));
        };
        let method = message.get("method");
        let Some(id) = message.get("id") else {
            return match method {
                // A notification (`notifications/initialized`, `notifications/cancelled`…): nothing to say.
                Some(Value::String(_)) => None,
                _ => Some(error(Value::Null, INVALID_REQUEST, "a request needs a string `method`")),
            };
        };
        if !(id.is_string() || id.is_i64() || id.is_u64()) {
            return Some(error(Value::Null, INVALID_REQUEST, "a request's `id` is a string or an integer"));
        }
        if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return Some(error(id.clone(), INVALID_REQUEST, "`jsonrpc` must be \"2.0\""));
        }
        let method = match method {
            Some(Value::String(method)) => method,
            // A client's answer to a request: this server sends none.
            None if message.contains_key("result") || message.contains_key("error") => return None,
            _ => return Some(error(id.clone(), INVALID_REQUEST, "a request needs a string `method`")),
        };
        let params = match message.get("params") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(params)) => params.clone(),
            Some(_) => return Some(error(id.clone(), INVALID_PARAMS, "`params` is an object")),
        };
        Some(match self.dispatch(method, &params) {
            Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }).to_string(),
            Err((code, message)) => error(id.clone(), code, message),
        })
    }

    fn dispatch(&self, method: &str, params: &Map<String, Value>) -> Result<Value, (i64, String)> {
        match method {
            "initialize" => Ok(initialize(params)),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(json!({ "tools": tools::list() })),
            "tools/call" => {
                let name =
                    params.get("name").and_then(Value::as_str).ok_or((INVALID_PARAMS, "tools/call needs the tool's `name`".into()))?;
                let arguments = match params.get("arguments") {
                    None | Some(Value::Null) => Map::new(),
                    Some(Value::Object(arguments)) => arguments.clone(),
                    Some(_) => return Err((INVALID_PARAMS, "`arguments` is an object".into())),
                };
                tools::call(self, name, &arguments)
                    .ok_or_else(|| (INVALID_PARAMS, format!("no tool `{}`: tools/list names them", clip(name))))
            }
            _ => Err((
                METHOD_NOT_FOUND,
                format!("no method `{}` (this server has initialize, ping, tools/list and tools/call)", clip(method)),
            )),
        }
    }

    /// A session for one tool call, as a command's: the `CTXC_…` overrides, then `extra`.
    fn session(&self, extra: &[String]) -> Session {
        Session::new([self.setup.env_overrides.as_slice(), extra].concat()).with_discovery(self.setup.places.clone())
    }
}

/// `initialize`'s result: the revision agreed on, the tools capability and who this is.
fn initialize(params: &Map<String, Value>) -> Value {
    let asked = params.get("protocolVersion").and_then(Value::as_str);
    let version = PROTOCOL_VERSIONS.iter().find(|v| Some(**v) == asked).unwrap_or(&PROTOCOL_VERSIONS[0]);
    json!({
        "protocolVersion": version,
        "capabilities": { "tools": { "listChanged": false } },
        "serverInfo": { "name": "ctxc", "version": env!("CARGO_PKG_VERSION") },
        "instructions": "Check agent files (CLAUDE.md, AGENTS.md, SKILL.md, .mcp.json, ctxc.toml) after editing them; explain a finding's code; cost and render an agent's modes.",
    })
}

/// The error response to a line that cannot be a message (too long, not UTF-8).
pub fn parse_error(why: &str) -> String {
    error(Value::Null, PARSE_ERROR, why)
}

/// A JSON-RPC error response.
fn error(id: Value, code: i64, message: impl Into<String>) -> String {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message.into() } }).to_string()
}

/// A name from the client as an error message quotes it: at most 100 characters.
fn clip(name: &str) -> String {
    let mut chars = name.chars();
    let head: String = chars.by_ref().take(100).collect();
    match chars.next() {
        Some(_) => format!("{head}…"),
        None => head,
    }
}

/// `given`, a path a client named, as a path relative to `root` (the current folder), when it
/// stays inside it: relative and without `..`, or absolute below `root`; and, when it exists,
/// resolving inside `root` (a link inside may point only inside). A path that does not exist
/// passes when `may_be_new` (an unsaved file) and its folder does.
pub fn confine(root: &Path, given: &str, may_be_new: bool) -> Result<PathBuf, String> {
    let shown = clip(given);
    if given.contains('\0') {
        return Err(format!("`{shown}` holds a NUL byte"));
    }
    let path = Path::new(given);
    let relative = match path.is_absolute() {
        true => path.strip_prefix(root).map_err(|_| format!("`{shown}` is outside the server's root `{}`", root.display()))?,
        false => path,
    };
    if relative.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)) {
        return Err(format!("`{shown}` leaves the server's root: name files below it without `..`"));
    }
    let relative = if relative.as_os_str().is_empty() { PathBuf::from(".") } else { relative.to_path_buf() };
    let inside = |p: &Path| match p.canonicalize() {
        Ok(resolved) if resolved.starts_with(root) => Ok(()),
        Ok(_) => Err(format!("`{shown}` leads out of the server's root through a symbolic link")),
        Err(e) => Err(format!("`{shown}`: {e}")),
    };
    let full = root.join(&relative);
    match full.symlink_metadata() {
        Ok(_) => inside(&full)?,
        Err(_) if may_be_new => inside(full.parent().unwrap_or(root))?,
        Err(e) => return Err(format!("`{shown}`: {e}")),
    }
    Ok(relative)
}
