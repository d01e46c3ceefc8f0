//! `ctxc watch` on a scratch project: a real change to a file is reported (finding added, then
//! fixed, with token deltas per mode), `--exec` runs after each run without errors, and Ctrl-C
//! (SIGINT) stops it with exit 0.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// Generous: a debug build on a busy machine. Waiting longer fails loudly with what was printed.
const TIMEOUT: Duration = Duration::from_secs(60);

const MANIFEST: &str = r#"[agent]
name = "demo"
model = "gpt-4o"

[pipeline]
steps = [{ id = "core", kind = "module" }]

[modules]
core = { source = "core.md" }

[modes.agent]
[modes.plan]
"#;

/// Lines printed until one contains `wanted`; panics with them all after the timeout.
fn wait_for(lines: &Receiver<String>, seen: &mut Vec<String>, wanted: &str) {
    let start = Instant::now();
    while !seen.iter().any(|l| l.contains(wanted)) {
        let left = TIMEOUT.checked_sub(start.elapsed()).unwrap_or_default();
        match lines.recv_timeout(left) {
            Ok(line) => seen.push(line),
            Err(_) => panic!("no line with `{wanted}` within {TIMEOUT:?}; printed:\n{}", seen.join("\n")),
        }
    }
}

#[cfg(unix)]
#[test]
fn watch_reports_a_real_change_and_stops_on_ctrl_c() {
    let dir = common::project(&[("ctxc.toml", MANIFEST), ("core.md", "You are careful.\n")]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["watch", ".", "--poll", "50", "--exec", "echo exec-ran"])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ctxc watch starts");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let (send, lines) = std::sync::mpsc::channel();
    let send_err = send.clone();
    std::thread::spawn(move || stdout.lines().map_while(Result::ok).for_each(|l| drop(send.send(l))));
    std::thread::spawn(move || stderr.lines().map_while(Result::ok).for_each(|l| drop(send_err.send(format!("stderr: {l}")))));
    let mut seen = Vec::new();
    wait_for(&lines, &mut seen, "  tokens demo plan/default: ");
    assert!(seen.iter().any(|l| l == "ctxc watch: 0 errors, 0 warnings in `.`"), "{seen:?}");
    let agent_tokens = seen.iter().find(|l| l.starts_with("  tokens demo agent/default: ")).expect("tokens per mode").clone();
    // --exec after a clean run (its output comes through another pipe than `watching`).
    wait_for(&lines, &mut seen, "exec-ran");
    wait_for(&lines, &mut seen, "stderr: watching");

    std::fs::write(dir.path().join("core.md"), "You are careful. Use {tools_description} well.\n").expect("write");
    wait_for(&lines, &mut seen, "now: ");
    assert!(seen.iter().any(|l| l == "changed: core.md"), "{seen:?}");
    let added = seen.iter().find(|l| l.starts_with("  + TPL003 warning core.md:1:22 ")).unwrap_or_else(|| panic!("{seen:?}"));
    assert!(added.contains("{tools_description}"));
    let before: i64 = agent_tokens.rsplit(' ').next().expect("figure").replace(',', "").parse().expect("a number");
    let delta = seen.iter().find(|l| l.starts_with("  tokens demo agent/default: ") && l.contains(" → ")).expect("a token delta");
    assert!(delta.starts_with(&format!("  tokens demo agent/default: {before} → ")), "{delta}");
    assert!(seen.iter().any(|l| l.starts_with("  tokens demo plan/default: ") && l.contains(" → ")), "every mode: {seen:?}");

    seen.clear();
    std::fs::write(dir.path().join("core.md"), "You are careful.\n").expect("write");
    wait_for(&lines, &mut seen, "now: ");
    assert!(seen.iter().any(|l| l.starts_with("  - fixed: TPL003 warning core.md:1:22 ")), "{seen:?}");
    let back = format!("→ {before} (");
    assert!(seen.iter().any(|l| l.starts_with("  tokens demo agent/default: ") && l.contains(&back)), "back to {before}: {seen:?}");

    let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(killed.success());
    let status = common::exit_within(&mut child, TIMEOUT, "ctxc watch after SIGINT");
    assert_eq!(status.code(), Some(0), "a clean exit on Ctrl-C");
    wait_for(&lines, &mut seen, "stderr: ctxc watch: stopped");
}
