//! `ctxc mcp record`: ctxc as an MCP *client*, asking each server a repository configures for its
//! lists and nothing else: `initialize`, `notifications/initialized`, `tools/list` (every page),
//! and `prompts/list` and `resources/list` when the server says it has them. What they answer
//! becomes the record ([`crate::hostview::mcp_tools`]), which every other command reads offline.
//!
//! A server is a program the configuration names, so it runs bounded: a time limit for the whole
//! exchange, a byte limit on what it writes, an item limit per list; at the end (or on any error)
//! its whole process group is killed (`npx` starts `node` as a child). Requests the server sends
//! (roots, sampling, elicitation) and its notifications are read and not answered. The binary
//! asks before starting anything (`src/cli/mcp.rs`).

use std::collections::BTreeSet;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::framing::{read_line, Line};
use super::{clip, PROTOCOL_VERSIONS};
use crate::hostview::mcp_tools::{sorted_by, Configured, RecordedServer};

/// How long, how much and how many a server may answer.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// For the whole exchange with one server, from its start.
    pub time: Duration,
    /// Bytes read from the server (its stdout, or its HTTP bodies), in all.
    pub max_bytes: u64,
    /// Items in one list (tools, prompts or resources), all pages together.
    pub max_items: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { time: Duration::from_secs(30), max_bytes: 16 * 1024 * 1024, max_items: 1000 }
    }
}

/// The most pages one list may take: a cursor that never ends is an error, not a loop.
const MAX_PAGES: usize = 100;

/// The stderr tail kept to explain a server that fails.
const STDERR_TAIL: usize = 2048;

/// How a server is reached, its configuration's `${VAR}` expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Launch {
    /// A program over stdio, started in `cwd` with the environment plus `env`.
    Stdio { program: String, args: Vec<String>, env: Vec<(String, String)>, cwd: PathBuf },
    /// A streamable HTTP endpoint.
    Http { url: String, headers: Vec<(String, String)> },
}

impl Launch {
    /// What runs (or what is asked), as the confirmation shows it: the command line with each
    /// argument quoted where needed, and the names of the variables it sets (not their values).
    pub fn shown(&self) -> String {
        match self {
            Launch::Stdio { program, args, env, .. } => {
                let words: Vec<String> = std::iter::once(program).chain(args).map(|w| quoted(w)).collect();
                let set: Vec<&str> = env.iter().map(|(k, _)| k.as_str()).collect();
                match set.is_empty() {
                    true => words.join(" "),
                    false => format!("{} (setting {})", words.join(" "), set.join(", ")),
                }
            }
            Launch::Http { url, headers } => {
                let names: Vec<&str> = headers.iter().map(|(k, _)| k.as_str()).collect();
                match names.is_empty() {
                    true => format!("POST {url}"),
                    false => format!("POST {url} (with headers {})", names.join(", ")),
                }
            }
        }
    }
}

/// A word as a shell would need it written, for people to read.
fn quoted(word: &str) -> String {
    let plain = !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:@+,%".contains(c));
    match plain {
        true => word.to_string(),
        false => format!("'{}'", word.replace('\'', r"'\''")),
    }
}

/// How `server` is started from the project at `project` (an absolute path), `${VAR}` and
/// `${VAR:-default}` expanded as Claude Code expands them in `command`, `args`, `env`, `url` and
/// `headers`, from `lookup` (the environment), and in a plugin `${CLAUDE_PLUGIN_ROOT}` as the
/// plugin's folder. A variable neither set nor given a default is an error: Claude Code does not
/// start such a configuration either.
pub fn launch(server: &Configured, project: &Path, lookup: &dyn Fn(&str) -> Option<String>) -> Result<Launch, String> {
    let plugin_root = server.plugin.as_ref().map(|(_, folder)| project.join(folder).display().to_string());
    let get = |name: &str| match (name, &plugin_root) {
        ("CLAUDE_PLUGIN_ROOT", Some(root)) => Some(root.clone()),
        _ => lookup(name),
    };
    let config = &server.config;
    let text = |key: &str| config.get(key).and_then(Value::as_str).map(|s| expand(s, &get)).transpose();
    let map = |key: &str| -> Result<Vec<(String, String)>, String> {
        let mut out = Vec::new();
        for (k, v) in config.get(key).and_then(Value::as_object).into_iter().flatten() {
            let v = v.as_str().ok_or_else(|| format!("`{key}.{k}` is not a string"))?;
            out.push((k.clone(), expand(v, &get)?));
        }
        Ok(out)
    };
    let kind = config.get("type").and_then(Value::as_str);
    match (kind, text("command")?, text("url")?) {
        (Some("sse"), ..) => Err("the SSE transport (`type: sse`) is not recorded: ctxc speaks stdio and streamable HTTP".to_string()),
        (None | Some("stdio"), Some(program), None) => {
            let mut args = Vec::new();
            for arg in config.get("args").and_then(Value::as_array).into_iter().flatten() {
                args.push(expand(arg.as_str().ok_or("an argument is not a string")?, &get)?);
            }
            Ok(Launch::Stdio { program, args, env: map("env")?, cwd: project.to_path_buf() })
        }
        (None | Some("http" | "streamable-http"), None, Some(url)) => Ok(Launch::Http { url, headers: map("headers")? }),
        (Some(other), ..) if !matches!(other, "stdio" | "http" | "streamable-http") => Err(format!("unknown transport `type: {other}`")),
        _ => Err("it needs either a `command` (stdio) or a `url` (HTTP), matching its `type`".to_string()),
    }
}

