//! `ctxc counts sync` and the recorded counts (issue 30), against a local server that
//! implements Anthropic's `POST /v1/messages/count_tokens` and Gemini's
//! `models/{model}:countTokens` as documented: it checks each request's headers and body shape,
//! counts with a deterministic function, and can answer 429, 5xx, or slowly. Self-contained: the
//! server is plain `std::net`, the projects are copies of the bundled examples in a temporary folder.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

const KEY: &str = "sk-test-counting-key-0123456789";
const DATE: &str = "2026-11-26";

/// One request the server received.
#[derive(Debug, Clone)]
struct Received {
    path: String,
    body: Value,
    raw: String,
    /// The key the request carried (`x-api-key` or `x-goog-api-key`).
    key: Option<String>,
}

/// An answer given to every request instead of a count.
#[derive(Clone)]
struct Canned {
    status: u16,
    body: String,
    headers: Vec<(&'static str, String)>,
}

#[derive(Default)]
struct State {
    received: Vec<Received>,
    /// Statuses answered before any count, one per request, in order (429 with `retry-after: 0`).
    script: VecDeque<u16>,
    /// Requests for this model are refused with 400.
    refuse_model: Option<String>,
    /// Shape errors found in the requests (a test fails when there is one).
    shape_errors: Vec<String>,
    /// Every request answered with this.
    canned: Option<Canned>,
    /// A forging endpoint: every count divided by this.
    divide_by: Option<u64>,
}

struct Server {
    base: String,
    state: Arc<Mutex<State>>,
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a local port");
        let base = format!("http://{}", listener.local_addr().expect("address"));
        let state = Arc::new(Mutex::new(State::default()));
        let shared = Arc::clone(&state);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let state = Arc::clone(&shared);
                std::thread::spawn(move || answer(stream, &state));
            }
        });
        Server { base, state }
    }

    fn received(&self) -> Vec<Received> {
        self.state.lock().expect("state").received.clone()
    }

    fn shape_errors(&self) -> Vec<String> {
        self.state.lock().expect("state").shape_errors.clone()
    }
}

/// The deterministic count: a quarter of the characters of what a request holds, rounded up,
/// plus framing, plus a tool-use prompt when there are tools (like the real endpoints' shape).
fn count(system: &str, tools: &[Value]) -> u64 {
    let quarter = |n: usize| n.div_ceil(4) as u64;
    let tools_cost: u64 = tools.iter().map(|t| quarter(t.to_string().chars().count())).sum();
    8 + quarter(system.chars().count()) + if tools.is_empty() { 0 } else { 300 + tools_cost }
}

fn answer(stream: TcpStream, state: &Mutex<State>) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    let path = request_line.split_whitespace().nth(1).unwrap_or_default().to_string();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.trim_end().split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    let header = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    let length: usize = header("content-length").and_then(|l| l.parse().ok()).unwrap_or(0);
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let raw = String::from_utf8_lossy(&body).into_owned();
    let parsed: Value = serde_json::from_str(&raw).unwrap_or(Value::Null);
    let (status, reply_text, retry_after) = {
        let mut s = state.lock().expect("state");
        let key = header("x-api-key").or_else(|| header("x-goog-api-key"));
        s.received.push(Received { path: path.clone(), body: parsed.clone(), raw: raw.clone(), key });
        if let Some(canned) = s.canned.clone() {
            drop(s);
            return reply(stream, canned.status, &canned.body, &canned.headers);
        }
        let checked = if path == "/v1/messages/count_tokens" {
            anthropic(&parsed, &header)
        } else if let Some(model) = path.strip_prefix("/v1beta/models/").and_then(|p| p.strip_suffix(":countTokens")) {
            gemini(model, &parsed, &header)
        } else {
            Err(format!("unknown path {path}"))
        };
        let model = parsed["model"].as_str().or(parsed["generateContentRequest"]["model"].as_str()).unwrap_or_default().to_string();
        match (checked, s.script.pop_front()) {
            (Err(e), _) => {
                s.shape_errors.push(e.clone());
                (400, format!("{{\"error\":{}}}", Value::String(e)), None)
            }
            (Ok(_), Some(429)) => (429, "{\"error\":\"rate limited\"}".to_string(), Some("0")),
            (Ok(_), Some(status)) => (status, "{\"error\":\"overloaded\"}".to_string(), None),
            (Ok(_), None) if s.refuse_model.as_deref().is_some_and(|m| model.ends_with(m)) => {
                (400, format!("{{\"error\":\"model not allowed; key {KEY}\"}}"), None)
            }
            (Ok(reply), None) => match s.divide_by {
                Some(by) => {
                    let field = if path.contains("countTokens") { "totalTokens" } else { "input_tokens" };
                    let counted: Value = serde_json::from_str(&reply).expect("a count");
                    (200, format!("{{\"{field}\":{}}}", counted[field].as_u64().expect("n") / by), None)
                }
                None => (200, reply, None),
            },
        }
    };
    let headers: Vec<(&'static str, String)> = retry_after.map(|after| ("retry-after", after.to_string())).into_iter().collect();
    reply(stream, status, &reply_text, &headers);
}

fn reply(mut stream: TcpStream, status: u16, body: &str, headers: &[(&str, String)]) {
    let reason = if status == 200 { "OK" } else { "Error" };
    let mut response =
        format!("HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n", body.len());
    for (name, value) in headers {
        response.push_str(&format!("{name}: {value}\r\n"));
    }
    response.push_str("\r\n");
    response.push_str(body);
    let _ = stream.write_all(response.as_bytes());
}

