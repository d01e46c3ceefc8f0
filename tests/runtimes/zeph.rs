//! Differential tests against Zeph itself: for each fixture under tests/runtimes/zeph/fixtures/,
//! ctxc's Zeph window (`ctxc cost --format json`) is compared, number by number, with what Zeph's
//! own code computes (the test-only crate tests/runtimes/zeph, which links zeph-context and
//! zeph-config 0.22.4 from the crates registry) for the same system prompt and skills prompt.
//! A fixture may hold `zeph.toml` (a Zeph config file the runtime loads) and `env` (KEY=VALUE
//! lines set for both programs). The system prompt itself is not compared byte for byte: it is
//! assembled by zeph-core, which the crate cannot link (see docs/runtimes/zeph.md).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{json, Value};

/// (fixture, the agent's directory inside it).
const FIXTURES: [(&str, &str); 7] =
    [("walkup", "app"), ("skills", "."), ("layouts", "."), ("budget", "."), ("env", "."), ("unusual", "."), ("memory_first", ".")];

fn fixture(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/zeph/fixtures").join(case)
}

/// The fixture's `env` file as variables.
fn env_of(case: &str) -> Vec<(String, String)> {
    std::fs::read_to_string(fixture(case).join("env"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn ctxc_json(args: &[&str], env: &[(String, String)]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_ctxc")).args(args).envs(env.iter().cloned()).output().expect("run ctxc");
    assert!(out.status.code().is_some_and(|c| c < 2), "ctxc {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("ctxc {args:?}: {e}"))
}

/// What Zeph computes for this input, from the runtime crate's binary.
pub fn zeph(input: &Value, env: &[(String, String)]) -> Value {
    let binary = common::runtime_path("zeph/debug/zeph-runtime");
    let mut child =
        Command::new(binary).envs(env.iter().cloned()).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("run zeph-runtime");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), input.to_string().as_bytes()).expect("write stdin");
    let out = child.wait_with_output().expect("zeph-runtime");
    let value: Value = serde_json::from_slice(&out.stdout).expect("zeph-runtime prints JSON");
    assert!(out.status.success(), "zeph-runtime failed: {value}");
    value
}

/// Every window number ctxc reports for Zeph next to Zeph's, as `name: ctxc vs zeph` lines for
/// those that differ.
fn differences(ctxc: &Value, zeph: &Value) -> Vec<String> {
    let variant = match (ctxc["memory_first"].as_bool(), ctxc["graph"].as_bool()) {
        (Some(false), Some(false)) => "full_history",
        (Some(false), Some(true)) => "full_history_graph",
        (Some(true), Some(false)) => "memory_first",
        _ => "memory_first_graph",
    };
    let allocation = &zeph["allocations"][variant];
    let share =
        |name: &str| ctxc["shares"].as_array().and_then(|s| s.iter().find(|s| s["name"] == name)).map_or(json!(0), |s| s["tokens"].clone());
    let pairs = [
        ("budget", ctxc["budget"].clone(), zeph["budget"].clone()),
        ("budget_source", ctxc["budget_source"].clone(), zeph["budget_source"].clone()),
        ("response_reserve", ctxc["response_reserve"].clone(), allocation["response_reserve"].clone()),
        ("system_prompt", ctxc["system_prompt_tokens"].clone(), allocation["system_prompt"].clone()),
        ("skills", ctxc["skills_tokens"].clone(), allocation["skills"].clone()),
        ("summaries", share("summaries"), allocation["summaries"].clone()),
        ("semantic_recall", share("semantic_recall"), allocation["semantic_recall"].clone()),
        ("cross_session", share("cross_session"), allocation["cross_session"].clone()),
        ("code_context", share("code_context"), allocation["code_context"].clone()),
        ("graph_facts", share("graph_facts"), allocation["graph_facts"].clone()),
        ("recent_history", share("recent_history"), allocation["recent_history"].clone()),
        ("soft_compaction_at", ctxc["soft_compaction_at"].clone(), zeph["soft_compaction_at"].clone()),
        ("hard_compaction_at", ctxc["compaction_at"].clone(), zeph["hard_compaction_at"].clone()),
        ("compaction_preserve_tail", ctxc["compaction_preserve_tail"]["value"].clone(), zeph["compaction_preserve_tail"].clone()),
        ("prune_protect_tokens", ctxc["prune_protect_tokens"]["value"].clone(), zeph["prune_protect_tokens"].clone()),
    ];
    pairs.into_iter().filter(|(_, a, b)| a != b).map(|(name, a, b)| format!("  {name}: ctxc {a} vs zeph {b} ({variant})")).collect()
}

/// The `<budget>` block zeph-core 0.22.4 appends at a turn's first call, from the config values
/// Zeph loaded. zeph-core and zeph-agent-context (which writes the block, `BudgetHint::format_xml`)
/// pull sqlx and qdrant-client and are not linked: the values are Zeph's, the layout is read from
/// their source (cited in src/runtimes/zeph/steps.rs) and written here independently of ctxc's code.
fn budget_hint(zeph: &Value) -> String {
    let tools = zeph["max_tool_iterations"].as_u64().expect("max_tool_iterations");
    let cents = zeph["max_daily_cents"].as_u64().expect("max_daily_cents");
    let cost = zeph["cost_enabled"] == true && cents > 0;
    if zeph["budget_hint_enabled"] != true || (!cost && tools == 0) {
        return String::new();
    }
    let mut lines = vec!["<budget>".to_string()];
    if cost {
        lines.push(format!("<remaining_cost_cents>{cents}.00</remaining_cost_cents>"));
        lines.push(format!("<total_budget_cents>{cents}.00</total_budget_cents>"));
    }
    if tools > 0 {
        lines.push(format!("<remaining_tool_calls>{tools}</remaining_tool_calls>"));
        lines.push(format!("<max_tool_calls>{tools}</max_tool_calls>"));
    }
    lines.push("</budget>".to_string());
    lines.join("\n")
}

/// Compares every mode and scenario of the agent at `dir` with Zeph, `config` being the Zeph
/// config file the runtime loads (None: Zeph's defaults). Returns how many were compared.
pub fn compare(dir: &Path, config: Option<&Path>, env: &[(String, String)]) -> usize {
    let dir_arg = dir.to_str().expect("utf-8 path");
    let cost = ctxc_json(&["cost", dir_arg, "--format", "json"], env);
    let reports = cost["reports"].as_array().expect("reports");
    assert!(!reports.is_empty(), "no reports for {dir_arg}");
    let mut failures = Vec::new();
    for report in reports {
        let (mode, scenario) = (report["mode"].as_str().expect("mode"), report["scenario"].as_str().expect("scenario"));
        let rendered = ctxc_json(&["render", dir_arg, "--mode", mode, "--scenario", scenario, "--format", "json"], env);
        let sections = rendered["sections"].as_array().expect("sections");
        let skills: Vec<&str> =
            sections.iter().filter(|s| s["kind"] == "active_skills").map(|s| s["text"].as_str().expect("text")).collect();
        let input = json!({
            "config": config.map(|c| c.to_str().expect("utf-8 path")),
            "model_window": report["window"]["max_input_tokens"],
            "system_prompt": rendered["prompt"],
            "skills_prompt": skills.join("\n\n"),
        });
        let zeph = zeph(&input, env);
        let ours = &report["window"]["zeph"];
        assert!(ours.is_object(), "no zeph window in ctxc's report for {dir_arg}");
        if config.is_some() {
            // The config's graph / strategy settings are the scenario flags ctxc's manifest sets.
            assert_eq!((&ours["graph"], &ours["memory_first"]), (&zeph["graph_enabled"], &zeph["memory_first"]), "{dir_arg}");
        }
        let mut diff = differences(ours, &zeph);
        let hint = sections.iter().find(|s| s["kind"] == "budget_hint").map_or("", |s| s["text"].as_str().expect("text"));
        if hint != budget_hint(&zeph) {
            diff.push(format!("  budget hint: ctxc {hint:?} vs zeph {:?}", budget_hint(&zeph)));
        }
        if !diff.is_empty() {
            failures.push(format!("{dir_arg} · mode {mode} · scenario {scenario}:\n{}", diff.join("\n")));
        }
    }
    assert!(failures.is_empty(), "ctxc's Zeph window differs from zeph-context 0.22.4:\n{}", failures.join("\n"));
    reports.len()
}

#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn window_numbers_equal_zeph_context_0_22_4() {
    let mut compared = 0;
    for (case, agent) in FIXTURES {
        let config = fixture(case).join("zeph.toml");
        let config = config.is_file().then_some(config);
        compared += compare(&fixture(case).join(agent), config.as_deref(), &env_of(case));
    }
    eprintln!("window_numbers_equal_zeph_context_0_22_4: {compared} renders of {} fixtures equal Zeph's numbers", FIXTURES.len());
    assert!(compared >= FIXTURES.len());
}

#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn imported_zeph_configs_equal_zeph_context_0_22_4() {
    for case in FIXTURES.map(|(case, _)| case).into_iter().filter(|case| fixture(case).join("zeph.toml").is_file()) {
        let dir = tempfile::tempdir().expect("tempdir");
        common::copy_tree(&fixture(case), dir.path());
        std::fs::remove_file(dir.path().join("ctxc.toml")).expect("the fixture's manifest is the import's output");
        let config = dir.path().join("zeph.toml");
        let out = Command::new(env!("CARGO_BIN_EXE_ctxc"))
            .args(["import", "zeph", config.to_str().expect("utf-8 path")])
            .output()
            .expect("run ctxc import");
        assert!(out.status.success(), "import {case}: {}", String::from_utf8_lossy(&out.stderr));
        let written = std::fs::read_to_string(dir.path().join("ctxc.toml")).expect("ctxc.toml written");
        let committed = std::fs::read_to_string(fixture(case).join("ctxc.toml")).expect("fixture manifest");
        assert_eq!(written, committed, "{case}: `ctxc import zeph` no longer writes the committed fixture manifest");
        compare(dir.path(), Some(&config), &env_of(case));
    }
}

