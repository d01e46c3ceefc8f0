//! `ctxc mcp`: a Model Context Protocol server, so that a coding agent can check, explain, cost
//! and render agent files while it edits them. The transport is stdio: one JSON-RPC 2.0 message a
//! line ([`framing`] reads them, bounded). [`Server::handle`] answers one line with the line to
//! write back, or nothing for a notification; the binary (`src/cli/mcp.rs`) does the reading and
//! writing. The tools (`tools.rs`) call the library entry points the commands use, so a tool's
//! result is the command's JSON.
//!
//! Paths a client names are confined to the server's root, the working folder it was started in:
//! an absolute path outside it, a `..` and a link leading out are refused (see [`confine`]).

mod client;
pub mod framing;
pub mod record;
mod record_http;
mod record_stdio;
mod tools;

use std::path::{Component, Path, PathBuf};

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};

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
pub const INTERNAL_ERROR: i64 = -32603;

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
        // The envelope is read with its parameters left as text: a message's size, not its
        // shape (a list of a million small values), bounds what reading it allocates.
        let message = match serde_json::from_str::<Envelope>(line) {
            Ok(message) => message,
            Err(e) if e.is_data() => {
                return Some(error(Value::Null, INVALID_REQUEST, "a message is one JSON object (MCP has no batches since 2025-06-18)"))
            }
            Err(e) => return Some(error(Value::Null, PARSE_ERROR, format!("the line is not JSON: {e}"))),
        };
        let Some(id) = message.id else {
            return match message.method {
                // A notification (`notifications/initialized`, `notifications/cancelled`…): nothing to say.
                Some(_) => None,
                None => Some(error(Value::Null, INVALID_REQUEST, "a request needs a string `method`")),
            };
        };
        let id = match serde_json::from_str::<Value>(id.get()) {
            Ok(id) if id.is_string() || id.is_i64() || id.is_u64() => id,
            _ => return Some(error(Value::Null, INVALID_REQUEST, "a request's `id` is a string or an integer")),
        };
        if message.jsonrpc.as_deref() != Some("2.0") {
            return Some(error(id, INVALID_REQUEST, "`jsonrpc` must be \"2.0\""));
        }
        let Some(method) = message.method else {
            // A client's answer to a request: this server sends none.
            return match message.result.is_some() || message.error.is_some() {
                true => None,
                false => Some(error(id, INVALID_REQUEST, "a request needs a string `method`")),
            };
        };
        let params = message.params.map_or("{}", |p| p.get());
        Some(match self.dispatch(&method, params) {
            Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }).to_string(),
            Err((code, message)) => error(id, code, message),
        })
    }

    fn dispatch(&self, method: &str, params: &str) -> Result<Value, (i64, String)> {
        let invalid = |e: serde_json::Error| (INVALID_PARAMS, format!("{method}: {}", clip(&e.to_string())));
        match method {
            "initialize" => Ok(initialize(serde_json::from_str::<Option<Initialize>>(params).map_err(invalid)?.unwrap_or_default())),
            "ping" => Ok(json!({})),
            "tools/list" => Ok(json!({ "tools": tools::list() })),
            "tools/call" => {
                let call = serde_json::from_str::<Call>(params).map_err(invalid)?;
                let arguments = call.arguments.map_or("{}", |a| a.get());
                // A bug in a stage is this call's error, never the end of the session.
                let called = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| tools::call(self, &call.name, arguments)));
                called
                    .map_err(|_| (INTERNAL_ERROR, format!("ctxc failed inside the tool `{}` (a bug: please report it)", clip(&call.name))))?
                    .ok_or_else(|| (INVALID_PARAMS, format!("no tool `{}`: tools/list names them", clip(&call.name))))
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

/// A JSON-RPC message, its values left as text until read (unknown members are skipped).
#[derive(Deserialize)]
struct Envelope<'a> {
    jsonrpc: Option<String>,
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    method: Option<String>,
    #[serde(borrow)]
    params: Option<&'a RawValue>,
    #[serde(borrow)]
    result: Option<&'a RawValue>,
    #[serde(borrow)]
    error: Option<&'a RawValue>,
}

/// What `initialize` reads of its parameters: the revision the client asks for.
#[derive(Default, Deserialize)]
struct Initialize {
    #[serde(rename = "protocolVersion")]
    protocol_version: Option<String>,
}

/// `tools/call`'s parameters.
#[derive(Deserialize)]
struct Call<'a> {
    name: String,
    #[serde(borrow)]
    arguments: Option<&'a RawValue>,
}

/// `initialize`'s result: the revision agreed on, the tools capability and who this is.
fn initialize(params: Initialize) -> Value {
    let asked = params.protocol_version.as_deref();
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

/// A name from the client (or a parser's message quoting one) as an error message quotes it: at
/// most 200 characters, so that an answer's size does not depend on the input.
fn clip(name: &str) -> String {
    let mut chars = name.chars();
    let head: String = chars.by_ref().take(200).collect();
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