/// Anthropic's documented request: `x-api-key`, `anthropic-version`, a JSON body with `model`,
/// `messages` (here one user message), optional `system` and `tools` of `{name, description,
/// input_schema}`, and no `max_tokens`.
fn anthropic(body: &Value, header: &dyn Fn(&str) -> Option<String>) -> Result<String, String> {
    if header("x-api-key").as_deref() != Some(KEY) {
        return Err("x-api-key missing or wrong".into());
    }
    if header("anthropic-version").as_deref() != Some("2023-06-01") {
        return Err("anthropic-version missing".into());
    }
    if header("content-type").as_deref() != Some("application/json") {
        return Err("content-type is not application/json".into());
    }
    let object = body.as_object().ok_or("the body is not a JSON object")?;
    for key in object.keys() {
        if !["model", "system", "messages", "tools"].contains(&key.as_str()) {
            return Err(format!("unexpected key {key}"));
        }
    }
    body["model"].as_str().filter(|m| m.starts_with("claude")).ok_or("model is not a Claude id")?;
    let messages = body["messages"].as_array().ok_or("messages missing")?;
    if messages.len() != 1 || messages[0]["role"] != "user" || !messages[0]["content"].is_string() {
        return Err("messages is not one user message".into());
    }
    let system = match body.get("system") {
        None => "",
        Some(s) => s.as_str().ok_or("system is not a string")?,
    };
    let tools = match body.get("tools") {
        None => Vec::new(),
        Some(t) => t.as_array().ok_or("tools is not an array")?.clone(),
    };
    for tool in &tools {
        let keys: Vec<&String> = tool.as_object().ok_or("a tool is not an object")?.keys().collect();
        if keys != ["name", "description", "input_schema"] || !tool["input_schema"].is_object() {
            return Err(format!("a tool is not {{name, description, input_schema}}: {keys:?}"));
        }
    }
    Ok(format!("{{\"input_tokens\":{}}}", count(system, &tools)))
}

/// Gemini's documented request: `x-goog-api-key`, a body `{"generateContentRequest": {model,
/// contents, systemInstruction, tools}}` with `model` the path's model as `models/…`.
fn gemini(model: &str, body: &Value, header: &dyn Fn(&str) -> Option<String>) -> Result<String, String> {
    if header("x-goog-api-key").as_deref() != Some(KEY) {
        return Err("x-goog-api-key missing or wrong".into());
    }
    let request = &body["generateContentRequest"];
    if body.as_object().map(|o| o.len()) != Some(1) || !request.is_object() {
        return Err("the body is not {generateContentRequest}".into());
    }
    if request["model"].as_str() != Some(&format!("models/{model}")) {
        return Err("generateContentRequest.model is not the path's model".into());
    }
    let contents = request["contents"].as_array().ok_or("contents missing")?;
    if contents.len() != 1 || contents[0]["role"] != "user" || !contents[0]["parts"][0]["text"].is_string() {
        return Err("contents is not one user message".into());
    }
    let system = match request.get("systemInstruction") {
        None => "",
        Some(s) => s["parts"][0]["text"].as_str().ok_or("systemInstruction is not {parts: [{text}]}")?,
    };
    let tools = match request.get("tools") {
        None => Vec::new(),
        Some(t) => t[0]["functionDeclarations"].as_array().ok_or("tools is not [{functionDeclarations}]")?.clone(),
    };
    for tool in &tools {
        declaration(tool)?;
    }
    Ok(format!("{{\"totalTokens\":{}}}", count(system, &tools)))
}

/// A `FunctionDeclaration` of Gemini's API reference: a name, documented fields only, and each
/// schema under one key (`parameters` or `parametersJsonSchema`, `response` or
/// `responseJsonSchema`: each pair is mutually exclusive).
fn declaration(tool: &Value) -> Result<(), String> {
    const FIELDS: [&str; 7] = ["name", "description", "behavior", "parameters", "parametersJsonSchema", "response", "responseJsonSchema"];
    let object = tool.as_object().ok_or("a function declaration is not an object")?;
    if let Some(key) = object.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(format!("a function declaration has an unknown field {key}"));
    }
    if !tool["name"].is_string() {
        return Err("a function declaration lacks a name".into());
    }
    for pair in [["parameters", "parametersJsonSchema"], ["response", "responseJsonSchema"]] {
        if pair.iter().all(|k| object.contains_key(*k)) {
            return Err(format!("a function declaration has both {} and {}", pair[0], pair[1]));
        }
    }
    if !tool["parameters"].is_object() && !tool["parametersJsonSchema"].is_object() {
        return Err("a function declaration lacks parameters".into());
    }
    Ok(())
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir").flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The bundled examples, copied into a fresh folder.
fn examples() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let agents = dir.path().join("agents");
    copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agents"), &agents);
    (dir, agents)
}

/// `ctxc` with no provider key or base URL from the environment that runs the tests.
fn ctxc(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ctxc"));
    // Started above the copies, so that an example's `[project] root = "../.."` stays inside.
    command.args(args).current_dir(std::env::temp_dir());
    for var in ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL"] {
        command.env_remove(var);
    }
    command.env("NO_COLOR", "1").env("_CTXC_TEST_DATE", DATE);
    command
}

fn sync(server: &Server, args: &[&str]) -> Output {
    let mut all = vec!["counts", "sync"];
    all.extend_from_slice(args);
    ctxc(&all)
        .env("ANTHROPIC_API_KEY", KEY)
        .env("ANTHROPIC_BASE_URL", &server.base)
        .env("GEMINI_API_KEY", KEY)
        .env("GOOGLE_GEMINI_BASE_URL", &server.base)
        .output()
        .expect("ctxc runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn cost_json(dir: &Path) -> Value {
    let out = ctxc(&["cost", path(dir), "--format", "json"]).output().expect("ctxc runs");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// Every measured mode × scenario of a `cost --format json` answer.
fn measured(json: &Value) -> Vec<Value> {
    let mut found = Vec::new();
    let mut stack = vec![json.clone()];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(o) if o.contains_key("system_prompt") && o.contains_key("sections") => found.push(Value::Object(o)),
            Value::Object(o) => stack.extend(o.into_iter().map(|(_, v)| v)),
            Value::Array(a) => stack.extend(a),
            _ => {}
        }
    }
    found
}

