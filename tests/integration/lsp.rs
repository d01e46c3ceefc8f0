//! `ctxc lsp` driven over JSON-RPC as an editor drives it: initialize, open, change (unsaved
//! text that makes a finding and then takes it away), hover, inlay hints, definition,
//! completion, code action, `ctxc/render`, shutdown and exit.

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use serde_json::{json, Value};

/// Long enough for a slow debug build on a busy machine; a server that hangs fails loudly.
const TIMEOUT: Duration = Duration::from_secs(60);

const MANIFEST: &str = r#"[agent]
name = "demo"
model = "gpt-4o"

[pipeline]
steps = [
  { id = "core", kind = "module", budget = 1000 },
  { id = "tools", kind = "tool_list" },
]

[modules]
core = { source = "prompts/core.md" }

[modes.agent]
[modes.plan]
tools = { fs = "read-only" }

[tools.fs]
files = ["tools/fs.json"]
"#;

const TOOLS: &str = r#"[{"type": "function", "function": {"name": "read_file", "description": "Read a file.", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}}]"#;

struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: u64,
    /// Notifications received while waiting for responses, oldest first.
    notifications: Vec<Value>,
}

impl Server {
    fn start(root: &std::path::Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ctxc"))
            .arg("lsp")
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("ctxc lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let (send, messages) = std::sync::mpsc::channel();
        std::thread::spawn(move || loop {
            let mut length = None;
            loop {
                let mut line = String::new();
                if stdout.read_line(&mut line).expect("read header") == 0 {
                    return;
                }
                match line.trim_end() {
                    "" => break,
                    header => length = header.strip_prefix("Content-Length: ").map(|n| n.parse::<usize>().expect("length")).or(length),
                }
            }
            let mut body = vec![0; length.expect("a Content-Length header")];
            stdout.read_exact(&mut body).expect("read body");
            if send.send(serde_json::from_slice::<Value>(&body).expect("JSON body")).is_err() {
                return;
            }
        });
        Server { child, stdin, messages, next_id: 0, notifications: Vec::new() }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write to the server");
        self.stdin.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn receive(&mut self) -> Value {
        match self.messages.recv_timeout(TIMEOUT) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => panic!("no message from ctxc lsp within {TIMEOUT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("ctxc lsp closed its output"),
        }
    }

    /// Sends a request and returns its response, keeping the notifications that came first.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive();
            if message.get("id") == Some(&json!(id)) {
                assert!(message.get("error").is_none(), "{method} failed: {message}");
                return message["result"].clone();
            }
            self.notifications.push(message);
        }
    }

    /// The next diagnostics published for `uri` (taken from those already received first).
    fn diagnostics_for(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let found =
                self.notifications.iter().position(|n| n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri);
            if let Some(i) = found {
                let n = self.notifications.remove(i);
                return n["params"]["diagnostics"].as_array().expect("a list").clone();
            }
            let message = self.receive();
            self.notifications.push(message);
        }
    }
}

fn uri(path: &std::path::Path) -> String {
    format!("file://{}", path.display())
}

fn position(line: u32, character: u32) -> Value {
    json!({"line": line, "character": character})
}