/// `text` with `${NAME}` and `${NAME:-default}` replaced (a `${` that is not one is kept).
fn expand(text: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let Some(end) = after.find('}') else {
            rest = &rest[at..];
            break;
        };
        let inner = &after[..end];
        let (name, default) = inner.split_once(":-").map_or((inner, None), |(n, d)| (n, Some(d)));
        let valid =
            name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        match (valid, lookup(name), default) {
            (false, ..) => out.push_str(&rest[at..at + 3 + end]),
            (true, Some(value), _) => out.push_str(&value),
            (true, None, Some(default)) => out.push_str(default),
            (true, None, None) => return Err(format!("`${{{name}}}` is not set and has no default (`${{{name}:-value}}`)")),
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// One way of exchanging JSON-RPC messages with a server.
pub(super) trait Transport {
    /// Sends a request and returns its result (an error response is an error).
    fn request(&mut self, method: &str, params: Value) -> Result<Value, String>;
    /// Sends a notification.
    fn notify(&mut self, method: &str) -> Result<(), String>;
}

/// Asks the server `server` configures for its lists, as `launch` says, within `limits`.
pub fn record(server: &Configured, launch: &Launch, limits: &Limits) -> Result<RecordedServer, String> {
    let started = Instant::now();
    match launch {
        Launch::Stdio { program, args, env, cwd } => {
            let mut stdio = StdioServer::start(program, args, env, cwd, limits, started)?;
            let asked = ask(&mut stdio, server, limits);
            stdio.stop();
            asked
        }
        Launch::Http { url, headers } => ask(&mut super::record_http::HttpServer::new(url, headers, limits, started), server, limits),
    }
}

/// The exchange: the handshake, then the lists the server's capabilities announce.
fn ask(t: &mut dyn Transport, server: &Configured, limits: &Limits) -> Result<RecordedServer, String> {
    let init = t.request(
        "initialize",
        json!({
            "protocolVersion": PROTOCOL_VERSIONS[0],
            "capabilities": {},
            "clientInfo": { "name": "ctxc", "version": env!("CARGO_PKG_VERSION") },
        }),
    )?;
    let protocol_version =
        init.get("protocolVersion").and_then(Value::as_str).ok_or("`initialize` answered without a `protocolVersion`")?.to_string();
    t.notify("notifications/initialized")?;
    let has = |capability: &str| init.get("capabilities").and_then(|c| c.get(capability)).is_some_and(|v| !v.is_null());
    let tools = match has("tools") {
        true => list(t, "tools/list", "tools", "name", limits)?,
        false => Vec::new(),
    };
    let prompts = has("prompts").then(|| list(t, "prompts/list", "prompts", "name", limits)).transpose()?;
    let resources = has("resources").then(|| list(t, "resources/list", "resources", "uri", limits)).transpose()?;
    Ok(RecordedServer {
        file: server.file.clone(),
        server: server.server.clone(),
        config: server.hash.clone(),
        protocol_version,
        server_info: init.get("serverInfo").cloned().unwrap_or(Value::Null),
        tools,
        prompts,
        resources,
    })
}

/// Every item of a paginated list, following `nextCursor`, sorted by `key`.
fn list(t: &mut dyn Transport, method: &str, member: &str, key: &str, limits: &Limits) -> Result<Vec<Value>, String> {
    let mut items: Vec<Value> = Vec::new();
    let mut cursors = BTreeSet::new();
    let mut params = json!({});
    for _ in 0..MAX_PAGES {
        let result = t.request(method, params)?;
        let page = result.get(member).and_then(Value::as_array).ok_or_else(|| format!("`{method}` answered without a `{member}` list"))?;
        if items.len() + page.len() > limits.max_items {
            return Err(format!("`{method}` lists more than {} {member} (--max-items): not recorded", limits.max_items));
        }
        for item in page {
            if !item.get(key).is_some_and(Value::is_string) {
                return Err(format!("`{method}` lists an item without a string `{key}`: {}", clip(&item.to_string())));
            }
        }
        items.extend(page.iter().cloned());
        match result.get("nextCursor") {
            None | Some(Value::Null) => return Ok(sorted_by(items, key)),
            Some(Value::String(cursor)) if cursors.insert(cursor.clone()) => params = json!({ "cursor": cursor }),
            Some(Value::String(cursor)) => return Err(format!("`{method}` gave the cursor `{}` twice", clip(cursor))),
            Some(_) => return Err(format!("`{method}` gave a `nextCursor` that is not a string")),
        }
    }
    Err(format!("`{method}` gave more than {MAX_PAGES} pages"))
}

/// What the stdout reader passes on.
enum Output {
    Line(Line),
    Failed(String),
    TooMuch,
}

/// A server started over stdio: its process (leading a process group of its own), its stdin,
/// its stdout's lines (read on a thread), and its stderr's last bytes.
struct StdioServer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Output>,
    stderr: Arc<Mutex<Vec<u8>>>,
    deadline: Instant,
    limits: Limits,
    next_id: i64,
}

impl StdioServer {
    fn start(
        program: &str,
        args: &[String],
        env: &[(String, String)],
        cwd: &Path,
        limits: &Limits,
        started: Instant,
    ) -> Result<Self, String> {
        let mut command = Command::new(program);
        command.args(args).envs(env.iter().map(|(k, v)| (k, v))).current_dir(cwd);
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| format!("cannot start `{}`: {e}", clip(program)))?;
        let (Some(stdin), Some(stdout), Some(stderr)) = (child.stdin.take(), child.stdout.take(), child.stderr.take()) else {
            stop(&mut child);
            return Err("the server's pipes could not be opened".to_string());
        };
        let (sender, lines) = mpsc::channel();
        let max_bytes = limits.max_bytes;
        // The threads end when the pipes close, which killing the process group does.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout.take(max_bytes + 1));
            let mut buf = Vec::new();
            loop {
                let read = read_line(&mut reader, &mut buf);
                if reader.get_ref().limit() == 0 {
                    let _ = sender.send(Output::TooMuch);
                    return;
                }
                let (message, last) = match read {
                    Ok(Line::End) => (Output::Line(Line::End), true),
                    Ok(line) => (Output::Line(line), false),
                    Err(e) => (Output::Failed(e.to_string()), true),
                };
                if sender.send(message).is_err() || last {
                    return;
                }
            }
        });
        let tail = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&tail);
        std::thread::spawn(move || {
            let mut stderr = stderr;
            let mut chunk = [0u8; 4096];
            while let Ok(n @ 1..) = stderr.read(&mut chunk) {
                let Ok(mut tail) = kept.lock() else { return };
                tail.extend_from_slice(&chunk[..n]);
                let over = tail.len().saturating_sub(STDERR_TAIL);
                tail.drain(..over);
            }
        });
        Ok(StdioServer { child, stdin: Some(stdin), lines, stderr: tail, deadline: started + limits.time, limits: *limits, next_id: 0 })
    }

    fn send(&mut self, message: &Value, method: &str) -> Result<(), String> {
        let line = format!("{message}\n");
        let written = self.stdin.as_mut().map(|stdin| stdin.write_all(line.as_bytes()).and_then(|()| stdin.flush()));
        match written {
            Some(Ok(())) => Ok(()),
            _ => Err(self.exited(method)),
        }
    }

    /// Why the server stopped answering: it exited (with its status and last words on stderr).
    fn exited(&mut self, method: &str) -> String {
        // The exit status, if it comes soon: a closed stdout usually means the process ended.
        let mut status = None;
        for _ in 0..50 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let tail = self.stderr.lock().map(|t| String::from_utf8_lossy(&t).into_owned()).unwrap_or_default();
        let last = tail.lines().rev().find(|l| !l.trim().is_empty()).map(|l| format!(": {}", clip(l.trim()))).unwrap_or_default();
        match status {
            Some(s) => format!("the server exited ({s}) before answering `{method}`{last}"),
            None => format!("the server closed its stdout before answering `{method}`{last}"),
        }
    }

    fn stop(mut self) {
        self.stdin.take();
        stop(&mut self.child);
    }
}