#[test]
fn sync_records_the_bundled_examples_in_a_byte_stable_file_from_documented_requests() {
    let server = Server::start();
    let (_dir, agents) = examples();
    let started = Instant::now();
    let out = sync(&server, &[path(&agents)]);
    let elapsed = started.elapsed();
    assert_eq!(out.status.code(), Some(0), "stdout: {}\nstderr: {}", text(&out.stdout), text(&out.stderr));
    assert_eq!(server.shape_errors(), Vec::<String>::new());
    let sent = server.received().len();
    let mut files = Vec::new();
    // The Claude examples, and the ADK example on Gemini.
    let providers = [
        ("support-triage", "anthropic", "claude-sonnet-4-5"),
        ("deepagents", "anthropic", "claude-sonnet-4-5"),
        ("adk", "gemini", "gemini-2.5-flash"),
    ];
    for (agent, provider, model) in providers {
        let file = agents.join(agent).join("ctxc.counts");
        let written = std::fs::read_to_string(&file).expect("a counts file beside each Claude and Gemini manifest");
        files.push((written, provider, model));
    }
    let entries: usize = files.iter().map(|(f, _, _)| f.lines().filter(|l| !l.starts_with('#')).count()).sum();
    assert_eq!(entries, sent, "one entry per request sent, every request different");
    for (file, provider, model) in &files {
        let lines: Vec<&str> = file.lines().filter(|l| !l.starts_with('#')).collect();
        let mut sorted = lines.clone();
        sorted.sort();
        assert_eq!(lines, sorted, "entries are sorted");
        for line in lines {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 5, "{line}");
            assert_eq!((fields[0], fields[1], fields[4]), (*provider, *model, DATE), "{line}");
            assert_eq!(fields[2].len(), 64);
        }
    }
    // The request bodies: Anthropic's shape (checked by the server), a system prompt that grows
    // section by section, and the tools only in the last request of each render.
    let bodies: Vec<_> = server.received().into_iter().filter(|r| !r.path.contains(":countTokens")).collect();
    assert!(bodies.iter().all(|r| r.path == "/v1/messages/count_tokens"));
    assert!(bodies.iter().any(|r| r.body.get("system").is_none()), "the bare request");
    assert!(
        bodies.iter().any(|r| r.body.get("tools").is_some_and(|t| t.as_array().is_some_and(|a| a.len() == 3))),
        "triage mode's three tools"
    );
    assert!(!text(&out.stdout).contains(KEY) && !text(&out.stderr).contains(KEY), "the key is never printed");
    let size: usize = files.iter().map(|(f, _, _)| f.len()).sum();
    eprintln!("counts sync of examples/agents: {sent} requests sent in {:.2} s; ctxc.counts files {size} bytes", elapsed.as_secs_f64());

    // A second run sends nothing and leaves the bytes as they are.
    let again = sync(&server, &[path(&agents)]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert_eq!(server.received().len(), sent, "only unrecorded requests are sent");
    for ((agent, _, _), (before, _, _)) in providers.iter().zip(&files) {
        assert_eq!(&std::fs::read_to_string(agents.join(agent).join("ctxc.counts")).expect("read"), before);
    }
    // Another copy elsewhere (another machine) records the same bytes.
    let other_server = Server::start();
    let (_other_dir, other) = examples();
    assert_eq!(sync(&other_server, &[path(&other)]).status.code(), Some(0));
    for ((agent, _, _), (before, _, _)) in providers.iter().zip(&files) {
        assert_eq!(&std::fs::read_to_string(other.join(agent).join("ctxc.counts")).expect("read"), before, "byte-stable across copies");
    }
}