/// The README's per-release table names the release compared here and its fixture count.
#[test]
fn readme_names_the_zeph_release_compared() {
    common::assert_readme_release_row("zeph-context 0.22.4", FIXTURES.len());
}

/// The workloads of `simulate_matches_zeph_call_by_call`, each a folder under
/// tests/runtimes/zeph/simulate/ with a manifest, a workload and (optionally) the same settings
/// as a Zeph config file.
const SIMULATIONS: [&str; 5] = ["long-chat", "tool-heavy", "defaults", "cooldown", "tool-summaries"];

/// One model call as a line: the running count Zeph decides with, the request recounted, the
/// history sent by message id, and what the policy did before the call (each event's kind and
/// figures; `runtime` and `ctxc` calls are written the same way, so they compare as text).
fn call_line(index: usize, turn: &Value, step: &Value, count: &Value, sent: &Value, messages: &Value, events: &Value) -> String {
    let ids: Vec<&str> = messages.as_array().expect("messages").iter().filter_map(Value::as_str).collect();
    let events: Vec<String> = events.as_array().expect("events").iter().map(event_text).collect();
    format!("call {index} (turn {turn}.{step}): count {count}, sent {sent}; [{}]; {}\n", ids.join(" "), events.join("; "))
}

/// An event's kind and the figures both sides give (not ctxc's prose: reasons, tool names).
fn event_text(e: &Value) -> String {
    let keys = ["message", "bytes", "messages", "count", "threshold", "freed", "summarized", "kept_from", "kept"];
    let figures: Vec<String> = keys.iter().filter(|k| !e[**k].is_null()).map(|k| format!("{k}={}", e[*k])).collect();
    format!("{} {}", e["kind"].as_str().expect("kind"), figures.join(" "))
}

