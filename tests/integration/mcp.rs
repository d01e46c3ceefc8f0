//! `ctxc mcp`: the protocol answered in process (errors, confinement, tool arguments), and the
//! server driven end to end by the official Python MCP client, whose results must be the CLI's.

use std::path::Path;

use ctxc::mcp::{confine, Server, Setup};
use serde_json::{json, Value};

use crate::common;

/// The repository's root: the tests run there, so it is the in-process server's root.
fn server() -> Server {
    Server::new(Setup::default()).expect("the current folder")
}

fn answer(server: &Server, message: &Value) -> Value {
    let line = server.handle(&message.to_string()).expect("an answer");
    assert!(!line.contains('\n'), "one message a line: {line}");
    serde_json::from_str(&line).expect("the answer is JSON")
}

fn call(server: &Server, tool: &str, arguments: Value) -> Value {
    answer(server, &json!({ "jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": { "name": tool, "arguments": arguments } }))
}

/// A tool error's one text.
fn tool_error(result: &Value) -> String {
    assert_eq!(result["result"]["isError"], true, "{result}");
    result["result"]["content"][0]["text"].as_str().expect("a text").to_string()
}

#[test]
fn each_kind_of_bad_message_gets_its_json_rpc_error() {
    let server = server();
    let code = |line: &str| {
        let answer: Value = serde_json::from_str(&server.handle(line).expect("an answer")).expect("JSON");
        (answer["id"].clone(), answer["error"]["code"].as_i64().expect("an error"))
    };
    assert_eq!(code("{not json"), (Value::Null, -32700));
    assert_eq!(code(&"[".repeat(100_000)), (Value::Null, -32600), "a list is no message");
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"check","arguments":{}}}}}"#,
        "[".repeat(100_000) + &"]".repeat(100_000)
    );
    let refused: Value = serde_json::from_str(&server.handle(&deep).expect("an answer")).expect("JSON");
    assert!(tool_error(&refused).contains("invalid type: sequence"), "deep nesting: {refused}");
    assert_eq!(code(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#), (Value::Null, -32600), "no batches");
    assert_eq!(code(r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#), (Value::Null, -32600));
    assert_eq!(code(r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#), (json!(1), -32600));
    assert_eq!(code(r#"{"jsonrpc":"2.0","id":"a","method":"resources/list"}"#), (json!("a"), -32601));
    assert_eq!(code(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":[1]}"#), (json!(2), -32602));
    assert_eq!(code(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{}}"#), (json!(3), -32602));
    assert_eq!(code(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"fix_everything"}}"#), (json!(4), -32602));
    // Notifications, blank lines and a client's responses are not answered.
    for silent in [r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, "  ", r#"{"jsonrpc":"2.0","id":9,"result":{}}"#] {
        assert_eq!(server.handle(silent), None, "{silent}");
    }
    assert_eq!(answer(&server, &json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" }))["result"], json!({}));
}

#[test]
fn initialize_agrees_on_a_revision_both_speak() {
    let server = server();
    let version = |asked: &str| {
        let params = json!({ "protocolVersion": asked, "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } });
        let result = answer(&server, &json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params }))["result"].clone();
        assert_eq!(result["serverInfo"]["name"], "ctxc");
        assert_eq!(result["capabilities"]["tools"]["listChanged"], false);
        result["protocolVersion"].as_str().expect("a version").to_string()
    };
    assert_eq!(version("2025-06-18"), "2025-06-18");
    assert_eq!(version("2024-11-05"), "2024-11-05");
    assert_eq!(version("2099-01-01"), ctxc::mcp::PROTOCOL_VERSIONS[0]);
}

#[test]
fn tool_arguments_of_the_wrong_shape_are_tool_errors_the_model_can_read() {
    let server = server();
    assert!(tool_error(&call(&server, "check", json!({ "path": 5 }))).contains("expected a string"));
    assert!(tool_error(&call(&server, "check", json!("."))).contains("expected struct CheckArgs"));
    assert!(tool_error(&call(&server, "check", json!({ "paht": "." }))).contains("unknown field `paht`"));
    let many: Vec<String> = (0..300).map(|i| format!("SKILL{i:03}")).collect();
    assert!(tool_error(&call(&server, "check", json!({ "select": many }))).contains("more than 256 codes"));
    assert!(tool_error(&call(&server, "check", json!({ "select": [1] }))).contains("expected a string"));
    assert!(tool_error(&call(&server, "explain", json!({}))).contains("missing field `code`"));
    assert!(tool_error(&call(&server, "explain", json!({ "code": "SKIL004" }))).contains("did you mean `SKILL004`"));
    assert!(tool_error(&call(&server, "cost", json!({ "path": ".", "host": "emacs" }))).contains("does not show the host `emacs`"));
    assert!(
        tool_error(&call(&server, "simulate", json!({ "path": "examples/agents/zeus" }))).contains("one of `workload` and `transcript`")
    );
    assert!(tool_error(&call(&server, "simulate", json!({ "workload": "/etc/passwd" }))).contains("outside the server's root"));
    assert!(tool_error(&call(&server, "check", json!({ "path": "x".repeat(5000) }))).contains("at most 4096 bytes"));
}

#[test]
fn paths_are_confined_to_the_servers_root() {
    std::fs::create_dir_all("target").expect("target");
    let scratch = tempfile::tempdir_in("target").expect("a folder inside the repository");
    let root = scratch.path().join("root");
    std::fs::create_dir_all(root.join("skills/a")).expect("mkdir");
    std::fs::write(root.join("skills/a/SKILL.md"), "---\nname: a\ndescription: d\n---\n").expect("write");
    std::fs::write(scratch.path().join("secret.md"), "outside").expect("write");
    std::os::unix::fs::symlink("../secret.md", root.join("out.md")).expect("link out");
    std::os::unix::fs::symlink("skills/a", root.join("in")).expect("link in");
    let root = root.canonicalize().expect("root");
    let ok = |given: &str, new: bool| confine(&root, given, new).unwrap_or_else(|e| panic!("{given}: {e}"));
    assert_eq!(ok("skills/a/SKILL.md", false), Path::new("skills/a/SKILL.md"));
    assert_eq!(ok(&root.join("skills").display().to_string(), false), Path::new("skills"));
    assert_eq!(ok("", false), Path::new("."));
    assert_eq!(ok("in/SKILL.md", false), Path::new("in/SKILL.md"), "a link inside the root may be followed");
    assert_eq!(ok("skills/a/NEW.md", true), Path::new("skills/a/NEW.md"), "an unsaved file in a folder that exists");
    let refused = |given: &str, new: bool| confine(&root, given, new).expect_err(given);
    assert!(refused("../secret.md", false).contains("leaves the server's root"));
    assert!(refused("skills/../../secret.md", true).contains("leaves the server's root"));
    assert!(refused(&scratch.path().join("secret.md").display().to_string(), false).contains("outside the server's root"));
    assert!(refused("/etc/passwd", false).contains("outside the server's root"));
    assert!(refused("out.md", false).contains("through a symbolic link"));
    assert!(refused("skills/a\0b", false).contains("NUL"));
    assert!(refused("missing/NEW.md", true).contains("No such file"));
    assert!(refused("missing.md", false).contains("No such file"));
}

/// The check tool's JSON is `ctxc check --format json`'s, on disk and for unsaved text.
#[test]
fn the_check_tool_gives_the_clis_json() {
    let server = server();
    let fixture = "tests/fixtures/rules/SKILL005/fail";
    let text = |result: &Value| -> Value {
        assert_eq!(result["result"]["isError"], false, "{result}");
        serde_json::from_str(result["result"]["content"][0]["text"].as_str().expect("text")).expect("JSON")
    };
    let cli: Value = serde_json::from_slice(&common::ctxc(&["check", fixture, "--format", "json"]).stdout).expect("JSON");
    assert_eq!(text(&call(&server, "check", json!({ "path": fixture }))), cli);
    assert_eq!(cli["diagnostics"][0]["code"], "SKILL005");
    let file = format!("{fixture}/skills/template/SKILL.md");
    let unsaved = "---\nname: template\ndescription: x\n---\nBody\n";
    let out = common::ctxc_with_stdin(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &["check", "-", "--stdin-filename", &file, "--format", "json"],
        unsaved,
    );
    let cli: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(text(&call(&server, "check", json!({ "path": file, "text": unsaved }))), cli);
    assert_eq!(cli["diagnostics"][0]["code"], "INSTR001", "the unsaved text is checked, not the file");
}

/// The Python `mcp` package's client (pinned in scripts/python/mcp.txt) starts `ctxc mcp`, lists
/// its tools and calls them; each result must be what the CLI prints for the same input.
#[test]
#[ignore = "needs the Python mcp client in target/python/mcp: run by scripts/test, which installs it"]
fn the_python_mcp_client_gets_the_clis_results() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = repo.join("target/python/mcp/bin/python");
    assert!(python.is_file(), "{} is missing: run `scripts/test`, which builds it from scripts/python/mcp.txt", python.display());
    let zeus = "examples/agents/zeus";
    let skill = "tests/fixtures/rules/SKILL005/fail";
    let claude = "tests/fixtures/hostview/claude";
    let calls = json!([
        ["check", { "path": skill }],
        ["cost", { "path": zeus, "mode": "agent", "scenario": "connected" }],
        ["cost", { "path": claude, "host": "claude-code" }],
        ["explain", { "code": "SKILL004" }],
        ["render", { "path": zeus, "mode": "agent", "scenario": "connected" }],
        ["simulate", { "path": zeus, "workload": "examples/workloads/long-chat.toml", "mode": "agent" }],
        ["check", { "path": "../" }],
        ["check", { "path": 5 }],
        ["no-such-tool", {}],
    ]);
    let mut child = std::process::Command::new(&python)
        .args([
            repo.join("tests/integration/mcp_client.py").as_os_str(),
            Path::new(env!("CARGO_BIN_EXE_ctxc")).as_os_str(),
            repo.as_os_str(),
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python runs");
    std::io::Write::write_all(child.stdin.as_mut().expect("stdin"), calls.to_string().as_bytes()).expect("write");
    let out = child.wait_with_output().expect("python ends");
    assert!(out.status.success(), "the client failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let got: Value = serde_json::from_slice(&out.stdout).expect("the client's JSON");
    assert!(ctxc::mcp::PROTOCOL_VERSIONS.contains(&got["protocol_version"].as_str().expect("a version")), "{}", got["protocol_version"]);
    let names: Vec<&str> = got["tools"].as_array().expect("tools").iter().map(|t| t["name"].as_str().expect("name")).collect();
    assert_eq!(names, ["check", "explain", "cost", "render", "simulate", "diff", "fix"]);
    let cli_json = |args: &[&str]| -> Value { serde_json::from_slice(&common::ctxc(args).stdout).expect("the CLI's JSON") };
    let tool_json = |i: usize| -> Value {
        let result = &got["calls"][i];
        assert_eq!(result["is_error"], false, "call {i}: {result}");
        serde_json::from_str(result["texts"][0].as_str().expect("text")).expect("the tool's JSON")
    };
    assert_eq!(tool_json(0), cli_json(&["check", skill, "--format", "json"]));
    let cost = tool_json(1);
    assert_eq!(cost, cli_json(&["cost", zeus, "--mode", "agent", "--scenario", "connected", "--format", "json"]));
    assert!(cost["reports"][0]["system_prompt"]["tokens"].as_i64().expect("tokens") > 0);
    assert_eq!(tool_json(2), cli_json(&["cost", claude, "--host", "claude-code", "--format", "json"]));
    let explain = common::ctxc(&["explain", "SKILL004"]);
    assert_eq!(got["calls"][3]["texts"][0].as_str(), Some(String::from_utf8_lossy(&explain.stdout).as_ref()));
    let render = common::ctxc(&["render", zeus, "--mode", "agent", "--scenario", "connected"]);
    assert_eq!(format!("{}\n", got["calls"][4]["texts"][0].as_str().expect("the prompt")), String::from_utf8_lossy(&render.stdout));
    let simulate = &["simulate", zeus, "--workload", "examples/workloads/long-chat.toml", "--mode", "agent", "--format", "json"];
    assert_eq!(tool_json(5), cli_json(simulate));
    for (i, says) in [(6, "leaves the server's root"), (7, "expected a string")] {
        assert_eq!(got["calls"][i]["is_error"], true, "{}", got["calls"][i]);
        assert!(got["calls"][i]["texts"][0].as_str().expect("text").contains(says), "{}", got["calls"][i]);
    }
    assert_eq!(got["calls"][8]["error"], -32602, "an unknown tool is a protocol error");
}

/// The Claude Code plugin's `.mcp.json` starts the server as written there: `ctxc mcp`, which
/// answers the handshake and lists its tools over stdio.
#[test]
fn the_plugins_mcp_json_starts_the_server() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config: Value = serde_json::from_str(&std::fs::read_to_string(repo.join("plugins/ctxc/.mcp.json")).expect("read")).expect("JSON");
    let server = &config["mcpServers"]["ctxc"];
    assert_eq!(server["command"], "ctxc");
    let args: Vec<&str> = server["args"].as_array().expect("args").iter().map(|a| a.as_str().expect("an argument")).collect();
    let session = [
        json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } } }),
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" }),
    ]
    .map(|m| m.to_string() + "\n")
    .concat();
    let out = common::ctxc_with_stdin(repo, &args, &session);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let answers: Vec<Value> = String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    assert_eq!(answers.len(), 2, "the notification is not answered");
    assert_eq!(answers[0]["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(answers[1]["result"]["tools"].as_array().expect("tools").len(), 7);
}

/// docs/mcp.md gives what ctxc's own tool list costs, measured by `ctxc cost` on the server's
/// `tools/list` result: the figures there are this run's (the tools' sum and the total per model).
#[test]
fn the_tool_lists_cost_is_the_documented_one() {
    let listed = answer(&server(), &json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list" }));
    let scratch = tempfile::tempdir().expect("tempdir");
    let file = scratch.path().join("ctxc-tools.json");
    std::fs::write(&file, listed["result"].to_string()).expect("write");
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/mcp.md")).expect("docs/mcp.md");
    for (model, row) in [("gpt-4o", "| gpt-4o (o200k_base"), ("claude-sonnet-4-5", "| claude-sonnet-4-5 (")] {
        let out = common::ctxc(&["cost", file.to_str().expect("UTF-8"), "--model", model, "--format", "json"]);
        let cost: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let tools: i64 = cost["tools"].as_array().expect("tools").iter().map(|t| t["tokens"]["tokens"].as_i64().expect("tokens")).sum();
        let total = cost["total"]["tokens"].as_i64().expect("total");
        let line = docs.lines().find(|l| l.starts_with(row)).unwrap_or_else(|| panic!("docs/mcp.md has no row for {model}"));
        assert!(line.contains(&format!("| ~{tools} | ~{total}")), "docs/mcp.md: {line}\nmeasured: the tools ~{tools}, in all ~{total}");
    }
    let out = common::ctxc(&["check", file.to_str().expect("UTF-8"), "--preview", "--format", "json"]);
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["diagnostics"], json!([]), "ctxc's rules on tool schemas hold for its own tools");
}

/// The fix tool writes only when called with `apply: true`, and then does what `ctxc check --fix`
/// does: the same files after, the same findings left.
#[test]
fn the_fix_tool_writes_only_when_asked_and_as_check_fix_does() {
    let server = server();
    std::fs::create_dir_all("target").expect("target");
    let scratch = tempfile::tempdir_in("target").expect("a folder inside the repository");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules/SKILL012/fix/before");
    let (by_tool, by_cli) = (scratch.path().join("tool"), scratch.path().join("cli"));
    common::copy_tree(&fixture, &by_tool);
    common::copy_tree(&fixture, &by_cli);
    let skill = "skills/notes/SKILL.md";
    let before = std::fs::read_to_string(by_tool.join(skill)).expect("read");
    let path = by_tool.to_str().expect("UTF-8");
    assert!(tool_error(&call(&server, "fix", json!({ "path": path }))).contains("missing field `apply`"));
    assert!(tool_error(&call(&server, "fix", json!({ "path": path, "apply": false }))).contains("call it with `apply: true`"));
    assert!(tool_error(&call(&server, "fix", json!({ "path": "../", "apply": true }))).contains("leaves the server's root"));
    assert_eq!(std::fs::read_to_string(by_tool.join(skill)).expect("read"), before, "nothing written");

    let fixed = call(&server, "fix", json!({ "path": path, "apply": true }));
    assert_eq!(fixed["result"]["isError"], false, "{fixed}");
    let report: Value = serde_json::from_str(fixed["result"]["content"][0]["text"].as_str().expect("text")).expect("JSON");
    assert_eq!(fixed["result"]["content"][1]["text"], "1 fixed (0 remaining)");
    let out = common::ctxc_with_stdin(&by_cli, &["check", "--fix", ".", "--format", "json"], "");
    let cli: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!((&report["diagnostics"], &report["outcome"]), (&cli["diagnostics"], &cli["outcome"]));
    let after = std::fs::read_to_string(by_tool.join(skill)).expect("read");
    assert_ne!(after, before);
    assert_eq!(after, std::fs::read_to_string(by_cli.join(skill)).expect("read"), "the same fix as check --fix");
}

/// The diff tool's JSON is `ctxc diff --base REV --format json`'s: an agent's modes, what each
/// host loads in a folder without a manifest, and one host asked for. A revision git does not
/// know, or one written as an option, is a tool error.
#[test]
fn the_diff_tool_gives_the_clis_json() {
    std::fs::create_dir_all("target").expect("target");
    let scratch = tempfile::tempdir_in("target").expect("a folder inside the repository");
    let root = scratch.path();
    let write = |rel: &str, text: &str| {
        std::fs::create_dir_all(root.join(rel).parent().expect("parent")).expect("mkdir");
        std::fs::write(root.join(rel), text).expect("write");
    };
    write(
        "agent/ctxc.toml",
        "[agent]\nname = \"demo\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [{ id = \"core\", kind = \"module\" }]\n\n[modules]\ncore = { source = \"core.md\" }\n",
    );
    write("agent/core.md", "You are a demo agent.\n");
    write("hosts/AGENTS.md", "# Rules\n\nRun the tests.\n");
    write("hosts/CLAUDE.md", "@AGENTS.md\n");
    for args in [&["init", "-q"][..], &["add", "."], &["commit", "-qm", "base"]] {
        crate::review::git(args, root);
    }
    write("agent/core.md", "You are a demo agent. Answer in one short paragraph.\n");
    write("hosts/AGENTS.md", "# Rules\n\nRun the tests, then the formatter.\n");
    let server = server();
    let rel = root.strip_prefix(std::env::current_dir().expect("cwd")).unwrap_or(root).to_str().expect("UTF-8").to_string();
    let json = |result: &Value| -> Value {
        assert_eq!(result["result"]["isError"], false, "{result}");
        serde_json::from_str(result["result"]["content"][0]["text"].as_str().expect("text")).expect("JSON")
    };
    let cli = |args: &[&str]| -> Value { serde_json::from_slice(&common::ctxc(args).stdout).expect("the CLI's JSON") };
    let (agent, hosts) = (format!("{rel}/agent"), format!("{rel}/hosts"));
    let tool = json(&call(&server, "diff", json!({ "path": agent, "base": "HEAD" })));
    assert_eq!(tool, cli(&["diff", "--base", "HEAD", &agent, "--format", "json"]));
    assert_eq!(tool["changed"], true, "{tool}");
    let tool = json(&call(&server, "diff", json!({ "path": hosts, "base": "HEAD" })));
    assert_eq!(tool, cli(&["diff", "--base", "HEAD", &hosts, "--format", "json"]));
    let ids: Vec<&str> = tool["hosts"].as_array().expect("hosts").iter().filter_map(|h| h["host"].as_str()).collect();
    assert_eq!(ids, ["claude-code", "codex"]);
    let tool = json(&call(&server, "diff", json!({ "path": hosts, "base": "HEAD", "host": "codex" })));
    assert_eq!(tool, cli(&["diff", "--base", "HEAD", &hosts, "--host", "codex", "--format", "json"]));
    assert!(tool_error(&call(&server, "diff", json!({ "path": hosts, "base": "no-such-branch" }))).contains("is not a commit"));
    assert!(tool_error(&call(&server, "diff", json!({ "path": hosts, "base": "--output=x" }))).contains("is not a revision"));
    assert!(tool_error(&call(&server, "diff", json!({ "path": hosts }))).contains("missing field `base`"));
}