#[test]
fn recorded_counts_are_used_offline_labelled_exact_and_fall_back_labelled() {
    let server = Server::start();
    let (_dir, agents) = examples();
    let triage = agents.join("support-triage");
    assert_eq!(sync(&server, &[path(&triage)]).status.code(), Some(0));
    // Offline: no key, no server (`ctxc` gets neither).
    let json = cost_json(&triage);
    let runs = measured(&json);
    assert!(!runs.is_empty());
    for m in &runs {
        assert_eq!(m["recorded"]["status"], "exact", "{}", m["recorded"]);
        assert_eq!(m["method"], format!("exact: Anthropic count_tokens, recorded {DATE}"));
        assert_eq!(m["exact"], true);
        let sections: i64 = m["sections"].as_array().expect("sections").iter().map(|s| s["tokens"]["tokens"].as_i64().expect("n")).sum();
        let prompt = m["system_prompt"]["tokens"].as_i64().expect("n");
        assert_eq!(sections + m["joins"]["tokens"].as_i64().expect("n"), prompt, "sections + joins = system prompt");
        assert!(m["sections"].as_array().expect("sections").iter().all(|s| s["tokens"]["exact"] == true));
        let r = &m["request"];
        let parts = r["framing"]["tokens"].as_i64().expect("n") + prompt + m["tool_schemas"]["total"]["tokens"].as_i64().expect("n");
        assert_eq!(parts, r["total"]["tokens"].as_i64().expect("n"), "framing + prompt + tools = the recorded request");
        // The total is one of the answers the server gave.
        assert!(server.received().iter().any(|rec| {
            let system = rec.body["system"].as_str().unwrap_or_default();
            let tools = rec.body["tools"].as_array().cloned().unwrap_or_default();
            count(system, &tools) as i64 == r["total"]["tokens"].as_i64().unwrap_or(-1)
        }));
        // Each tool exact too: the server charges 300 for the tool prompt and a quarter of each
        // definition's characters, and that is what the differences give back.
        let t = &m["tool_schemas"];
        let tools = t["tools"].as_array().expect("tools");
        assert!(tools.len() >= 2, "the example has several tools");
        let full = server
            .received()
            .into_iter()
            .filter_map(|rec| rec.body["tools"].as_array().cloned())
            .find(|sent| sent.len() == tools.len() && sent.iter().zip(tools).all(|(a, b)| a["name"] == b["name"]))
            .expect("the request with every tool");
        for (tool, sent) in tools.iter().zip(&full) {
            assert_eq!(tool["tokens"]["exact"], true, "{tool}");
            assert_eq!(tool["tokens"]["tokens"].as_u64(), Some(sent.to_string().chars().count().div_ceil(4) as u64), "{tool}");
        }
        assert_eq!(
            (t["preamble"]["tokens"].as_i64(), t["framing"]["tokens"].as_i64(), t["joins"]["tokens"].as_i64()),
            (Some(300), Some(0), Some(0))
        );
    }
    let cost = ctxc(&["cost", path(&triage), "--mode", "triage", "--scenario", "default"]).output().expect("runs");
    let shown = text(&cost.stdout);
    assert!(shown.contains(&format!("exact: Anthropic count_tokens, recorded {DATE}")), "{shown}");
    let prompt_line = shown.lines().find(|l| l.contains("system prompt") && l.contains("counted as a whole")).expect("prompt line");
    assert!(!prompt_line.contains('~'), "{prompt_line}");
    // The recorded framing and tool-use prompt are said to be recorded, never "not counted".
    let framing_line = shown.lines().find(|l| l.starts_with("message framing")).expect("framing line");
    assert!(framing_line.contains("recorded") && !framing_line.contains("not counted"), "{framing_line}");
    let preamble_line = shown.lines().find(|l| l.starts_with("preamble (once)")).expect("preamble line");
    assert!(preamble_line.contains("recorded: the tool-use prompt and the list's framing"), "{preamble_line}");
    for format in ["markdown", "html"] {
        let out = ctxc(&["cost", path(&triage), "--format", format]).output().expect("runs");
        let shown = text(&out.stdout);
        assert!(shown.contains(&format!("exact: Anthropic count_tokens, recorded {DATE}")), "{format}");
        assert!(!shown.contains("not counted") && !shown.contains("published figure") && !shown.contains('±'), "{format}: {shown}");
    }
    let snapshot = ctxc(&["snapshot", path(&triage)]).output().expect("runs");
    assert_eq!(snapshot.status.code(), Some(0), "{}", text(&snapshot.stderr));
    let pinned = std::fs::read_to_string(triage.join(".ctxc/snapshots/triage.default.md")).expect("a snapshot file");
    assert!(pinned.contains("tokenizer: Anthropic count_tokens (exact)"), "{pinned}");
    // `check --require-exact` is satisfied.
    let check = ctxc(&["check", path(&triage), "--require-exact", "--format", "concise"]).output().expect("runs");
    assert!(!text(&check.stdout).contains("BUDGET005"), "{}", text(&check.stdout));

    // A prompt changed since: the estimate, labelled, and `--require-exact` fails.
    let policies = triage.join("prompts/policies.md");
    let edited = std::fs::read_to_string(&policies).expect("read") + "\nOne more rule.\n";
    std::fs::write(&policies, edited).expect("write");
    for m in measured(&cost_json(&triage)) {
        assert_eq!(m["recorded"]["status"], "missing");
        assert_eq!(m["exact"], false);
        let method = m["method"].as_str().expect("method");
        assert!(method.contains("not recorded"), "{method}");
        // The first section (the role) is still recorded: the estimate takes this project's own
        // ratio from it instead of the published one.
        assert!(method.contains("the ratio recorded for this render's first 1 section(s), ±10 %"), "{method}");
        assert_eq!(m["model"]["calibration"]["generation"], "recorded");
        // The role did not change and is still recorded: it stays exact; the sections after the
        // edit are estimates, and with the joins they still add up to the system prompt.
        assert!(method.contains("the first 1 section(s), unchanged since, as recorded"), "{method}");
        let sections = m["sections"].as_array().expect("sections");
        assert_eq!(sections[0]["tokens"]["exact"], true, "{}", sections[0]);
        assert_eq!(sections[0]["tokens"]["tokenizer"], "Anthropic count_tokens");
        assert!(sections[1..].iter().all(|s| s["tokens"]["exact"] == false));
        let sum: i64 = sections.iter().map(|s| s["tokens"]["tokens"].as_i64().expect("n")).sum();
        assert_eq!(sum + m["joins"]["tokens"].as_i64().expect("n"), m["system_prompt"]["tokens"].as_i64().expect("n"));
    }
    // Each role's count is a recorded prefix's (the server's count of it, less the bare request's 8).
    let prefixes: Vec<i64> = server.received().iter().filter_map(|r| r.body["system"].as_str().map(|s| count(s, &[]) as i64 - 8)).collect();
    for m in measured(&cost_json(&triage)) {
        let role = m["sections"][0]["tokens"]["tokens"].as_i64().expect("n");
        assert!(prefixes.contains(&role), "the role's recorded count: {role} not in {prefixes:?}");
    }
    let shown = text(&ctxc(&["cost", path(&triage), "--mode", "triage", "--scenario", "default"]).output().expect("runs").stdout);
    let role_line = shown.lines().find(|l| l.contains("role ") && l.contains("prompts/role")).expect("the role's line");
    assert!(!role_line.contains('~'), "an exact section is shown without `~`: {role_line}");
    let html = text(&ctxc(&["cost", path(&triage), "--format", "html"]).output().expect("runs").stdout);
    assert!(html.contains("±10 %"), "the estimated totals' band in HTML");
    let check = ctxc(&["check", path(&triage), "--require-exact", "--format", "concise"]).output().expect("runs");
    assert_eq!(check.status.code(), Some(1));
    assert!(text(&check.stdout).contains("BUDGET005"), "{}", text(&check.stdout));

    // Without the file: calibrated estimates with their band.
    std::fs::remove_file(triage.join("ctxc.counts")).expect("remove");
    for m in measured(&cost_json(&triage)) {
        assert!(m.get("recorded").is_none());
        assert_eq!(m["model"]["calibration"]["band_percent"], 10);
        assert!(m["method"].as_str().expect("method").contains("× 1.20"), "{}", m["method"]);
    }
    let cost = ctxc(&["cost", path(&triage), "--mode", "triage", "--scenario", "default"]).output().expect("runs");
    assert!(text(&cost.stdout).contains("±10 %"), "{}", text(&cost.stdout));
    // The band beside the system prompt and the request total in every format.
    for m in &cost_json(&triage)["reports"].as_array().expect("reports").clone() {
        let bands = &m["bands"];
        assert_eq!((bands["system_prompt"]["percent"].as_u64(), bands["request_total"]["percent"].as_u64()), (Some(10), Some(10)), "{m}");
    }
    for (format, request) in [("markdown", "request (the fixed part of every call)"), ("html", "<h4>Request: ")] {
        let shown = text(&ctxc(&["cost", path(&triage), "--format", format]).output().expect("runs").stdout);
        let (bands, runs) = (shown.matches("±10 %: ").count(), shown.matches(request).count());
        assert!(runs > 0 && bands == 2 * runs, "{format}: {bands} bands for {runs} renders");
    }
    let check = ctxc(&["check", path(&triage), "--require-exact", "--format", "concise"]).output().expect("runs");
    assert!(text(&check.stdout).contains("no ctxc.counts"), "{}", text(&check.stdout));
}