#[test]
fn an_editor_session() {
    let dir = common::project(&[
        ("ctxc.toml", MANIFEST),
        ("prompts/core.md", "You are a careful assistant. Answer briefly.\n"),
        ("tools/fs.json", TOOLS),
    ]);
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let (manifest, core) = (uri(&root.join("ctxc.toml")), uri(&root.join("prompts/core.md")));
    let mut server = Server::start(&root);

    let init = server.request("initialize", json!({"capabilities": {}, "rootUri": uri(&root)}));
    let caps = &init["capabilities"];
    for capability in ["hoverProvider", "definitionProvider", "completionProvider", "codeActionProvider", "inlayHintProvider"] {
        assert!(!caps[capability].is_null(), "{capability} missing from {caps}");
    }
    server.notify("initialized", json!({}));

    // Unsaved text with a leftover placeholder: TPL003 at the placeholder, as `ctxc check` says.
    let text = "You are careful.\nUse {tools_description} well.\n";
    server.notify("textDocument/didOpen", json!({"textDocument": {"uri": core, "languageId": "markdown", "version": 1, "text": text}}));
    let found = server.diagnostics_for(&core);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "TPL003");
    assert_eq!(found[0]["severity"], 2, "a warning");
    assert_eq!(found[0]["range"], json!({"start": position(1, 4), "end": position(1, 23)}));
    assert!(std::fs::read_to_string(root.join("prompts/core.md")).expect("read").starts_with("You are a careful"), "disk untouched");

    // The same finding comes with the same message from `ctxc check` on the saved file.
    std::fs::write(root.join("prompts/core.md"), text).expect("write");
    let check = Command::new(env!("CARGO_BIN_EXE_ctxc")).args(["check", "--format", "json"]).arg(&root).output().expect("check runs");
    let report: Value = serde_json::from_slice(&check.stdout).expect("check JSON");
    let from_check = report["diagnostics"].as_array().expect("diagnostics").iter().find(|d| d["code"] == "TPL003").expect("TPL003").clone();
    assert!(found[0]["message"].as_str().expect("message").starts_with(from_check["message"].as_str().expect("message")));

    // A code action request on it: this finding has no fix, so none is offered.
    let actions = server.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": core}, "range": found[0]["range"], "context": {"diagnostics": [found[0]]}}),
    );
    assert_eq!(actions, json!([]));

    // Edited away (still unsaved): the file's findings are cleared.
    let fixed = "You are careful.\nUse the tools well, and say which one you used and why.\n";
    server.notify("textDocument/didChange", json!({"textDocument": {"uri": core, "version": 2}, "contentChanges": [{"text": fixed}]}));
    assert_eq!(server.diagnostics_for(&core), Vec::<Value>::new());

    // Hover in the module file: its tokens in each mode, from the unsaved text.
    let hover = server.request("textDocument/hover", json!({"textDocument": {"uri": core}, "position": position(1, 3)}));
    let markdown = hover["contents"]["value"].as_str().expect("markdown").to_string();
    assert_eq!(hover["contents"]["kind"], "markdown");
    let rendered = server.request("ctxc/render", json!({"uri": manifest, "mode": "plan"}));
    let module_tokens = rendered["tokens"].as_i64().expect("tokens");
    assert_eq!(rendered["text"], fixed.trim_end(), "plan mode has no tools: the prompt is the unsaved module");
    assert_eq!(rendered["mode"], "plan");
    for mode in ["agent", "plan"] {
        let row = format!("| `demo` | `{mode}` | `default` | {module_tokens} | 0.0 % | 1,000 (ok) |");
        assert!(markdown.contains(&row), "no `{row}` in:\n{markdown}");
    }

    // Hover on the step in the manifest, and the inlay hints there.
    let hover = server.request("textDocument/hover", json!({"textDocument": {"uri": manifest}, "position": position(6, 11)}));
    let markdown = hover["contents"]["value"].as_str().expect("markdown");
    assert!(markdown.starts_with("**step `core`**"), "{markdown}");
    let hints = server.request(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": manifest}, "range": {"start": position(0, 0), "end": position(99, 0)}}),
    );
    let labels: Vec<&str> = hints.as_array().expect("hints").iter().map(|h| h["label"].as_str().expect("label")).collect();
    assert!(labels[0].starts_with("tokens (default): agent ") && labels[0].contains(" · plan "), "{labels:?}");
    assert!(labels.contains(&format!("  agent {module_tokens} · plan {module_tokens}").as_str()), "{labels:?}");
    assert_eq!(hints[1]["position"]["line"], 6, "the core step's line");

    // Definition: from the module's source to the file, from a tool file reference to it.
    let definition = server.request("textDocument/definition", json!({"textDocument": {"uri": manifest}, "position": position(11, 22)}));
    assert_eq!(definition, json!([{"uri": core, "range": {"start": position(0, 0), "end": position(0, 0)}}]));
    let definition = server.request("textDocument/definition", json!({"textDocument": {"uri": manifest}, "position": position(18, 12)}));
    assert_eq!(definition[0]["uri"], uri(&root.join("tools/fs.json")));

    // Completion from the schema: the keys of [agent].
    let items = server.request("textDocument/completion", json!({"textDocument": {"uri": manifest}, "position": position(1, 0)}));
    let labels: Vec<&str> = items.as_array().expect("items").iter().map(|i| i["label"].as_str().expect("label")).collect();
    assert!(labels.contains(&"model") && labels.contains(&"name"), "{labels:?}");

    // Unknown methods are errors, not crashes.
    server.next_id += 1;
    let id = server.next_id;
    server.send(json!({"jsonrpc": "2.0", "id": id, "method": "ctxc/unknown", "params": {}}));
    let answer = loop {
        let m = server.receive();
        if m["id"] == id {
            break m;
        }
    };
    assert_eq!(answer["error"]["code"], -32601);

    assert_eq!(server.request("shutdown", Value::Null), Value::Null);
    server.notify("exit", Value::Null);
    let status = common::exit_within(&mut server.child, TIMEOUT, "ctxc lsp after `exit`");
    assert!(status.success(), "{status:?}");
}

