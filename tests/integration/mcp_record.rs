//! `ctxc mcp record`: MCP servers' tool lists recorded, driven through the CLI against the small
//! servers of `tests/fixtures/mcp_record/server.py` (well-behaved and hostile), and the record read
//! by the host view, which never starts a server.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{json, Value};

use crate::common;

fn fixture_server() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp_record/server.py").display().to_string()
}

/// A server of the fixture in `mode`, as `.mcp.json` configures it.
fn server(mode: &str) -> Value {
    json!({ "command": common::require_tool("python3"), "args": [fixture_server(), mode] })
}

fn mcp_json(servers: &[(&str, Value)]) -> String {
    let map: serde_json::Map<String, Value> = servers.iter().map(|(name, s)| (name.to_string(), s.clone())).collect();
    serde_json::to_string_pretty(&json!({ "mcpServers": map })).expect("JSON")
}

/// Runs ctxc in `dir` with stdin not a terminal, `CTXC_TEST_LOG` naming `log`.
fn run(dir: &Path, args: &[&str], log: &Path) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("CTXC_TEST_LOG", log)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("ctxc runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A diagnostic's text on one line, without the wrapping of the terminal report.
fn unwrapped(text: &str) -> String {
    text.split_whitespace().filter(|w| *w != "│").collect::<Vec<_>>().join(" ")
}

fn log_of(dir: &Path) -> PathBuf {
    dir.join("methods.log")
}

/// `ctxc check` of `dir` in JSON: its exit status and its diagnostics.
fn checked(dir: &Path, log: &Path) -> (Option<i32>, Vec<Value>) {
    let out = run(dir, &["check", ".", "--format", "json"], log);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)));
    (out.status.code(), json["diagnostics"].as_array().expect("diagnostics").clone())
}

/// A diagnostic of the JSON report as `file:line:column message`.
fn placed(d: &Value) -> String {
    format!("{}:{}:{} {}", d["file"].as_str().expect("file"), d["line"], d["column"], d["message"].as_str().expect("message"))
}

/// The MCP022 findings `ctxc check` of `dir` reports, each [`placed`].
fn mcp022_found(dir: &Path, log: &Path) -> Vec<String> {
    checked(dir, log).1.iter().filter(|d| d["code"] == "MCP022").map(placed).collect()
}

#[test]
fn record_refuses_to_run_anything_without_a_terminal_or_yes() {
    let project = common::project(&[(".mcp.json", &mcp_json(&[("notes", server("good"))]))]);
    let log = log_of(project.path());
    let out = run(project.path(), &["mcp", "record", "."], &log);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(unwrapped(&stderr(&out)).contains("confirm each in a terminal, or pass --yes"), "{}", stderr(&out));
    assert!(!log.exists(), "no server was started");
    assert!(!project.path().join("ctxc.mcp-tools").exists());
}

#[test]
fn record_writes_what_the_servers_list_sorted_and_asks_only_for_lists() {
    let servers = [("notes", server("good")), ("paged", server("paged")), ("noisy", server("noisy"))];
    let project = common::project(&[(".mcp.json", &mcp_json(&servers))]);
    let log = log_of(project.path());
    let out = run(project.path(), &["mcp", "record", ".", "--yes"], &log);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(project.path().join("ctxc.mcp-tools")).expect("the record");
    let record: Value = serde_json::from_str(&text).expect("JSON");
    let names = |i: usize| -> Vec<String> {
        record["servers"][i]["tools"].as_array().expect("tools").iter().map(|t| t["name"].as_str().expect("name").to_string()).collect()
    };
    let servers: Vec<&str> = record["servers"].as_array().expect("servers").iter().map(|s| s["server"].as_str().expect("name")).collect();
    assert_eq!(servers, ["noisy", "notes", "paged"]);
    assert_eq!(names(1), ["add", "search"], "sorted by name");
    assert_eq!(names(2), ["p0_a", "p0_b", "p1_a", "p1_b", "p2_a", "p2_b"], "every page, sorted");
    assert_eq!(record["servers"][1]["prompts"][0]["name"], "summarize");
    assert_eq!(record["servers"][1]["server_info"]["name"], "fixture-good");
    assert!(record["servers"][2].get("prompts").is_none(), "no prompts capability, no prompts/list");
    assert!(record["servers"][1]["config"].as_str().expect("hash").starts_with("sha256:"));
    // What the servers were sent: the handshake and the lists, nothing else (the noisy server's
    // request `roots/list` is not answered).
    let methods = std::fs::read_to_string(&log).expect("the log");
    let mut sent: Vec<&str> = methods.lines().collect();
    sent.sort_unstable();
    sent.dedup();
    assert_eq!(sent, ["initialize", "notifications/initialized", "prompts/list", "tools/list"]);
    assert_eq!(methods.lines().filter(|m| *m == "tools/list").count(), 1 + 3 + 1, "one page, three pages, one page");
    // Recorded again: the same bytes.
    let again = run(project.path(), &["mcp", "record", ".", "--yes"], &log);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert_eq!(std::fs::read_to_string(project.path().join("ctxc.mcp-tools")).expect("record"), text);
}

