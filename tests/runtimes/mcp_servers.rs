//! `ctxc mcp record` against the reference MCP servers (npm `@modelcontextprotocol/server-memory`,
//! `-everything` and `-filesystem` 2026.8.31; PyPI `mcp-server-fetch` 2026.10.24), installed by
//! `scripts/runtimes` and run offline: what ctxc records of each must be what the official Python
//! MCP client (`mcp`, the fetch server's own dependency) lists from the same server, member for
//! member; and the host view must count every recorded tool.

use std::path::Path;

use serde_json::{json, Value};

use crate::common;

/// The four servers, as `.mcp.json` names them, for a project at `dir`.
fn servers(dir: &Path) -> Value {
    let npm = common::runtime_path("mcp-servers/node_modules/@modelcontextprotocol");
    let python = common::runtime_path("mcp-server-fetch-2026.10.24/bin/python");
    let node = common::require_tool("node");
    let script = |name: &str| npm.join(name).join("dist/index.js").display().to_string();
    std::fs::create_dir_all(dir.join("files")).expect("mkdir");
    json!({
        "memory": { "command": node, "args": [script("server-memory")], "env": { "MEMORY_FILE_PATH": dir.join("memory.jsonl") } },
        "everything": { "command": node, "args": [script("server-everything")] },
        "filesystem": { "command": node, "args": [script("server-filesystem"), dir.join("files")] },
        "fetch": { "command": python, "args": ["-m", "mcp_server_fetch"] },
    })
}

#[test]
#[ignore = "needs the reference MCP servers in target/runtimes: run by scripts/test after scripts/runtimes"]
fn the_record_is_what_the_official_client_lists() {
    let project = tempfile::tempdir().expect("tempdir");
    let dir = project.path().canonicalize().expect("canonical");
    let servers = servers(&dir);
    std::fs::write(dir.join(".mcp.json"), json!({ "mcpServers": servers }).to_string()).expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["mcp", "record", ".", "--yes"])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("ctxc runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let record: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("ctxc.mcp-tools")).expect("record")).expect("JSON");

    let python = common::runtime_path("mcp-server-fetch-2026.10.24/bin/python");
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/mcp_servers/list.py");
    let mut child = std::process::Command::new(python)
        .arg(harness)
        .current_dir(&dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python runs");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), servers.to_string().as_bytes()).expect("write");
    let listed = child.wait_with_output().expect("python ends");
    assert!(listed.status.success(), "the Python client failed: {}", String::from_utf8_lossy(&listed.stderr));
    let official: Value = serde_json::from_slice(&listed.stdout).expect("JSON");

    let mut problems = Vec::new();
    let mut tools = 0;
    for entry in record["servers"].as_array().expect("servers") {
        let name = entry["server"].as_str().expect("name");
        let theirs = &official[name];
        let by = |list: &Value, key: &str| -> Value {
            let mut items = list.as_array().cloned().unwrap_or_default();
            items.sort_by(|a, b| a[key].as_str().cmp(&b[key].as_str()));
            if list.is_null() {
                Value::Null
            } else {
                Value::Array(items)
            }
        };
        tools += entry["tools"].as_array().map_or(0, Vec::len);
        for (member, key) in [("tools", "name"), ("prompts", "name"), ("resources", "uri")] {
            let ours = entry.get(member).cloned().unwrap_or(Value::Null);
            if ours != by(&theirs[member], key) {
                let pretty = |v: &Value| serde_json::to_string_pretty(&sorted_keys(v)).expect("JSON");
                problems.push(format!("{name} {member}:\n{}", common::runtime_diff(&pretty(&by(&theirs[member], key)), &pretty(&ours))));
            }
        }
        for member in ["protocol_version", "server_info"] {
            if entry[member] != theirs[member] {
                problems.push(format!("{name} {member}: the client got {}, ctxc recorded {}", theirs[member], entry[member]));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let names: Vec<&str> = record["servers"].as_array().expect("servers").iter().map(|s| s["server"].as_str().expect("name")).collect();
    assert_eq!(names, ["everything", "fetch", "filesystem", "memory"]);
    assert!(tools >= 30, "{tools} tools in all");

    // The host view counts each of them, offline, and has nothing to say about the record.
    let view = std::process::Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["cost", ".", "--host", "claude-code", "--format", "json"])
        .current_dir(&dir)
        .output()
        .expect("ctxc runs");
    let json: Value = serde_json::from_slice(&view.stdout).expect("JSON");
    let host = &json["hosts"][0];
    let counted: usize = host["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .filter(|s| s["title"].as_str().is_some_and(|t| t.starts_with("MCP tools: ")))
        .map(|s| s["parts"].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(counted, tools);
    assert_eq!(host["notes"], json!([]));
}

/// `value` with every object's keys sorted, so that a diff shows what differs, not the order the
/// client and the server write members in (compared values are equal in any order).
fn sorted_keys(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(keys.into_iter().map(|k| (k.clone(), sorted_keys(&map[k]))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted_keys).collect()),
        other => other.clone(),
    }
}
