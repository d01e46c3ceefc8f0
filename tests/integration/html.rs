//! `ctxc cost --format html` and `ctxc simulate --format html`: self-contained files. Checked as
//! text (no URL, script, link, import or external reference; a Content-Security-Policy that
//! allows nothing but the page's own style sheet, by its hash) and opened
//! in headless Chromium (Debian's `chromium`, which `scripts/test` installs; the test is ignored
//! by a plain `cargo test`): it renders the expected content with no console message, and the
//! page makes no network request (read from Chromium's own network log, with a control page that
//! does make one to show the check can see it). Light and dark screenshots differ. A scenario's
//! declared workload is charted in its mode's card, in the browser's DOM too. The simulate page
//! renders under its policy with no console message, where the same page with a wrong hash
//! gets the browser's refusal.

use std::path::Path;
use std::process::{Command, Output};

use base64::Engine as _;
use sha2::Digest as _;

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
    assert_csp(page);
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("@media (prefers-color-scheme: dark)"));
}

/// The page's Content-Security-Policy: nothing allowed but its one inline style sheet, by the
/// SHA-256 of that sheet's text (computed here from the page, as the browser does), before it.
fn assert_csp(page: &str) {
    assert_eq!(page.matches("<style").count(), 1, "one style sheet");
    let (before, sheet) = page.split_once("<style>").expect("a style sheet");
    let sheet = sheet.split_once("</style>").expect("closed").0;
    let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(sheet.as_bytes()));
    let policy = format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'sha256-{hash}'; base-uri 'none'; form-action 'none'\">"
    );
    assert!(before.contains(&policy), "{policy} is not before the style sheet: {before}");
    assert!(!page.contains(" style="), "a style attribute, which the policy blocks");
}