#[test]
fn hostile_servers_get_a_clear_error_and_a_bounded_run() {
    let project = common::project(&[]);
    let pid_file = project.path().join("child.pid");
    let child = json!({ "command": common::require_tool("python3"), "args": [fixture_server(), "child", pid_file] });
    let servers = [
        ("huge", server("huge"), "`tools/list` lists more than 1000 tools (--max-items): not recorded"),
        ("endless", server("endless"), "`tools/list` gave more than 100 pages"),
        ("slow", server("slow"), "no answer to `tools/list` within 5 s (--timeout): stopped"),
        ("child", child, "no answer to `tools/list` within 5 s (--timeout): stopped"),
        ("invalid", server("invalid"), "answered `tools/list` with a line that is not JSON"),
        ("exits", server("exits"), "the server exited (exit status: 3) before answering `tools/list`: fixture: giving up"),
        ("flood", server("flood"), "the server wrote more than 200000 bytes (--max-bytes): stopped"),
        ("missing", json!({ "command": "/nonexistent/mcp-server" }), "cannot start `/nonexistent/mcp-server`"),
        ("unset", json!({ "command": "x", "args": ["${CTXC_TEST_UNSET_VARIABLE}"] }), "`${CTXC_TEST_UNSET_VARIABLE}` is not set"),
    ];
    let config: Vec<(&str, Value)> = servers.iter().map(|(name, s, _)| (*name, s.clone())).collect();
    std::fs::write(project.path().join(".mcp.json"), mcp_json(&config)).expect("write");
    std::fs::write(project.path().join("ctxc.mcp-tools"), "{\"version\": 1, \"servers\": []}\n").expect("write");
    // 5 s: every server here is a Python process, which on a loaded two-core machine took more
    // than 1 s to answer `initialize`.
    let args = ["mcp", "record", ".", "--yes", "--timeout", "5", "--max-bytes", "200000"];
    let out = run(project.path(), &args, &log_of(project.path()));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    for (name, _, message) in &servers {
        let line = err.lines().find(|l| l.starts_with(&format!("error: MCP server `{name}` "))).unwrap_or_else(|| panic!("{name}: {err}"));
        assert!(line.contains(message), "{name}: {line}");
    }
    assert_eq!(std::fs::read_to_string(project.path().join("ctxc.mcp-tools")).expect("kept"), "{\"version\": 1, \"servers\": []}\n");
    // The server's own child was in its process group: stopped with it.
    #[cfg(target_os = "linux")]
    {
        let pid = std::fs::read_to_string(&pid_file).expect("the child started");
        let proc = PathBuf::from(format!("/proc/{}", pid.trim()));
        let alive = |_: usize| std::fs::read_to_string(proc.join("stat")).is_ok_and(|s| !s.contains(") Z "));
        assert!(
            !(0..200).all(|i| alive(i) && {
                std::thread::sleep(std::time::Duration::from_millis(10));
                true
            }),
            "pid {pid} still runs"
        );
    }
}