impl Transport for StdioServer {
    fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }), method)?;
        loop {
            let left = self.deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(Output::Line(Line::Text(line))) => line,
                Ok(Output::Line(Line::Refused(why))) => return Err(format!("answered `{method}` with a line ctxc cannot read: {why}")),
                Ok(Output::Line(Line::End)) | Err(RecvTimeoutError::Disconnected) => return Err(self.exited(method)),
                Ok(Output::Failed(e)) => return Err(format!("cannot read the server's stdout: {e}")),
                Ok(Output::TooMuch) => {
                    return Err(format!("the server wrote more than {} bytes (--max-bytes): stopped", self.limits.max_bytes))
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no answer to `{method}` within {} s (--timeout): stopped", self.limits.time.as_secs_f64()))
                }
            };
            if let Some(result) = answer(&line, id, method)? {
                return Ok(result);
            }
        }
    }

    fn notify(&mut self, method: &str) -> Result<(), String> {
        self.send(&json!({ "jsonrpc": "2.0", "method": method }), method)
    }
}

/// The result in `line` when it is the response to request `id`; `None` for any other message
/// (a notification, a request of the server's own); an error for an error response or a line
/// that is no JSON-RPC message.
pub(super) fn answer(line: &str, id: i64, method: &str) -> Result<Option<Value>, String> {
    if line.trim().is_empty() {
        return Ok(None);
    }
    let message: Value =
        serde_json::from_str(line).map_err(|e| format!("answered `{method}` with a line that is not JSON ({e}): {}", clip(line)))?;
    if !message.is_object() {
        return Err(format!("answered `{method}` with JSON that is not a message: {}", clip(line)));
    }
    if message.get("method").is_some() || message.get("id") != Some(&json!(id)) {
        return Ok(None);
    }
    if let Some(error) = message.get("error") {
        return Err(format!("`{method}` failed: {}", clip(&error.to_string())));
    }
    message.get("result").cloned().map(Some).ok_or_else(|| format!("the answer to `{method}` has no `result`"))
}