/// A client that watches files for its server when asked is asked to report the files the
/// project reads (every manifest; the kinds of file its agents read), as a change on disk the
/// editor did not make shows at once; one that cannot is not asked.
#[test]
fn the_server_asks_a_client_that_can_to_watch_the_files_it_reads() {
    let dir = common::project(&[("ctxc.toml", MANIFEST), ("prompts/core.md", "Be brief.\n"), ("tools/fs.json", TOOLS)]);
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    for dynamic in [true, false] {
        let mut server = Server::start(&root);
        let capabilities = json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": dynamic}}});
        server.request("initialize", json!({"capabilities": capabilities, "rootUri": uri(&root)}));
        server.notify("initialized", json!({}));
        // Answered after whatever the server sent on its own once initialized.
        server.request("textDocument/hover", json!({"textDocument": {"uri": uri(&root.join("ctxc.toml"))}, "position": position(0, 0)}));
        let asked: Vec<Value> = server.notifications.iter().filter(|m| m["method"] == "client/registerCapability").cloned().collect();
        if !dynamic {
            assert!(asked.is_empty(), "{asked:?}");
            continue;
        }
        assert_eq!(asked.len(), 1, "{asked:?}");
        let registration = &asked[0]["params"]["registrations"][0];
        assert_eq!(registration["method"], "workspace/didChangeWatchedFiles");
        let globs: Vec<&str> = registration["registerOptions"]["watchers"]
            .as_array()
            .expect("watchers")
            .iter()
            .filter_map(|w| w["globPattern"].as_str())
            .collect();
        // Every file: once the client agrees, what the server kept of the disk holds until a report.
        assert_eq!(globs, ["**/*"]);
        let id = asked[0]["id"].clone();
        server.send(json!({"jsonrpc": "2.0", "id": id, "result": null}));
        // A change reported by the client's watcher is seen at once, though the server no longer
        // takes the stamps of what it kept.
        std::fs::write(root.join("prompts/core.md"), "Use {tools_description} well.\n").expect("write");
        let core = uri(&root.join("prompts/core.md"));
        server.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": core, "type": 2}]}));
        let found = server.diagnostics_for(&core);
        assert_eq!(found.iter().map(|d| d["code"].clone()).collect::<Vec<_>>(), [json!("TPL003")], "{found:?}");
        std::fs::write(root.join("prompts/core.md"), "Be brief.\n").expect("write");
        assert!(server.request("shutdown", Value::Null).is_null());
    }
}

/// What the client sends is bounded (issue 27, D12): a body that is not a message (not UTF-8,
/// nested past the JSON reader's depth) gets a parse error and the session goes on; a length
/// over the limit stops the server at once, saying why, without allocating it.
#[test]
fn hostile_framing() {
    let dir = common::project(&[("ctxc.toml", MANIFEST), ("prompts/core.md", "Be brief.\n"), ("tools/fs.json", TOOLS)]);
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let mut server = Server::start(&root);
    server.request("initialize", json!({"capabilities": {}, "rootUri": uri(&root)}));
    server.notify("initialized", json!({}));
    let deep = format!("{}{}", "[".repeat(50_000), "]".repeat(50_000)).into_bytes();
    for body in [b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"\xff\"}".to_vec(), deep] {
        write!(server.stdin, "Content-Length: {}\r\n\r\n", body.len()).expect("header");
        server.stdin.write_all(&body).expect("body");
        server.stdin.flush().expect("flush");
        let error = std::iter::repeat_with(|| server.receive()).find(|m| m.get("method").is_none()).expect("an answer");
        assert_eq!(error["error"]["code"], -32700, "{error}");
        assert!(error["id"].is_null(), "{error}");
    }
    // Still serving.
    assert!(server.request("shutdown", Value::Null).is_null());

    let mut child = Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .arg("lsp")
        .current_dir(&root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ctxc lsp starts");
    let mut stdin = child.stdin.take().expect("stdin");
    // Twenty-four GiB announced, one byte sent, the stream left open: the server must not wait
    // for the rest nor reserve room for it.
    stdin.write_all(format!("Content-Length: {}\r\n\r\n{{", 24u64 << 30).as_bytes()).expect("header");
    stdin.flush().expect("flush");
    let out = child.wait_with_output().expect("ctxc lsp ends");
    drop(stdin);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("over the") && stderr.contains("-byte limit"), "{stderr}");
}

/// mimalloc is built without transparent huge pages (`no_thp` in Cargo.toml): with them, the first
/// touch of each 2 MiB page zeroed all of it, the largest single cost of `ctxc cost` on bench.py's
/// 100-agent project, and held a third more memory. Seen in the kernel's account of a server
/// holding a 16 MiB message it is still reading: no huge page (the build before held 48 MiB of them).
#[test]
fn the_server_holds_no_transparent_huge_page() {
    // Only a kernel that gives huge pages to the memory that asks for them shows the difference.
    let setting = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").unwrap_or_default();
    if !setting.contains("[madvise]") {
        return;
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("ctxc lsp starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"x":"{}"#, "a".repeat(16 << 20));
    // The message is left unfinished: the server holds what it read and waits for the rest. A
    // pipe holds 64 KiB, so once the write returns the server has read all but that much.
    write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len() + 10).expect("message");
    stdin.flush().expect("flush");
    let memory = std::fs::read_to_string(format!("/proc/{}/smaps_rollup", child.id())).expect("the kernel's account");
    child.kill().expect("kill");
    child.wait().expect("ends");
    let field = |name: &str| -> u64 {
        let line = memory.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name} in {memory}"));
        line.split_whitespace().nth(1).and_then(|kb| kb.parse().ok()).expect("kB")
    };
    assert!(field("Rss:") >= 16 << 10, "the message is held: {memory}");
    assert_eq!(field("AnonHugePages:"), 0, "{memory}");
}