#[test]
fn the_host_view_reads_the_record_and_says_when_it_is_stale_or_missing() {
    let servers = [("notes", server("good")), ("paged", server("paged"))];
    let project = common::project(&[(".mcp.json", &mcp_json(&servers[..1]))]);
    let log = log_of(project.path());
    assert_eq!(run(project.path(), &["mcp", "record", ".", "--yes"], &log).status.code(), Some(0));
    std::fs::remove_file(&log).expect("the log");
    let view = |dir: &Path| -> Value {
        let out = run(dir, &["cost", ".", "--host", "claude-code", "--format", "json"], &log);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let json = view(project.path());
    let host = &json["hosts"][0];
    let section = host["sections"].as_array().expect("sections").iter().find(|s| s["title"] == "MCP tools: notes").expect("MCP section");
    let labels: Vec<&str> = section["parts"].as_array().expect("parts").iter().map(|p| p["label"].as_str().expect("label")).collect();
    assert_eq!(labels, ["mcp__notes__add", "mcp__notes__search"]);
    let parts: i64 = section["parts"].as_array().expect("parts").iter().map(|p| p["tokens"]["tokens"].as_i64().expect("n")).sum();
    assert_eq!(parts + section["joins"]["tokens"].as_i64().expect("joins"), section["tokens"]["tokens"].as_i64().expect("tokens"));
    assert!(parts > 40, "two tools with schemas: {parts}");
    assert!(host["notes"].as_array().expect("notes").is_empty(), "{}", host["notes"]);

    // A changed configuration and a server never recorded: said, and still no server started.
    let mut changed = servers.to_vec();
    changed[0].1["env"] = json!({ "LEVEL": "debug" });
    std::fs::write(project.path().join(".mcp.json"), mcp_json(&changed)).expect("write");
    let notes = view(project.path())["hosts"][0]["notes"].to_string();
    assert!(notes.contains("the record of MCP server `notes` (.mcp.json) is older than its configuration"), "{notes}");
    assert!(notes.contains("MCP server `paged` (.mcp.json) has no record in ctxc.mcp-tools"), "{notes}");
    for command in [&["check", "."][..], &["cost", "."], &["cost", ".", "--format", "json"]] {
        run(project.path(), command, &log);
    }
    assert!(!log.exists(), "check and cost started a server: {:?}", std::fs::read_to_string(&log));
}

/// In a terminal, each command is shown and run only when the answer is yes; a command refused
/// keeps its server's record as it was.
#[test]
#[cfg(unix)]
fn record_asks_in_a_terminal_before_each_command() {
    let servers = [("notes", server("good")), ("paged", server("paged"))];
    let project = common::project(&[(".mcp.json", &mcp_json(&servers))]);
    let log = log_of(project.path());
    // ctxc with a pseudo-terminal as its stdin, answering no to `notes`, yes to `paged`.
    let script = "import os, pty, subprocess, sys\n\
                  master, slave = pty.openpty()\n\
                  os.write(master, b'n\\ny\\n')\n\
                  p = subprocess.run(sys.argv[1:], stdin=slave, capture_output=True)\n\
                  sys.stderr.buffer.write(p.stderr)\n\
                  sys.exit(p.returncode)\n";
    let out = std::process::Command::new(common::require_tool("python3"))
        .args(["-c", script, env!("CARGO_BIN_EXE_ctxc"), "mcp", "record", "."])
        .current_dir(project.path())
        .env("NO_COLOR", "1")
        .env("CTXC_TEST_LOG", &log)
        .output()
        .expect("python3 runs");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "MCP server `notes` (.mcp.json) runs: {} {} good\nRun it? [y/N]",
            server("good")["command"].as_str().expect("python"),
            fixture_server()
        )),
        "{err}"
    );
    assert!(err.contains("skipped MCP server `notes` (.mcp.json)"), "{err}");
    assert!(err.contains("recorded MCP server `paged` (.mcp.json): 6 tools"), "{err}");
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(project.path().join("ctxc.mcp-tools")).expect("record")).expect("JSON");
    assert_eq!(record["servers"].as_array().expect("servers").len(), 1);
    assert_eq!(record["servers"][0]["server"], "paged");
}

/// Servers with a `url` are asked over streamable HTTP: a JSON answer, an event stream left open
/// after its answer (read up to the answer only), the session id carried; a slow one stopped.
#[test]
fn record_asks_servers_over_streamable_http() {
    let project = common::project(&[]);
    let (port_file, log) = (project.path().join("port"), log_of(project.path()));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp_record/http_server.py");
    let mut server =
        std::process::Command::new(common::require_tool("python3")).arg(script).arg(&port_file).arg(&log).spawn().expect("python3 runs");
    let port = (0..500)
        .find_map(|_| {
            std::fs::read_to_string(&port_file).ok().or_else(|| {
                std::thread::sleep(std::time::Duration::from_millis(20));
                None
            })
        })
        .expect("the server listens");
    let url = |path: &str| json!({ "type": "http", "url": format!("http://127.0.0.1:{port}/{path}") });
    let servers = [("json", url("json")), ("stream", url("sse")), ("slow", url("slow"))];
    std::fs::write(project.path().join(".mcp.json"), mcp_json(&servers)).expect("write");
    let out = run(project.path(), &["mcp", "record", ".", "--yes", "--timeout", "2"], &log);
    let _ = server.kill();
    let _ = server.wait();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("recorded MCP server `json` (.mcp.json): 1 tools"), "{err}");
    assert!(err.contains("recorded MCP server `stream` (.mcp.json): 1 tools"), "{err}");
    assert!(err.contains("error: MCP server `slow` (.mcp.json): no answer to `tools/list` within 2 s (--timeout): stopped"), "{err}");
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(project.path().join("ctxc.mcp-tools")).expect("record")).expect("JSON");
    assert_eq!(record["servers"][0]["tools"][0]["name"], "lookup");
    assert_eq!(record["servers"][1]["server"], "stream");
    let methods = std::fs::read_to_string(&log).expect("log");
    assert_eq!(methods.lines().filter(|m| !["initialize", "notifications/initialized", "tools/list"].contains(m)).count(), 0, "{methods}");
}

