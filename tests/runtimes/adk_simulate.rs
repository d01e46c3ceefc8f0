//! `ctxc simulate` against the real google-adk 2.13.0 events compaction: each fixture under
//! tests/runtimes/adk/simulate/ has a workload and `[adk.compaction]`; `ctxc simulate --format
//! json` simulates it, then a real `Runner` replays it with a scripted model
//! (tests/runtimes/adk/simulate.py, no network) that reports, as each call's prompt token count,
//! ctxc's count of that call's request (the figure ctxc takes the provider to report). Per model
//! call of the agent, the contents sent (message ids, `summary` for each summary) must be the
//! same, and so must the calls before which a compaction had happened and the number of
//! summarizer calls.

use crate::common::{self, json_of, strings};

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn fixtures() -> Vec<PathBuf> {
    common::fixture_dirs("tests/runtimes/adk/simulate", "workload.toml")
}

/// One fixture: the mismatches found, and the figures.
fn compare(fixture: &Path) -> (Vec<String>, String) {
    let label = fixture.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
    let temp = tempfile::tempdir().expect("tempdir");
    let dir = temp.path().canonicalize().expect("canonical");
    common::copy_tree(fixture, &dir);
    let simulated = common::simulate_json(&dir, &[], &label);
    let simulation = &simulated["simulations"][0];
    let ctxc_calls = simulation["calls"].as_array().expect("calls");
    let counts: Vec<Value> = ctxc_calls.iter().map(|c| c["runtime_sent"].clone()).collect();
    std::fs::write(dir.join("counts.json"), serde_json::to_string(&counts).expect("json")).expect("write");
    let conversation = common::write_conversation(&dir);

    let python = common::runtime_path("google-adk-2.13.0/bin/python");
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/adk/simulate.py");
    let ran = json_of(
        Command::new(python).arg(harness).arg(&dir).arg(conversation).arg(dir.join("counts.json")).output().expect("run"),
        &format!("google-adk {label}"),
    );
    let mut problems = Vec::new();
    if simulation["policy"]["system"] != "google-adk 2.13.0" {
        problems.push(format!("{label}: ctxc simulated {}", simulation["policy"]["system"]));
    }
    let runtime_calls = ran["calls"].as_array().expect("calls");
    if runtime_calls.len() != ctxc_calls.len() {
        problems.push(format!("{label}: {} model calls in ADK, {} in ctxc", runtime_calls.len(), ctxc_calls.len()));
        return (problems, String::new());
    }
    // The calls before which a new compaction happened, on each side.
    let (mut theirs, mut ours) = (Vec::new(), Vec::new());
    let mut compactions = 0;
    let mut summaries = 0u64;
    for (r, c) in runtime_calls.iter().zip(ctxc_calls) {
        let at = format!("{label}: call {} (turn {})", c["index"], c["turn"]);
        let (sent, ctxc_sent) = (strings(&r["messages"]), strings(&c["messages"]));
        if sent != ctxc_sent {
            problems.push(format!("{at}: ADK sent {sent:?}\n  ctxc sent {ctxc_sent:?}"));
        }
        let index = c["index"].as_u64().unwrap_or(0);
        let n = r["compactions"].as_u64().unwrap_or(0);
        if n > compactions {
            theirs.push(index);
        }
        compactions = n;
        let summarized = c["events"].as_array().expect("events").iter().filter(|e| e["kind"] == "summarized").count() as u64;
        if summarized > 0 {
            ours.push(index);
        }
        summaries += summarized;
    }
    if theirs != ours {
        problems.push(format!("{label}: compacted before calls {theirs:?} in ADK, {ours:?} in ctxc"));
    }
    // ADK may summarize once more after the last invocation, which no call of ctxc's shows.
    let ran_summaries = ran["summaries"].as_u64().unwrap_or(0);
    if ran_summaries != summaries && ran_summaries != summaries + 1 {
        problems.push(format!("{label}: {ran_summaries} summarizer calls in ADK, {summaries} summaries in ctxc"));
    }
    let figures =
        format!("{label}: {} calls, compacted before calls {theirs:?} (ctxc {ours:?}), {ran_summaries} summarizer calls", ctxc_calls.len());
    (problems, figures)
}

#[test]
#[ignore = "needs google-adk 2.13.0 (scripts/runtimes)"]
fn simulate_matches_adk_compaction_call_by_call() {
    let fixtures = fixtures();
    assert!(fixtures.len() >= 3, "three workloads at least, found {fixtures:?}");
    let figures = common::no_problems(fixtures.iter().map(|f| compare(f)));
    assert!(figures.iter().all(|f| !f.contains("before calls []")), "each workload compacts at least once:\n{}", figures.join("\n"));
}