#[test]
fn simulate_page_allows_nothing_but_its_style() {
    let workload = format!("{WORKLOAD_AGENT}/long-chat.toml");
    let page = html(&["simulate", WORKLOAD_AGENT, "--workload", &workload, "--format", "html"]);
    assert_csp(&page);
    for needle in ["<script", "<link", "<img", "<iframe", "src=", "@import", "url("] {
        assert!(!page.contains(needle), "the page contains `{needle}`");
    }
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

/// An agent whose scenario declares a workload (BUDGET006's passing example): it summarizes once.
const WORKLOAD_AGENT: &str = "tests/fixtures/rules/BUDGET006/pass";

/// What a chart of the workload of [`WORKLOAD_AGENT`] shows, read from `ctxc simulate --format
/// json` of the same workload: its model calls (the points of each line), and its markers (one
/// per event of the policy but history trimming).
fn expected_chart() -> (usize, usize) {
    let workload = format!("{WORKLOAD_AGENT}/long-chat.toml");
    let out = ctxc(&["simulate", WORKLOAD_AGENT, "--workload", &workload, "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("simulate JSON");
    let calls = json["simulations"][0]["calls"].as_array().expect("calls");
    let markers = calls.iter().flat_map(|c| c["events"].as_array().expect("events")).filter(|e| e["kind"] != "history_trimmed").count();
    (calls.len(), markers)
}

/// The number of points of each line (`polyline`) of an SVG.
fn line_points(svg: &str) -> Vec<usize> {
    svg.split("<polyline ")
        .skip(1)
        .map(|l| l.split_once("points=\"").expect("points").1.split('"').next().unwrap_or("").split(' ').count())
        .collect()
}

#[test]
fn a_declared_workload_is_charted_in_its_mode_card() {
    let page = html(&["cost", "--format", "html", WORKLOAD_AGENT]);
    assert_self_contained(&page);
    assert!(page.contains("<h4>Conversation: workload long-chat.toml · the manifest&#39;s [history] and [summarization]</h4>\n<svg viewBox=\"0 0 720 260\""), "{page}");
    assert_eq!(page.matches("class=\"simulation\"").count(), 1, "one chart: one mode × scenario declares a workload");
    assert_eq!(page.matches("<polyline ").count(), 3, "the context with and without the policy, and the runtime's count");
    assert!(page.contains(">window 128,000</text>") && page.contains(">trigger (runtime count) 108,800</text>"), "{page}");
    let (calls, markers) = expected_chart();
    assert_eq!(markers, 1, "the workload summarizes once");
    assert_eq!(page.matches("<circle ").count(), markers);
    assert_eq!(line_points(&page), [calls, calls, calls]);
    assert!(page.contains("<title>turn 35, call 35: summarized "), "{page}");
    assert!(page.contains("<p class=\"muted\">first summarization: turn 35 · summarizations: 1 · offloads: 0</p>"), "{page}");
    // The same chart as `ctxc simulate` draws: one template.
    let workload = format!("{WORKLOAD_AGENT}/long-chat.toml");
    let simulated = html(&["simulate", WORKLOAD_AGENT, "--workload", &workload, "--format", "html"]);
    let chart = |page: &str| page[page.find("<svg viewBox=\"0 0 720").expect("chart")..].split_once("</svg>").expect("end").0.to_string();
    assert_eq!(chart(&page), chart(&simulated));
    assert!(!html(&["cost", "--format", "html", "examples/agents"]).contains("class=\"simulation\""), "no workload, no chart");
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
        "Token cost: concierge, sales-analyst",
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

    // The chart of a declared workload, as the browser parsed it: an SVG with the three lines of
    // the context (ctxc's count with and without the policy, the runtime's count), the window and
    // trigger lines, and a marker per event of the policy.
    let charted = dir.path().join("workload.html");
    std::fs::write(&charted, html(&["cost", "--format", "html", WORKLOAD_AGENT])).expect("write report");
    let net_log = dir.path().join("workload-net.json");
    let out = run_chromium(&chromium, &dir.path().join("p2"), &[&format!("--log-net-log={}", net_log.display()), "--dump-dom"], &charted);
    assert!(out.status.success(), "chromium failed: {}", String::from_utf8_lossy(&out.stderr));
    let dom = String::from_utf8_lossy(&out.stdout);
    let svg = &dom[dom.find("class=\"simulation\"").expect("the chart is in the DOM")..];
    let svg = svg.split_once("</svg>").expect("the chart's SVG is closed").0;
    let (calls, markers) = expected_chart();
    assert_eq!(line_points(svg), [calls, calls, calls], "{svg}");
    assert_eq!(svg.matches("<circle ").count(), markers, "{svg}");
    assert!(svg.contains("window 128,000") && svg.contains("trigger (runtime count) 108,800"), "{svg}");
    assert_eq!(console_messages(&out.stderr), Vec::<String>::new(), "no console message");
    assert_eq!(page_requests(&net_log), Vec::<String>::new(), "no request leaves the page");

    // The simulate page, under its policy: no console message. The instrument first: the same
    // page with another hash in its policy (the empty text's), whose style sheet the browser
    // refuses, saying so and naming the hash it computed: the one ctxc wrote.
    let workload = format!("{WORKLOAD_AGENT}/long-chat.toml");
    let simulated = html(&["simulate", WORKLOAD_AGENT, "--workload", &workload, "--format", "html"]);
    let hash = simulated.split_once("style-src 'sha256-").expect("a hash").1.split_once('\'').expect("quoted").0;
    let tampered = dir.path().join("tampered.html");
    std::fs::write(&tampered, simulated.replacen(hash, "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=", 1)).expect("write page");
    let out = run_chromium(&chromium, &dir.path().join("p3"), &["--dump-dom"], &tampered);
    assert!(out.status.success(), "chromium failed: {}", String::from_utf8_lossy(&out.stderr));
    let refused = console_messages(&out.stderr);
    assert!(
        refused.len() == 1
            && refused[0].contains("Applying inline style violates the following Content Security Policy directive")
            && refused[0].contains(&format!("a hash ('sha256-{hash}')")),
        "the console check sees a refused style sheet, and the browser's hash is ctxc's: {refused:?}"
    );
    let simulate_page = dir.path().join("simulate.html");
    std::fs::write(&simulate_page, &simulated).expect("write page");
    let net_log = dir.path().join("simulate-net.json");
    let out =
        run_chromium(&chromium, &dir.path().join("p4"), &[&format!("--log-net-log={}", net_log.display()), "--dump-dom"], &simulate_page);
    assert!(out.status.success(), "chromium failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("class=\"simulation\""), "the chart is in the DOM");
    assert_eq!(console_messages(&out.stderr), Vec::<String>::new(), "no console message (a CSP violation among them)");
    assert_eq!(page_requests(&net_log), Vec::<String>::new(), "no request leaves the page");

    // The host view's page, under the same policy.
    let hosts_page = dir.path().join("hosts.html");
    std::fs::write(&hosts_page, html(&["cost", "tests/fixtures/hostview/claude", "--format", "html"])).expect("write page");
    let net_log = dir.path().join("hosts-net.json");
    let out =
        run_chromium(&chromium, &dir.path().join("p5"), &[&format!("--log-net-log={}", net_log.display()), "--dump-dom"], &hosts_page);
    assert!(out.status.success(), "chromium failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("<h2>Claude Code "), "the host is in the DOM");
    assert_eq!(console_messages(&out.stderr), Vec::<String>::new(), "no console message (a CSP violation among them)");
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