/// MCP tools past a tenth of the window: Claude Code's tool search defers them, which the view says.
#[test]
fn the_host_view_says_when_claude_codes_tool_search_defers_the_tools() {
    let project = common::project(&[(".mcp.json", &mcp_json(&[("huge", server("huge"))]))]);
    let log = log_of(project.path());
    let out = run(project.path(), &["mcp", "record", ".", "--yes", "--max-items", "2000"], &log);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = run(project.path(), &["cost", ".", "--host", "claude-code", "--format", "json"], &log);
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let host = &json["hosts"][0];
    assert!(host["total"]["tokens"].as_i64().expect("total") > 20_000, "{}", host["total"]);
    let notes = host["notes"].to_string();
    assert!(notes.contains("the MCP tools take more than 10 % of the window (20000 tokens): Claude Code's tool search"), "{notes}");
}

/// `diff --base` reads the record of each revision: a tool the servers no longer list is a
/// removed part of Claude Code's view.
#[test]
fn diff_compares_the_records_of_two_revisions() {
    let project = common::project(&[(".mcp.json", &mcp_json(&[("notes", server("good"))]))]);
    let log = log_of(project.path());
    assert_eq!(run(project.path(), &["mcp", "record", ".", "--yes"], &log).status.code(), Some(0));
    std::fs::remove_file(&log).expect("the log");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git").args(args).current_dir(project.path()).output().expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "base"]);
    let path = project.path().join("ctxc.mcp-tools");
    let mut record: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("record")).expect("JSON");
    record["servers"][0]["tools"].as_array_mut().expect("tools").retain(|t| t["name"] != "search");
    std::fs::write(&path, serde_json::to_string_pretty(&record).expect("JSON")).expect("write");
    let out = run(project.path(), &["diff", "--base", "HEAD", "."], &log);
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.contains("mcp__notes__search")).unwrap_or_else(|| panic!("{text}{}", stderr(&out)));
    assert!(line.starts_with("  MCP tools: notes") && line.ends_with("removed"), "{line}");
    assert!(!log.exists(), "diff started a server");
}

/// A record larger than ctxc reads of a file is refused, not written.
#[test]
fn a_record_past_what_ctxc_reads_is_not_written() {
    let project = common::project(&[(".mcp.json", &mcp_json(&[("big", server("big"))]))]);
    let out = run(project.path(), &["mcp", "record", ".", "--yes"], &log_of(project.path()));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(unwrapped(&stderr(&out)).contains("more than the 4194304 ctxc reads"), "{}", stderr(&out));
    assert!(!project.path().join("ctxc.mcp-tools").exists());
}

/// The other hosts' MCP configurations (Codex's `.codex/config.toml`, Gemini CLI's
/// `.gemini/settings.json`, Cursor's `.cursor/mcp.json`, VS Code's `.vscode/mcp.json`): `ctxc mcp
/// record` starts their servers too (same refusal without `--yes`), and each host's view counts
/// the recorded tools under the name the host gives them, with the tools its configuration
/// leaves out not counted and a server turned off noted.
#[test]
fn other_hosts_mcp_servers_are_recorded_and_counted_in_their_views() {
    let python = common::require_tool("python3").display().to_string();
    let script = fixture_server();
    let toml_args = format!("[\"{script}\", \"good\"]");
    let codex = format!(
        "[mcp_servers.notes]\ncommand = \"{python}\"\nargs = {toml_args}\ndisabled_tools = [\"search\"]\n\n[mcp_servers.off]\ncommand = \"{python}\"\nargs = {toml_args}\nenabled = false\n"
    );
    let gemini = json!({ "mcpServers": { "notes": { "command": python, "args": [script, "good"], "includeTools": ["search"] } } });
    let cursor = json!({ "mcpServers": { "paged": { "command": python, "args": [script, "paged"] } } });
    let vscode = json!({ "servers": { "notes": { "type": "stdio", "command": python, "args": [script, "good"] } } });
    let project = common::project(&[
        ("AGENTS.md", "# Agents\n"),
        ("GEMINI.md", "# Gemini\n"),
        (".cursorrules", "Be brief.\n"),
        (".github/copilot-instructions.md", "Be kind.\n"),
        (".codex/config.toml", &codex),
        (".gemini/settings.json", &gemini.to_string()),
        (".cursor/mcp.json", &cursor.to_string()),
        (".vscode/mcp.json", &vscode.to_string()),
    ]);
    let log = log_of(project.path());
    let refused = run(project.path(), &["mcp", "record", "."], &log);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(!log.exists(), "no server was started without --yes");
    let out = run(project.path(), &["mcp", "record", ".", "--yes"], &log);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("MCP server `off` (.codex/config.toml) is turned off"), "{}", stderr(&out));
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(project.path().join("ctxc.mcp-tools")).expect("record")).expect("JSON");
    let keys: Vec<String> =
        record["servers"].as_array().expect("servers").iter().map(|s| format!("{} {}", s["file"], s["server"])).collect();
    assert_eq!(
        keys,
        [
            r#"".codex/config.toml" "notes""#,
            r#"".cursor/mcp.json" "paged""#,
            r#"".gemini/settings.json" "notes""#,
            r#"".vscode/mcp.json" "notes""#,
        ]
    );
    std::fs::remove_file(&log).expect("the log");
    let out = run(project.path(), &["cost", ".", "--format", "json"], &log);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!log.exists(), "cost started a server");
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let labels = |host: &str, title: &str| -> Vec<String> {
        let view =
            json["hosts"].as_array().expect("hosts").iter().find(|h| h["host"] == host).unwrap_or_else(|| panic!("no {host}: {json:#}"));
        let section = view["sections"]
            .as_array()
            .expect("sections")
            .iter()
            .find(|s| s["title"] == title)
            .unwrap_or_else(|| panic!("no {title}: {view:#}"));
        let parts = section["parts"].as_array().expect("parts");
        let sum: i64 = parts.iter().map(|p| p["tokens"]["tokens"].as_i64().expect("n")).sum();
        assert_eq!(sum + section["joins"]["tokens"].as_i64().expect("joins"), section["tokens"]["tokens"].as_i64().expect("tokens"));
        parts.iter().map(|p| p["label"].as_str().expect("label").to_string()).collect()
    };
    assert_eq!(labels("codex", "MCP tools: notes"), ["mcp__notes__add"], "disabled_tools leaves search out");
    assert_eq!(labels("gemini-cli", "MCP tools: notes"), ["mcp_notes_search"], "includeTools keeps search only");
    assert_eq!(labels("cursor", "MCP tools: paged").len(), 6);
    assert_eq!(labels("copilot", "MCP tools: notes"), ["add", "search"]);
    let text = json.to_string();
    assert!(text.contains("MCP server `off` (.codex/config.toml) is turned off in its configuration: not counted"), "{text}");
    assert!(text.contains("1 of its 2 recorded tools are sent"), "{text}");
    // A tool's schema is an estimate even for an exact tokenizer: so is the total holding it.
    let codex = json["hosts"].as_array().expect("hosts").iter().find(|h| h["host"] == "codex").expect("codex");
    assert_eq!(codex["total"]["exact"], false, "{codex:#}");
    let out = run(project.path(), &["cost", ".", "--host", "gemini-cli"], &log);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("MCP tools: notes (npm:@google/gemini-cli-core@0.61.0 dist/src/tools/mcp-tool.js)"), "{text}");
    assert!(text.contains("mcp_notes_search") && !text.contains("mcp_notes_add"), "{text}");
}