#[test]
fn gemini_requests_carry_the_system_instruction_and_the_path_names_the_model() {
    let server = Server::start();
    let (_dir, agents) = examples();
    let triage = agents.join("support-triage");
    let out = sync(&server, &[path(&triage), "--model", "gemini/gemini-2.5-pro"]);
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    assert_eq!(server.shape_errors(), Vec::<String>::new());
    let received = server.received();
    assert!(received.iter().all(|r| r.path == "/v1beta/models/gemini-2.5-pro:countTokens"));
    assert!(received.iter().any(|r| r.body["generateContentRequest"]["systemInstruction"]["parts"][0]["text"].is_string()));
    assert!(received.iter().any(|r| r.body["generateContentRequest"]["tools"][0]["functionDeclarations"].is_array()));
    let file = std::fs::read_to_string(triage.join("ctxc.counts")).expect("written");
    assert!(file.lines().filter(|l| !l.starts_with('#')).all(|l| l.starts_with("gemini\tgemini-2.5-pro\t")));
}

/// A Gemini declaration is sent to `countTokens` as the model receives it: a
/// `responseJsonSchema` (and `parametersJsonSchema`, `response`) as written. ctxc dropped the
/// `responseJsonSchema`, so the recorded count was of a smaller request than the agent sends.
#[test]
fn gemini_declarations_are_sent_to_count_tokens_as_written() {
    let server = Server::start();
    let (_dir, agent) = one_module_agent("gemini-2.5-pro", "You book flights.\n", "\n[tools.flights]\nfiles = [\"tools.json\"]\n");
    let declarations = serde_json::json!([
        {"name": "find_flights", "description": "Finds flights.", "parameters": {"type": "OBJECT", "properties": {"from": {"type": "STRING"}}},
         "responseJsonSchema": {"type": "object", "properties": {"flights": {"type": "array", "items": {"type": "string"}}}}},
        {"name": "book_flight", "parametersJsonSchema": {"type": "object", "properties": {"flight": {"type": "string"}}},
         "response": {"type": "STRING", "description": "The booking"}}
    ]);
    std::fs::write(agent.join("tools.json"), serde_json::json!({"functionDeclarations": declarations}).to_string()).expect("write");
    let out = sync(&server, &[path(&agent)]);
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    assert_eq!(server.shape_errors(), Vec::<String>::new());
    // The request with both tools, and one per tool (each tool's own count).
    let sent: Vec<Value> = server
        .received()
        .into_iter()
        .flat_map(|r| r.body["generateContentRequest"]["tools"][0]["functionDeclarations"].as_array().cloned().unwrap_or_default())
        .collect();
    let written = declarations.as_array().expect("array");
    assert!(written.iter().all(|d| sent.contains(d)) && sent.iter().all(|d| written.contains(d)), "{sent:#?}");
}