/// The calls at which each kind of event happens, as `kind: [calls]` lines.
fn event_calls(lines: &[(usize, Vec<String>)]) -> String {
    let mut kinds: std::collections::BTreeMap<&str, Vec<usize>> = std::collections::BTreeMap::new();
    for (call, events) in lines {
        for e in events {
            kinds.entry(e.as_str()).or_default().push(*call);
        }
    }
    kinds.iter().map(|(k, calls)| format!("{k} {calls:?}")).collect::<Vec<_>>().join(", ")
}

/// `ctxc simulate` against Zeph's own context policy: each workload is replayed by the runtime
/// crate (its `simulate.rs`: Zeph's config loader, `ContextManager` tiers and compaction states
/// and message types linked, the steps of zeph-core and zeph-agent-context that cannot be linked
/// transcribed from their 0.22.4 source) and by ctxc, and every model call must read the same.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn simulate_matches_zeph_call_by_call() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/zeph/simulate");
    let mut failures = Vec::new();
    for case in SIMULATIONS {
        let dir = root.join(case);
        let (dir_arg, workload) = (dir.to_str().expect("utf-8 path"), dir.join("workload.toml"));
        let out = ctxc_json(&["simulate", dir_arg, "--workload", workload.to_str().expect("utf-8 path"), "--format", "json"], &[]);
        let simulation = &out["simulations"][0];
        assert_eq!(simulation["policy"]["system"], "zeph-context 0.22.4", "{case}: ctxc simulates another policy");
        let conversation = ctxc::conversation::workload("workload.toml", &std::fs::read_to_string(&workload).expect("workload"))
            .expect("a valid workload");
        // What the model writes when Zeph compacts: the same texts ctxc's simulation assumes.
        let summaries: Vec<String> =
            (1..=100).map(|n| ctxc::conversation::filler(&format!("summary {n}"), conversation.summary_chars)).collect();
        // What it writes when Zeph summarizes one tool call with its results (the length ctxc
        // assumes for Zeph's "2-4 sentences").
        let pair_summaries: Vec<String> = (1..=1000)
            .map(|n| ctxc::conversation::filler(&format!("tool summary {n}"), ctxc::runtimes::zeph::policy::TOOL_PAIR_SUMMARY_CHARS))
            .collect();
        let rendered = ctxc_json(&["render", dir_arg, "--format", "json"], &[]);
        let config = dir.join("zeph.toml");
        let input = json!({
            "config": config.is_file().then(|| config.to_str().expect("utf-8 path").to_string()),
            "model_window": simulation["policy"]["window"],
            "system_prompt": rendered["prompt"],
            "conversation": conversation,
            "summaries": summaries,
            "pair_summaries": pair_summaries,
        });
        let ran = zeph(&input, &[]);
        let runtime_calls = ran["calls"].as_array().expect("calls");
        let ctxc_calls = simulation["calls"].as_array().expect("calls");
        let (mut expected, mut actual) = (String::new(), String::new());
        let (mut runtime_events, mut ctxc_events) = (Vec::new(), Vec::new());
        for (i, r) in runtime_calls.iter().enumerate() {
            expected.push_str(&call_line(i + 1, &r["turn"], &r["step"], &r["count"], &r["sent"], &r["messages"], &r["events"]));
            let kinds = r["events"].as_array().expect("events").iter().map(|e| e["kind"].as_str().expect("kind").to_string());
            runtime_events.push((i + 1, kinds.collect()));
        }
        for c in ctxc_calls {
            let index = c["index"].as_u64().expect("index") as usize;
            actual.push_str(&call_line(
                index,
                &c["turn"],
                &c["step"],
                &c["runtime_count"],
                &c["runtime_sent"],
                &c["messages"],
                &c["events"],
            ));
            let kinds = c["events"].as_array().expect("events").iter().map(|e| e["kind"].as_str().expect("kind").to_string());
            ctxc_events.push((index, kinds.collect()));
        }
        eprintln!(
            "{case}: {} calls; Zeph's code: {}\n{case}: ctxc: {}",
            runtime_calls.len(),
            event_calls(&runtime_events),
            event_calls(&ctxc_events)
        );
        if expected != actual {
            // The first calls that differ, each as Zeph's line then ctxc's (the whole diff when
            // the number of calls differs).
            let pairs: Vec<String> = expected
                .lines()
                .zip(actual.lines())
                .filter(|(r, c)| r != c)
                .take(5)
                .map(|(r, c)| format!("  zeph: {r}\n  ctxc: {c}"))
                .collect();
            let shown = if runtime_calls.len() == ctxc_calls.len() { pairs.join("\n") } else { common::runtime_diff(&expected, &actual) };
            failures.push(format!("{case}:\n{shown}"));
        }
    }
    assert!(failures.is_empty(), "ctxc's simulation differs from Zeph's policy:\n{}", failures.join("\n"));
}