/// A manifest agent names MCP servers with the record as a tool file (`{ path = "ctxc.mcp-tools",
/// server = … }`): their tools are costed as recorded, per server and per tool, exactly as the
/// same tools in a `tools/list` file; a record older than the configuration, a server not in it,
/// a record missing are warnings (MCP022); a server recorded from two configurations needs `config`.
#[test]
fn a_manifest_agent_costs_the_recorded_tools_of_the_servers_it_names() {
    use ctxc::mcp_record::{config_hash, Record, RecordedServer, RECORD_VERSION};
    let tool = |name: &str, description: &str| json!({ "name": name, "description": description, "inputSchema": { "type": "object", "properties": { "q": { "type": "string", "description": "what to find" } }, "required": ["q"] } });
    let (notes, codex_notes, docs) = (
        json!({ "command": "npx", "args": ["-y", "notes@1"] }),
        json!({ "command": "npx", "args": ["-y", "notes@0"] }),
        json!({ "command": "uvx", "args": ["docs"] }),
    );
    let entry = |file: &str, server: &str, config: &Value, tools: Vec<Value>| RecordedServer {
        file: file.into(),
        server: server.into(),
        config: config_hash(config),
        protocol_version: "2025-06-18".into(),
        server_info: json!({ "name": server }),
        tools,
        prompts: None,
        resources: None,
    };
    let record = Record {
        version: RECORD_VERSION,
        servers: vec![
            entry(".mcp.json", "notes", &notes, vec![tool("add", "Adds a note."), tool("search", "Finds notes.")]),
            entry(".codex/config.toml", "notes", &codex_notes, vec![tool("old", "Not this one.")]),
            entry(".codex/config.toml", "docs", &docs, vec![tool("lookup", "Looks a page up.")]),
        ],
    };
    let manifest = |files: &str| {
        format!(
            "[agent]\nname = \"helper\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [{{ id = \"role\", kind = \"text\", text = \"You help.\" }}, {{ id = \"tools\", kind = \"tool_list\" }}]\n\n[tools.mcp]\nfiles = [{files}]\n\n[scenarios.default]\nmcp_servers = {{ notes = {{}}, docs = {{}} }}\n"
        )
    };
    let recorded = r#"{ path = "ctxc.mcp-tools", server = "notes", config = ".mcp.json" }, { path = "ctxc.mcp-tools", server = "docs" }"#;
    let listed = r#"{ path = "notes.json", server = "notes" }, { path = "docs.json", server = "docs" }"#;
    let codex = "[mcp_servers.notes]\ncommand = \"npx\"\nargs = [\"-y\", \"notes@0\"]\n\n[mcp_servers.docs]\ncommand = \"uvx\"\nargs = [\"docs\"]\n";
    let project = common::project(&[
        ("ctxc.toml", &manifest(recorded)),
        (".mcp.json", &mcp_json(&[("notes", notes.clone())])),
        (".codex/config.toml", codex),
        ("ctxc.mcp-tools", &record.to_text()),
        ("notes.json", &json!({ "tools": record.servers[0].tools }).to_string()),
        ("docs.json", &json!({ "tools": record.servers[2].tools }).to_string()),
    ]);
    let dir = project.path();
    let log = log_of(dir);
    let cost = |dir: &Path| -> (Value, String) {
        let out = run(dir, &["cost", ".", "--format", "json"], &log);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        (json["reports"][0]["tool_schemas"].clone(), unwrapped(&stderr(&out)))
    };
    let (from_record, warnings) = cost(dir);
    assert!(!warnings.contains("MCP022"), "{warnings}");
    let per_tool = |schemas: &Value| -> Vec<String> {
        schemas["tools"].as_array().expect("tools").iter().map(|t| format!("{} {} {}", t["server"], t["name"], t["tokens"])).collect()
    };
    let names: Vec<String> =
        from_record["tools"].as_array().expect("tools").iter().map(|t| format!("{}/{}", t["server"], t["name"])).collect();
    assert_eq!(names, [r#""notes"/"add""#, r#""notes"/"search""#, r#""docs"/"lookup""#], "the .mcp.json server, not Codex's");
    let servers: Vec<String> =
        from_record["servers"].as_array().expect("servers").iter().map(|s| format!("{} {}", s["name"], s["tools"])).collect();
    assert_eq!(servers, [r#""notes" 2"#, r#""docs" 1"#]);
    std::fs::write(dir.join("ctxc.toml"), manifest(listed)).expect("write");
    let (from_files, _) = cost(dir);
    assert_eq!(per_tool(&from_record), per_tool(&from_files), "costed as the same tools in tool files");
    assert_eq!(from_record["servers"], from_files["servers"]);
    assert_eq!(from_record["total"], from_files["total"]);

    // A changed configuration: counted as recorded, and said.
    std::fs::write(dir.join("ctxc.toml"), manifest(recorded)).expect("write");
    std::fs::write(dir.join(".mcp.json"), mcp_json(&[("notes", json!({ "command": "npx", "args": ["-y", "notes@2"] }))])).expect("write");
    let (stale, warnings) = cost(dir);
    assert_eq!(per_tool(&stale), per_tool(&from_record));
    assert!(
        warnings.contains("MCP022 the record of MCP server `notes` in ctxc.mcp-tools is older than its configuration in .mcp.json"),
        "{warnings}"
    );
    assert!(warnings.contains("ctxc.toml:9:46"), "at the manifest's server: {warnings}");

    // A server the record lacks, and no record at all: its tools are not counted, and said.
    std::fs::write(dir.join("ctxc.toml"), manifest(&recorded.replace("\"docs\"", "\"wiki\""))).expect("write");
    let (lacking, warnings) = cost(dir);
    assert_eq!(lacking["servers"].as_array().expect("servers").len(), 1, "{lacking:#}");
    assert!(warnings.contains("MCP022 MCP server `wiki` has no record in ctxc.mcp-tools: its tools are not counted"), "{warnings}");
    std::fs::remove_file(dir.join("ctxc.mcp-tools")).expect("remove");
    let out = run(dir, &["check", "."], &log);
    let text = unwrapped(&stderr(&out));
    assert!(
        text.contains("MCP022 there is no MCP tool record `ctxc.mcp-tools`: the tools of MCP server `notes` are not counted"),
        "{text}"
    );

    // Two configurations record `notes`: without `config`, which one is an error.
    std::fs::write(dir.join("ctxc.mcp-tools"), record.to_text()).expect("write");
    std::fs::write(dir.join("ctxc.toml"), manifest(&recorded.replace(", config = \".mcp.json\"", ""))).expect("write");
    let out = run(dir, &["cost", "."], &log);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = unwrapped(&stderr(&out));
    assert!(text.contains("MAN010 MCP server `notes` is recorded from several configurations"), "{text}");
    assert!(text.contains("config.toml, .mcp.json") && text.contains(r#"`config = ".codex/config.toml"`"#), "{text}");
    assert!(!log.exists(), "no server was started");
}

/// MCP022 checks the other hosts' MCP configurations too (`.codex/config.toml`,
/// `.gemini/settings.json`, `.cursor/mcp.json`, `.vscode/mcp.json`), each finding at the server's
/// name as the file's parser placed it; a server its host does not start, or recorded as
/// configured now, is not reported.
#[test]
fn mcp022_points_at_other_hosts_servers_with_no_record_or_an_older_one() {
    use ctxc::mcp_record::{config_hash, Record, RecordedServer, RECORD_VERSION};
    let entry = |file: &str, server: &str, config: Value| RecordedServer {
        file: file.into(),
        server: server.into(),
        config: config_hash(&config),
        protocol_version: "2025-06-18".into(),
        server_info: json!({ "name": server }),
        tools: Vec::new(),
        prompts: None,
        resources: None,
    };
    let record = Record {
        version: RECORD_VERSION,
        servers: vec![
            entry(".codex/config.toml", "notes", json!({ "command": "npx", "args": ["-y", "notes@1"] })),
            entry(".vscode/mcp.json", "notes", json!({ "type": "stdio", "command": "npx", "args": ["-y", "notes@1"] })),
            entry(".vscode/mcp.json", "wiki", json!({ "type": "stdio", "command": "npx", "args": ["-y", "wiki@1"] })),
            entry(".gemini/settings.json", "docs", json!({ "url": "https://example.com/old" })),
        ],
    };
    let project = common::project(&[
        ("AGENTS.md", "# Agents\n"),
        (".codex/config.toml", "[model]\n\n[mcp_servers.notes]\ncommand = \"npx\"\nargs = [\"-y\", \"notes@2\"]\n\n[mcp_servers.off]\ncommand = \"x\"\nenabled = false\n"),
        (".gemini/settings.json", "{\n  // ours\n  \"mcpServers\": {\n    \"docs\": { \"httpUrl\": \"https://example.com/mcp\" }\n  }\n}\n"),
        (".cursor/mcp.json", "{\"mcpServers\": {\"paged\": {\"command\": \"uvx\", \"args\": [\"paged\"]}}}\n"),
        (
            ".vscode/mcp.json",
            "{\"servers\": {\n  \"notes\": {\"type\": \"stdio\", \"command\": \"npx\", \"args\": [\"-y\", \"notes@1\"]},\n  \"wiki\": {\"type\": \"stdio\", \"command\": \"npx\", \"args\": [\"-y\", \"wiki@2\"]}}}\n",
        ),
        ("ctxc.mcp-tools", &record.to_text()),
    ]);
    let log = log_of(project.path());
    let found = mcp022_found(project.path(), &log);
    assert_eq!(
        found,
        [
            ".codex/config.toml:3:14 the record of MCP server `notes` (Codex) in ctxc.mcp-tools is older than its configuration",
            ".cursor/mcp.json:1:17 MCP server `paged` (Cursor) has no record in ctxc.mcp-tools: its tools are not counted",
            ".gemini/settings.json:4:5 the record of MCP server `docs` (Gemini CLI) in ctxc.mcp-tools is older than its configuration",
            ".vscode/mcp.json:3:3 the record of MCP server `wiki` (GitHub Copilot) in ctxc.mcp-tools is older than its configuration",
        ]
    );
    assert!(!log.exists(), "check started no server");
}

/// A record in a subfolder is read with the host configurations beside it: the hash of a server
/// it names is taken from the configuration in that folder, as the host reading that folder's
/// file reads it (`.mcp.json`'s `mcpServers`, Codex's `[mcp_servers.NAME]`), so a server recorded
/// as configured now gets no MCP022.
#[test]
fn a_record_in_a_subfolder_reads_the_configuration_beside_it() {
    use ctxc::mcp_record::{config_hash, Record, RecordedServer, RECORD_VERSION};
    let tool = json!({ "name": "add", "description": "Adds a note.", "inputSchema": { "type": "object" } });
    let (notes, docs) = (json!({ "command": "npx", "args": ["-y", "notes@1"] }), json!({ "command": "uvx", "args": ["docs"] }));
    let entry = |file: &str, server: &str, config: &Value| RecordedServer {
        file: file.into(),
        server: server.into(),
        config: config_hash(config),
        protocol_version: "2025-06-18".into(),
        server_info: json!({ "name": server }),
        tools: vec![tool.clone()],
        prompts: None,
        resources: None,
    };
    let record =
        Record { version: RECORD_VERSION, servers: vec![entry(".mcp.json", "notes", &notes), entry(".codex/config.toml", "docs", &docs)] };
    let manifest = "[agent]\nname = \"helper\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [{ id = \"role\", kind = \"text\", text = \"You help.\" }, { id = \"tools\", kind = \"tool_list\" }]\n\n[tools.mcp]\nfiles = [{ path = \"sub/ctxc.mcp-tools\", server = \"notes\" }, { path = \"sub/ctxc.mcp-tools\", server = \"docs\" }]\n\n[scenarios.default]\nmcp_servers = { notes = {}, docs = {} }\n";
    let project = common::project(&[
        ("ctxc.toml", manifest),
        ("sub/.mcp.json", &mcp_json(&[("notes", notes.clone())])),
        ("sub/.codex/config.toml", "[mcp_servers.docs]\ncommand = \"uvx\"\nargs = [\"docs\"]\n"),
        ("sub/ctxc.mcp-tools", &record.to_text()),
    ]);
    let log = log_of(project.path());
    let out = run(project.path(), &["cost", ".", "--format", "json"], &log);
    let warnings = unwrapped(&stderr(&out));
    assert_eq!(out.status.code(), Some(0), "{warnings}");
    assert!(!warnings.contains("MCP022"), "{warnings}");
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let servers = json["reports"][0]["tool_schemas"]["servers"].as_array().expect("servers").len();
    assert_eq!(servers, 2, "{json:#}");
}

/// An agent's check and the lint of the files beside it both read the other hosts'
/// configurations: a server is reported once where both reach it (an agent at the project's
/// root), and still reported for an agent in a subfolder, whose configuration only its own check
/// reads.
#[test]
fn mcp022_reports_another_hosts_server_once_whoever_reads_it() {
    let manifest =
        "[agent]\nname = \"a\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [{ id = \"role\", kind = \"text\", text = \"You help.\" }]\n";
    let codex = "[mcp_servers.notes]\ncommand = \"npx\"\nargs = [\"-y\", \"notes@1\"]\n";
    let record = "{\"version\": 1, \"servers\": []}\n";
    let message = "MCP server `notes` (Codex) has no record in ctxc.mcp-tools: its tools are not counted";
    // An agent's files are shown under the folder `check` was given (`./`), as its other findings are.
    for (folder, shown) in [("", ""), ("agents/a/", "./agents/a/")] {
        let at = |file: &str| format!("{folder}{file}");
        let project = common::project(&[
            ("AGENTS.md", "# Agents\n"),
            (&at("ctxc.toml"), manifest),
            (&at(".codex/config.toml"), codex),
            (&at("ctxc.mcp-tools"), record),
        ]);
        let log = log_of(project.path());
        assert_eq!(mcp022_found(project.path(), &log), [format!("{shown}.codex/config.toml:1:14 {message}")], "agent in `{folder}`");
    }
}

/// The mistakes a manifest can make naming the record, each an error at the value that makes it:
/// a record named with no `server` (MAN010, at the path), `config` on a tool file that is not the
/// record (MAN010, at `config`), and a record that cannot be read (TOOL001).
#[test]
fn a_manifest_naming_the_record_wrongly_gets_an_error_at_the_value() {
    let manifest = |files: &str| {
        format!(
            "[agent]\nname = \"helper\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [{{ id = \"role\", kind = \"text\", text = \"You help.\" }}, {{ id = \"tools\", kind = \"tool_list\" }}]\n\n[tools.mcp]\nfiles = [{files}]\n"
        )
    };
    let tools = json!({ "tools": [{ "name": "add", "description": "Adds a note.", "inputSchema": { "type": "object" } }] }).to_string();
    let project = common::project(&[("ctxc.mcp-tools", "{\"version\": 1, \"servers\": []}\n"), ("notes.json", &tools)]);
    let dir = project.path();
    let log = log_of(dir);
    let errors = |files: &str| -> Vec<String> {
        std::fs::write(dir.join("ctxc.toml"), manifest(files)).expect("write");
        let (status, diagnostics) = checked(dir, &log);
        assert_eq!(status, Some(2), "{files}: {diagnostics:?}");
        diagnostics
            .iter()
            .filter(|d| d["severity"] == "error")
            .map(|d| format!("{} {}", d["code"].as_str().unwrap_or("-"), placed(d)))
            .collect()
    };
    assert_eq!(
        errors(r#""ctxc.mcp-tools""#),
        ["MAN010 ctxc.toml:9:10 `ctxc.mcp-tools` records the tools of every MCP server: name the one these tools come from"]
    );
    assert_eq!(
        errors(r#"{ path = "ctxc.mcp-tools" }"#),
        ["MAN010 ctxc.toml:9:19 `ctxc.mcp-tools` records the tools of every MCP server: name the one these tools come from"]
    );
    assert_eq!(
        errors(r#"{ path = "notes.json", server = "notes", config = ".mcp.json" }"#),
        ["MAN010 ctxc.toml:9:60 `config` names where a server of the MCP tool record is configured, and this path is no record"]
    );
    std::fs::write(dir.join("ctxc.mcp-tools"), "{\"version\": 1, \"servers\": [{\"file\": \".mcp.json\"}]}\n").expect("write");
    let broken = errors(r#"{ path = "ctxc.mcp-tools", server = "notes" }"#);
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(
        broken[0].starts_with("TOOL001 ctxc.toml:9:19 ctxc.mcp-tools is not an MCP tool record ctxc reads: missing field"),
        "{broken:?}"
    );
    assert!(!log.exists(), "no server was started");
}
