//! `ctxc cost --format html`: one self-contained file. Checked as text (no URL, script, link,
//! import or external reference; a Content-Security-Policy that forbids any request) and opened
//! in headless Chromium (Debian's `chromium`, which `scripts/test` installs; the test is ignored
//! by a plain `cargo test`): it renders the expected content with no console message, and the
//! page makes no network request (read from Chromium's own network log, with a control page that
//! does make one to show the check can see it). Light and dark screenshots differ.

use std::path::Path;
use std::process::{Command, Output};

use crate::common;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn ctxc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ctxc")).args(args).current_dir(repo()).env("NO_COLOR", "1").output().expect("ctxc runs")
}

fn html(args: &[&str]) -> String {
    let out = ctxc(args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// What makes a page ask for anything: none of it may appear.
const REQUESTS: [&str; 10] = ["http://", "https://", "//", "<script", "<link", "<img", "<iframe", "src=", "@import", "url("];

fn assert_self_contained(page: &str) {
    for needle in REQUESTS {
        assert!(!page.contains(needle), "the report contains `{needle}`");
    }
    assert!(page.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"));
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("@media (prefers-color-scheme: dark)"));
}

#[test]
fn report_is_self_contained_and_deterministic() {
    let page = html(&["cost", "--format", "html", "examples/agents"]);
    assert_self_contained(&page);
    for agent in ["zeus", "research-assistant", "ledgerline-coder", "sales-analyst", "support-triage"] {
        assert!(page.contains(&format!("<h2>{agent} ")), "{agent}");
    }
    assert!(page.contains("Fixed context per mode and scenario: system prompt by section, then tool schemas"));
    assert!(page.contains("<h4>Budgets</h4>"), "every mode card lists its budgets");
    assert!(page.contains("By MCP server"), "the Zeus example has MCP servers");
    assert!(page.contains("<svg"));
    assert_eq!(page, html(&["cost", "--format", "html", "examples/agents"]), "same inputs, same bytes");
    let tools = html(&["cost", "--format", "html", "examples/agents/zeus/tools/mcp/github.json"]);
    assert_self_contained(&tools);
    assert!(tools.contains("Tool cost: 7 tools"));
}

#[test]
fn text_from_the_manifest_is_escaped() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("ctxc.toml"),
        "[agent]\nname = \"<script>alert(1)</script>\"\n[pipeline]\nsteps = [{ id = \"core\", kind = \"text\", text = \"Hi.\" }]\n",
    )
    .expect("write");
    let out =
        Command::new(env!("CARGO_BIN_EXE_ctxc")).args(["cost", "--format", "html", "."]).current_dir(dir.path()).output().expect("runs");
    let page = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!page.contains("<script"));
}

/// Runs headless Chromium on a file: the flags the machine notes require (no sandbox as root,
/// no background networking) and every host resolving to nothing.
fn run_chromium(chromium: &Path, profile: &Path, extra: &[&str], page: &Path) -> Output {
    let mut child = Command::new("timeout");
    child
        .arg("120")
        .arg(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}", page.display()));
    child.output().expect("chromium runs")
}

/// URLs the page itself asked for, from Chromium's network log: requests that have an
/// initiator (the browser's own background requests have none, "not an origin").
fn page_requests(net_log: &Path) -> Vec<String> {
    let log: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(net_log).expect("net log")).expect("net log JSON");
    let start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"].as_i64().expect("event type");
    log["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["type"].as_i64() == Some(start_job))
        .filter(|e| e["params"]["initiator"].as_str().is_some_and(|i| i != "not an origin"))
        .filter_map(|e| e["params"]["url"].as_str().map(str::to_string))
        .collect()
}

fn console_messages(stderr: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stderr).lines().filter(|l| l.contains("CONSOLE")).map(str::to_string).collect()
}

#[test]
#[ignore = "needs Debian's chromium: run by scripts/test, which installs it"]
fn report_renders_in_headless_chromium_without_errors_or_requests() {
    let chromium = common::require_tool("chromium");
    let dir = tempfile::tempdir().expect("tempdir");
    let page = dir.path().join("report.html");
    std::fs::write(&page, html(&["cost", "--format", "html", "examples/agents"])).expect("write report");

    // The instrument first: a page that does make a request, and logs to the console.
    let control = dir.path().join("control.html");
    std::fs::write(
        &control,
        "<!DOCTYPE html><title>c</title><img src=\"http://example.invalid/x.png\"><script>console.error('boom')</script>",
    )
    .expect("write control");
    let net_log = dir.path().join("control-net.json");
    let out = run_chromium(&chromium, &dir.path().join("p0"), &[&format!("--log-net-log={}", net_log.display()), "--dump-dom"], &control);
    assert!(out.status.success(), "chromium failed on the control page: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(page_requests(&net_log), ["http://example.invalid/x.png"], "the network check sees a page's request");
    assert_eq!(console_messages(&out.stderr).len(), 1, "the console check sees a message");

    let net_log = dir.path().join("report-net.json");
    let out = run_chromium(&chromium, &dir.path().join("p1"), &[&format!("--log-net-log={}", net_log.display()), "--dump-dom"], &page);
    assert!(out.status.success(), "chromium failed: {}", String::from_utf8_lossy(&out.stderr));
    let dom = String::from_utf8_lossy(&out.stdout);
    for expected in [
        "Token cost: sales-analyst",
        "<h2>zeus ",
        "Fixed context per mode and scenario",
        "Tool schemas: 36 callable tools",
        "summarization at",
        "<svg",
    ] {
        assert!(dom.contains(expected), "rendered page lacks `{expected}`");
    }
    assert_eq!(console_messages(&out.stderr), Vec::<String>::new(), "no console message (errors, CSP violations)");
    assert_eq!(page_requests(&net_log), Vec::<String>::new(), "no request leaves the page");

    // Both themes render; the dark one differs from the light one.
    let shots: Vec<Vec<u8>> = [("light", None), ("dark", Some("--force-dark-mode"))]
        .iter()
        .enumerate()
        .map(|(i, (name, flag))| {
            let png = dir.path().join(format!("{name}.png"));
            let mut extra = vec![format!("--screenshot={}", png.display()), "--window-size=1200,1600".to_string()];
            extra.extend(flag.map(str::to_string));
            let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
            let out = run_chromium(&chromium, &dir.path().join(format!("s{i}")), &extra, &page);
            assert!(out.status.success(), "{name} screenshot: {}", String::from_utf8_lossy(&out.stderr));
            let bytes = std::fs::read(&png).expect("screenshot written");
            assert!(bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000, "{name} screenshot is a real picture");
            bytes
        })
        .collect();
    assert_ne!(shots[0], shots[1], "prefers-color-scheme: dark changes the page");
}