#[test]
fn secrets_are_never_sent_unless_allowed() {
    let server = Server::start();
    let (_dir, agents) = examples();
    let triage = agents.join("support-triage");
    let secret = "sk-ant-api03-Zq8vN2xK4pL7mR1tY6wB3cF9hJ5dG0sA";
    let policies = triage.join("prompts/policies.md");
    let text_with_secret = std::fs::read_to_string(&policies).expect("read") + &format!("\nUse the key {secret} for the status page.\n");
    std::fs::write(&policies, text_with_secret).expect("write");
    let out = sync(&server, &[path(&triage)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("SEC002"), "{}", text(&out.stderr));
    assert!(!text(&out.stderr).contains(secret), "the secret is masked");
    assert!(server.received().iter().all(|r| !r.raw.contains(secret)), "a text with a secret is never sent");
    let out = sync(&server, &[path(&triage), "--allow-secrets"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(server.received().iter().any(|r| r.raw.contains(secret)));
}

#[test]
fn rate_limits_and_server_errors_are_retried_and_final_failures_named() {
    let server = Server::start();
    server.state.lock().expect("state").script = VecDeque::from([429, 429, 503, 500]);
    let (_dir, agents) = examples();
    let triage = agents.join("support-triage");
    let out = sync(&server, &[path(&triage), "--jobs", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    let recorded = std::fs::read_to_string(triage.join("ctxc.counts")).expect("written");
    let entries = recorded.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(server.received().len(), entries + 4, "each refused request sent again");

    // A model the endpoint refuses: each failure names its agent and mode; the key is not shown.
    let refusing = Server::start();
    refusing.state.lock().expect("state").refuse_model = Some("claude-opus-4-1".into());
    let out = sync(&refusing, &[path(&triage), "--model", "claude-opus-4-1"]);
    assert_eq!(out.status.code(), Some(1));
    let shown = text(&out.stdout);
    assert!(shown.contains("failed: support-triage · triage mode · scenario"), "{shown}");
    assert!(shown.contains("HTTP 400"), "{shown}");
    assert!(!shown.contains(KEY) && !text(&out.stderr).contains(KEY), "the key is never printed: {shown}");
    // 400 is final: one attempt per request.
    let sent = refusing.received().len();
    let failed = shown.lines().filter(|l| l.starts_with("failed:")).count();
    assert_eq!(sent, failed);
}

#[test]
fn dry_run_sends_nothing_and_a_missing_key_is_named() {
    let server = Server::start();
    let (_dir, agents) = examples();
    let out = sync(&server, &[path(&agents), "--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(server.received().is_empty());
    let shown = text(&out.stdout);
    assert!(shown.contains("support-triage:") && shown.contains("requests to send"), "{shown}");
    assert!(shown.contains("zeus (gpt-4o): no counting endpoint"), "{shown}");
    assert!(!agents.join("support-triage/ctxc.counts").exists());
    let out = ctxc(&["counts", "sync", path(&agents.join("support-triage"))]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("ANTHROPIC_API_KEY"), "{}", text(&out.stderr));
}

#[test]
fn prune_drops_counts_nothing_uses_and_a_bad_file_is_an_error_at_its_line() {
    let server = Server::start();
    let (_dir, agents) = examples();
    let triage = agents.join("support-triage");
    assert_eq!(sync(&server, &[path(&triage)]).status.code(), Some(0));
    let lines = |file: &str| file.lines().filter(|l| !l.starts_with('#')).count();
    let before = lines(&std::fs::read_to_string(triage.join("ctxc.counts")).expect("read"));
    let role = triage.join("prompts/policies.md");
    std::fs::write(&role, std::fs::read_to_string(&role).expect("read") + "\nAnother rule.\n").expect("write");
    assert_eq!(sync(&server, &[path(&triage)]).status.code(), Some(0));
    let grown = lines(&std::fs::read_to_string(triage.join("ctxc.counts")).expect("read"));
    assert!(grown > before, "the changed requests are added");
    assert_eq!(sync(&server, &[path(&triage), "--prune"]).status.code(), Some(0));
    let pruned = lines(&std::fs::read_to_string(triage.join("ctxc.counts")).expect("read"));
    assert_eq!(pruned, before, "as many entries as the agent's requests");

    std::fs::write(triage.join("ctxc.counts"), "anthropic\tclaude-sonnet-4-5\tnot-a-hash\t12\t2026-11-26\n").expect("write");
    let out = ctxc(&["cost", path(&triage)]).output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("ctxc.counts:1:"), "{}", text(&out.stderr));
}

#[test]
fn a_killed_sync_leaves_the_previous_file_intact() {
    let server = Server::start();
    let (_dir, agents) = examples();
    let triage = agents.join("support-triage");
    assert_eq!(sync(&server, &[path(&triage)]).status.code(), Some(0));
    let counts = triage.join("ctxc.counts");
    let before = std::fs::read(&counts).expect("read");
    let policies = triage.join("prompts/policies.md");
    std::fs::write(&policies, std::fs::read_to_string(&policies).expect("read") + "\nA rule added later.\n").expect("write");
    let mut child = ctxc(&["counts", "sync", path(&triage)])
        .env("ANTHROPIC_API_KEY", KEY)
        .env("ANTHROPIC_BASE_URL", &server.base)
        .env("_CTXC_TEST_PAUSE_MS", "3000")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    // Killed half-way through writing the temporary file.
    let deadline = Instant::now() + Duration::from_secs(60);
    let temp_written = || {
        std::fs::read_dir(&triage)
            .expect("read dir")
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with(".ctxc.counts.ctxc-tmp-"))
    };
    while !temp_written() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(temp_written(), "the write started");
    child.kill().expect("kill");
    child.wait().expect("wait");
    assert_eq!(std::fs::read(&counts).expect("read"), before, "the previous file, whole");
    // The next run finishes the job.
    assert_eq!(sync(&server, &[path(&triage)]).status.code(), Some(0));
    assert_ne!(std::fs::read(&counts).expect("read"), before);
}

/// A project of one Claude agent with a one-module prompt: two requests (bare, the prompt).
fn tiny() -> (tempfile::TempDir, PathBuf) {
    one_module_agent("claude-sonnet-4-5", "You answer questions about the weather, briefly.\n", "")
}

/// A project of one agent `tiny` of `model` whose prompt is the one module `role`, and `more` of
/// its manifest after it.
fn one_module_agent(model: &str, role: &str, more: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let agent = dir.path().join("tiny");
    std::fs::create_dir_all(&agent).expect("mkdir");
    std::fs::write(
        agent.join("ctxc.toml"),
        format!("[agent]\nname = \"tiny\"\nmodel = \"{model}\"\n\n[pipeline]\nsteps = [{{ id = \"role\", kind = \"module\" }}]\n\n[modules]\nrole = {{ source = \"role.md\" }}\n{more}"),
    )
    .expect("write");
    std::fs::write(agent.join("role.md"), role).expect("write");
    (dir, agent)
}

/// Whether `said` (a diagnostic, wrapped to the terminal's width) holds `expected`.
fn says(said: &str, expected: &str) -> bool {
    let squeezed = |s: &str| s.chars().filter(|c| !c.is_whitespace() && *c != '│').collect::<String>();
    squeezed(said).contains(&squeezed(expected))
}

fn canned(server: &Server, status: u16, body: &str, headers: Vec<(&'static str, String)>) {
    server.state.lock().expect("state").canned = Some(Canned { status, body: body.to_string(), headers });
}

#[test]
fn redirects_are_not_followed_and_the_key_never_leaves_its_origin() {
    let (_dir, agent) = tiny();
    for status in [301, 302, 303, 307, 308] {
        let server = Server::start();
        let elsewhere = Server::start();
        canned(&server, status, "", vec![("location", format!("{}/v1/messages/count_tokens?from=redirect", elsewhere.base))]);
        let out = sync(&server, &[path(&agent)]);
        let shown = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{status}: {shown}{}", text(&out.stderr));
        assert!(elsewhere.received().is_empty(), "{status}: the other origin got a request (key: {:?})", elsewhere.received()[0].key);
        assert!(shown.contains(&format!("HTTP {status}: redirected to {}, not followed", elsewhere.base)), "{status}: {shown}");
        assert!(!shown.contains("from=redirect"), "only the origin is named: {shown}");
        // A redirect is answered alike every time: one attempt per request.
        assert_eq!(server.received().len(), 2, "{status}");
        assert!(!agent.join("ctxc.counts").exists(), "nothing recorded");
    }
}

#[test]
fn an_answer_echoing_the_key_is_masked_before_it_is_clipped() {
    let (_dir, agent) = tiny();
    let server = Server::start();
    // The key where the 200-character clip falls, and a long piece of it later on.
    let body = format!("{{\"error\":\"{}{KEY}, and again {}\"}}", "x".repeat(185), &KEY[3..20]);
    canned(&server, 400, &body, Vec::new());
    let out = sync(&server, &[path(&agent)]);
    assert_eq!(out.status.code(), Some(1));
    let shown = text(&out.stdout) + &text(&out.stderr);
    assert!(shown.contains("HTTP 400"), "{shown}");
    assert!(shown.contains("[key]"), "{shown}");
    for piece in KEY.as_bytes().windows(8) {
        let piece = std::str::from_utf8(piece).expect("ASCII");
        assert!(!shown.contains(piece), "`{piece}` of the key is printed: {shown}");
    }
    // Non-JSON and a 200 without a count: masked alike.
    canned(&server, 200, &format!("{{\"note\":\"{}{KEY}\"}}", "y".repeat(190)), Vec::new());
    let out = sync(&server, &[path(&agent)]);
    let shown = text(&out.stdout);
    assert!(shown.contains("holds no token count") && !shown.contains(&KEY[..8]), "{shown}");
}

#[test]
fn a_refused_key_is_one_request_not_retried_and_a_key_no_header_carries_is_refused_before_sending() {
    let (_dir, agent) = tiny();
    let server = Server::start();
    canned(&server, 401, "{\"error\":\"invalid x-api-key\"}", Vec::new());
    let out = sync(&server, &[path(&agent)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("HTTP 401"), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("(after 1 attempt)"), "{}", text(&out.stdout));
    assert_eq!(server.received().len(), 2, "two requests, each sent once");

    let quiet = Server::start();
    let out = ctxc(&["counts", "sync", path(&agent)])
        .env("ANTHROPIC_API_KEY", "sk-ant-\u{1}broken")
        .env("ANTHROPIC_BASE_URL", &quiet.base)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2), "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(says(&text(&out.stderr), "holds a character an HTTP header cannot carry"), "{}", text(&out.stderr));
    assert!(quiet.received().is_empty());
}

#[test]
fn requests_over_the_cap_are_refused_before_any_is_sent() {
    let server = Server::start();
    let (_dir, agents) = examples();
    let triage = agents.join("support-triage");
    let dry = text(&sync(&server, &[path(&triage), "--dry-run"]).stdout);
    let planned: usize = dry.split(" of ").next().and_then(|head| head.rsplit(": ").next()).and_then(|n| n.parse().ok()).expect("a count");
    let out = sync(&server, &[path(&triage), "--max-requests", "5"]);
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(says(&said, &format!("{planned} requests would be sent, more than --max-requests allows (5)")), "{said}");
    assert!(says(&said, &format!("--max-requests {planned}")), "{said}");
    assert!(server.received().is_empty(), "nothing sent");
    assert!(!triage.join("ctxc.counts").exists());
    let out = sync(&server, &[path(&triage), "--max-requests", &planned.to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(server.received().len(), planned);
    assert!(!text(&out.stderr).contains("unencrypted"), "a loopback server is not warned about");
}

#[test]
fn plain_http_to_another_host_is_warned_about() {
    let (_dir, agent) = tiny();
    let out = ctxc(&["counts", "sync", path(&agent), "--dry-run"])
        .env("ANTHROPIC_API_KEY", KEY)
        .env("ANTHROPIC_BASE_URL", "http://counts.example.invalid")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let said = text(&out.stderr);
    assert!(
        says(
            &said,
            "ANTHROPIC_BASE_URL is plain http:// to counts.example.invalid: the key and every prompt cross the network unencrypted"
        ),
        "{said}"
    );
}

/// Issue 43: a pull request grows a prompt past its budget and commits a `ctxc.counts` recorded
/// against an endpoint that answers small numbers. The counts are not taken: `check` fails naming
/// both figures, the estimate is used, `--require-exact` is not satisfied, and `diff` says so.
#[test]
fn forged_counts_for_a_grown_prompt_are_a_finding_not_an_override() {
    let (dir, agents) = examples();
    let triage = agents.join("support-triage");
    crate::review::git(&["init", "-q"], dir.path());
    crate::review::git(&["add", "-A"], dir.path());
    crate::review::git(&["commit", "-qm", "base"], dir.path());
    let policies = triage.join("prompts/policies.md");
    let grown = std::fs::read_to_string(&policies).expect("read").repeat(8);
    std::fs::write(&policies, grown).expect("write");
    let check = |extra: &[&str]| {
        let mut args = vec!["check", path(&triage), "--format", "concise"];
        args.extend_from_slice(extra);
        ctxc(&args).output().expect("runs")
    };
    let before = check(&[]);
    assert_eq!(before.status.code(), Some(1), "the grown prompt is over its budget: {}", text(&before.stdout));
    assert!(text(&before.stdout).contains("BUDGET001"));

    let forger = Server::start();
    forger.state.lock().expect("state").divide_by = Some(8);
    assert_eq!(sync(&forger, &[path(&triage)]).status.code(), Some(0));

    let after = check(&[]);
    let shown = text(&after.stdout);
    assert_eq!(after.status.code(), Some(1), "{shown}");
    assert!(shown.contains("BUDGET007"), "{shown}");
    assert!(shown.contains("BUDGET001"), "the budget is checked against the estimate: {shown}");
    let finding = shown.lines().find(|l| l.contains("BUDGET007")).expect("the finding");
    // Both figures, as the JSON report has them.
    let json = cost_json(&triage);
    for m in measured(&json) {
        assert_eq!(m["recorded"]["status"], "implausible", "{}", m["recorded"]);
        assert_eq!(m["exact"], false);
        assert!(m["method"].as_str().expect("method").contains("the recorded counts are not used"), "{}", m["method"]);
        assert!(m["sections"].as_array().expect("sections").iter().all(|s| s["tokens"]["exact"] == false));
        let figure = &m["recorded"]["figures"][0];
        let (recorded, estimate) = (figure["recorded"].as_i64().expect("n"), figure["estimate"].as_i64().expect("n"));
        assert!(recorded * 2 < estimate, "{figure}");
        let grouped = |n: i64| {
            let digits = n.to_string();
            let mut out = String::new();
            for (i, c) in digits.chars().enumerate() {
                if i > 0 && (digits.len() - i).is_multiple_of(3) {
                    out.push(',');
                }
                out.push(c);
            }
            out
        };
        if finding.contains(&format!("{} mode, scenario `{}`", m["mode"].as_str().expect("mode"), m["scenario"].as_str().expect("s"))) {
            assert!(finding.contains(&grouped(recorded)) && finding.contains(&grouped(estimate)), "{finding}");
        }
    }
    let exact = check(&["--require-exact"]);
    assert_eq!(exact.status.code(), Some(1));
    assert!(text(&exact.stdout).contains("BUDGET005"), "--require-exact is not satisfied: {}", text(&exact.stdout));
    let cost = ctxc(&["cost", path(&triage), "--mode", "triage", "--scenario", "default"]).output().expect("runs");
    assert!(!text(&cost.stdout).contains("exact: Anthropic count_tokens"), "{}", text(&cost.stdout));

    // The pull request's diff names the file and what it holds.
    let diff = ctxc(&["diff", "--base", "HEAD", path(&triage)]).output().expect("runs");
    let said = text(&diff.stdout);
    assert!(said.contains("\nctxc.counts\n  ctxc.counts (support-triage): "), "{said}{}", text(&diff.stderr));
    let entries = std::fs::read_to_string(triage.join("ctxc.counts")).expect("read").lines().filter(|l| !l.starts_with('#')).count();
    assert!(said.contains(&format!("{entries} entries added, 0 changed, 0 removed")), "{said}");
    assert!(said.contains("not plausible: ctxc.counts holds counts for `claude-sonnet-4-5` that no tokenizer gives"), "{said}");
    let markdown = text(&ctxc(&["diff", "--base", "HEAD", path(&triage), "--format", "markdown"]).output().expect("runs").stdout);
    assert!(markdown.contains("#### `ctxc.counts`") && markdown.contains("**Not plausible** (BUDGET007)"), "{markdown}");
    let json: Value =
        serde_json::from_slice(&ctxc(&["diff", "--base", "HEAD", path(&triage), "--format", "json"]).output().expect("runs").stdout)
            .expect("JSON");
    assert_eq!(json["counts"][0]["added"], entries);
    assert!(json["counts"][0]["implausible"].is_string());

    // A prompt edited since: its first sections' forged counts would give this project's own
    // ratio, scaling the whole estimate down; the published factor is kept.
    std::fs::write(&policies, std::fs::read_to_string(&policies).expect("read") + "\nOne more rule.\n").expect("write");
    for m in measured(&cost_json(&triage)) {
        assert_eq!(m["recorded"]["status"], "missing", "{}", m["recorded"]);
        assert_eq!(m["model"]["calibration"]["generation"], "claude-3", "{}", m["method"]);
        assert!(m["method"].as_str().expect("method").contains("× 1.20"), "{}", m["method"]);
    }
    assert_eq!(check(&[]).status.code(), Some(1), "still over its budget");
}

/// The window bar is 60 cells whatever the window: with `context_window = 1` every count is past
/// it, and the bar once grew with the count (a 4 MB prompt printed 144 MB).
#[test]
fn the_window_bar_stays_sixty_cells_past_a_tiny_window() {
    let (_dir, agent) = tiny();
    let manifest = agent.join("ctxc.toml");
    let with_window = std::fs::read_to_string(&manifest).expect("read").replace("model = ", "context_window = 1\nmodel = ");
    std::fs::write(&manifest, with_window).expect("write");
    std::fs::write(agent.join("role.md"), "Answer about the weather, briefly and kindly. ".repeat(2000)).expect("write");
    let out = ctxc(&["cost", path(&agent)]).output().expect("runs");
    let shown = text(&out.stdout);
    let bar = shown.lines().find(|l| l.contains("█ fixed")).expect("the bar");
    let cells = bar.split("]  ").next().expect("cells").trim_start_matches('[');
    assert_eq!(cells.chars().count(), 60, "{bar}");
    assert!(cells.chars().all(|c| c == '█'), "{bar}");
    assert!(shown.len() < 20_000, "{} bytes", shown.len());
}
