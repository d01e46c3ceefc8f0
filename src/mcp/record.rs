//! `ctxc mcp record`: ctxc as an MCP *client*, asking each server a repository configures for its
//! lists and nothing else: `initialize`, `notifications/initialized`, `tools/list` (every page),
//! and `prompts/list` and `resources/list` when the server says it has them. What they answer
//! becomes the record ([`crate::mcp_record`]), which every other command reads offline.
//!
//! A server is a program the configuration names, so it runs bounded: a time limit for the whole
//! exchange, a byte limit on what it writes, an item limit per list; at the end (or on any error)
//! its whole process group is killed (`npx` starts `node` as a child). Requests the server sends
//! (roots, sampling, elicitation) and its notifications are read and not answered. The binary
//! asks before starting anything (`src/cli/mcp.rs`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{json, Value};

pub use super::client::Limits;
use super::client::Transport;
use super::record_http::HttpServer;
use super::record_stdio::StdioServer;
use super::{clip, PROTOCOL_VERSIONS};
use crate::hostview::mcp_tools::Configured;
use crate::mcp_record::{sorted_by, RecordedServer};

/// The most pages one list may take: a cursor that never ends is an error, not a loop.
const MAX_PAGES: usize = 100;

/// How a server is reached, its configuration's `${VAR}` expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Launch {
    /// A program over stdio, started in `cwd` with the environment plus `env`.
    Stdio { program: String, args: Vec<String>, env: Vec<(String, String)>, cwd: PathBuf },
    /// A streamable HTTP endpoint.
    Http { url: String, headers: Vec<(String, String)> },
}

/// What `server` runs (or asks), as the confirmation shows it: its command line as written, each
/// word quoted where needed (`${VAR}` left as written, so that a secret in the environment is not
/// printed), and the names of the variables or headers it sets, not their values.
pub fn shown(server: &Configured) -> String {
    let config = &server.config;
    let text = |key: &str| config.get(key).and_then(Value::as_str);
    let names =
        |key: &str| -> Vec<&str> { config.get(key).and_then(Value::as_object).into_iter().flatten().map(|(k, _)| k.as_str()).collect() };
    match (text("command"), text("url")) {
        (Some(program), _) => {
            let args = config.get("args").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str);
            let words: Vec<String> = std::iter::once(program).chain(args).map(quoted).collect();
            match names("env") {
                set if set.is_empty() => words.join(" "),
                set => format!("{} (setting {})", words.join(" "), set.join(", ")),
            }
        }
        (None, Some(url)) => match names("headers") {
            set if set.is_empty() => format!("POST {url}"),
            set => format!("POST {url} (with headers {})", set.join(", ")),
        },
        (None, None) => String::new(),
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
        Launch::Http { url, headers } => ask(&mut HttpServer::new(url, headers, limits, started), server, limits),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_confirmation_shows_the_command_as_written() {
        let server = Configured {
            file: ".mcp.json".into(),
            display: ".mcp.json".into(),
            server: "api".into(),
            config: json!({ "command": "npx", "args": ["-y", "pkg", "--token", "${API_TOKEN}", "a b"], "env": { "LEVEL": "${LEVEL:-1}" } }),
            hash: String::new(),
            plugin: None,
            only: None,
            except: Vec::new(),
        };
        assert_eq!(shown(&server), "npx -y pkg --token '${API_TOKEN}' 'a b' (setting LEVEL)");
    }

    #[test]
    fn variables_expand_as_claude_code_expands_them() {
        let lookup = |name: &str| (name == "HOME_DIR").then(|| "/home/a".to_string());
        assert_eq!(expand("${HOME_DIR}/x", &lookup), Ok("/home/a/x".into()));
        assert_eq!(expand("${NOPE:-fallback} ${HOME_DIR:-y}", &lookup), Ok("fallback /home/a".into()));
        assert_eq!(expand("$HOME_DIR ${1x} ${open", &lookup), Ok("$HOME_DIR ${1x} ${open".into()));
        assert!(expand("${NOPE}", &lookup).expect_err("unset").contains("`${NOPE}` is not set"));
    }
}