/// Ends a server: its whole process group (children it started too), then the process.
fn stop(child: &mut Child) {
    #[cfg(unix)]
    {
        use rustix::process::{kill_process_group, Pid, Signal};
        let _ = kill_process_group(Pid::from_child(child), Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_expand_as_claude_code_expands_them() {
        let lookup = |name: &str| (name == "HOME_DIR").then(|| "/home/a".to_string());
        assert_eq!(expand("${HOME_DIR}/x", &lookup), Ok("/home/a/x".into()));
        assert_eq!(expand("${NOPE:-fallback} ${HOME_DIR:-y}", &lookup), Ok("fallback /home/a".into()));
        assert_eq!(expand("$HOME_DIR ${1x} ${open", &lookup), Ok("$HOME_DIR ${1x} ${open".into()));
        assert!(expand("${NOPE}", &lookup).expect_err("unset").contains("`${NOPE}` is not set"));
    }

    #[test]
    fn only_the_answer_to_the_request_is_taken() {
        assert_eq!(answer(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#, 1, "m"), Ok(None));
        assert_eq!(answer(r#"{"jsonrpc":"2.0","id":1,"method":"roots/list"}"#, 1, "m"), Ok(None), "the server's own request");
        assert_eq!(answer(r#"{"jsonrpc":"2.0","id":2,"result":{}}"#, 1, "m"), Ok(None));
        assert_eq!(answer(r#"{"jsonrpc":"2.0","id":1,"result":{"a":1}}"#, 1, "m"), Ok(Some(json!({ "a": 1 }))));
        assert!(answer("[1]", 1, "m").is_err());
        assert!(answer("Starting server…", 1, "m").expect_err("not JSON").contains("not JSON"));
        assert!(answer(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}"#, 1, "m").is_err());
    }
}
