//! `ctxc simulate` against the real AgentScope: each fixture under
//! tests/runtimes/agentscope/simulate/ has a workload; the runtime replays it with a scripted model
//! (tests/runtimes/agentscope/simulate.py) and `ctxc simulate --format json` simulates it on the
//! fixture's manifest, for each pinned release. Per model call, the count the compression decided
//! on, the count of the request sent, the history sent (message ids, `summary` first after a
//! compression, `hint` for each runtime-state hint) and the tool results sent truncated must be
//! the same; so must the turns where the context was compressed. A 1.x release (`ReActAgent`,
//! fixtures with `"line": "1"`) is replayed by simulate_react.py, with its `CompressionConfig` and
//! the real `OpenAITokenCounter`; the model answers each compression with ctxc's summary text.

use crate::agentscope::{compared_in, projects, RELEASES};
use crate::common::{self, json_of, strings};

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn fixtures() -> Vec<PathBuf> {
    common::fixture_dirs("tests/runtimes/agentscope/simulate", "workload.toml")
}

/// The turns of each event on both sides, for the figures printed.
#[derive(Default, PartialEq, Debug)]
struct Turns {
    compressed: Vec<u64>,
    truncated: Vec<u64>,
    hinted: Vec<u64>,
}

/// The summary texts ctxc's simulation makes for the workload in `dir` (`filler("summary N",
/// summary_chars)`), written for the 1.x harness to answer the compressions with.
fn summaries(dir: &Path) -> PathBuf {
    let workload = std::fs::read_to_string(dir.join("workload.toml")).expect("workload");
    let conversation = ctxc::conversation::workload("workload.toml", &workload).expect("a valid workload");
    let texts: Vec<String> = (1..=conversation.turns.len().max(1) * 4)
        .map(|n| ctxc::conversation::filler(&format!("summary {n}"), conversation.summary_chars))
        .collect();
    let file = dir.join("summaries.json");
    std::fs::write(&file, serde_json::to_string(&texts).expect("json")).expect("write");
    file
}

/// The runtime's replays of the conversation in each of `dirs` (from [`projects`], the
/// conversation written) under `release`,
/// all in one interpreter (importing AgentScope costs seconds of CPU): each one's record.
fn replays(release: &str, dirs: &[PathBuf]) -> Vec<Value> {
    let python = common::runtime_path(&format!("agentscope-{release}/bin/python"));
    let react = release.starts_with("1.");
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/agentscope").join(if react {
        "simulate_react.py"
    } else {
        "simulate.py"
    });
    let mut command = Command::new(python);
    command.arg(harness);
    for dir in dirs {
        command.arg(dir).arg(dir.join("conversation.json"));
        if react {
            // The model's summaries: the texts ctxc's simulation stands in for them.
            command.arg(summaries(dir));
        }
    }
    let ran = json_of(command.output().expect("run"), &format!("agentscope {release} replaying {dirs:?}"));
    let ran = ran.as_array().expect("one replay per fixture").clone();
    assert_eq!(ran.len(), dirs.len(), "agentscope {release}: one replay per fixture");
    ran
}

/// One fixture (copied to `dir`) under one release, against the runtime's replay `ran`: the
/// mismatches found, and the figures.
fn compare(fixture: &Path, dir: &Path, release: &str, ran: &Value) -> (Vec<String>, String) {
    let name = fixture.file_name().and_then(|n| n.to_str()).unwrap_or("?");
    let label = format!("{name} @ agentscope {release}");
    assert_eq!(ran["release"], release, "{label}: the environment holds another release");
    let simulated = common::simulate_json(dir, &[("CTXC_AGENTSCOPE__VERSION", release)], &label);
    let simulation = &simulated["simulations"][0];
    let mut problems = Vec::new();
    if simulation["policy"]["system"] != format!("agentscope {release}") {
        problems.push(format!("{label}: ctxc simulated {}", simulation["policy"]["system"]));
    }
    let runtime_calls = ran["calls"].as_array().expect("calls");
    let ctxc_calls = simulation["calls"].as_array().expect("calls");
    if runtime_calls.len() != ctxc_calls.len() {
        problems.push(format!("{label}: {} model calls in AgentScope, {} in ctxc", runtime_calls.len(), ctxc_calls.len()));
        return (problems, String::new());
    }
    let (mut runtime, mut ours) = (Turns::default(), Turns::default());
    let mut compressions = 0;
    let mut truncated_seen: Vec<String> = Vec::new();
    let mut truncated_by_ctxc: Vec<String> = Vec::new();
    for (r, c) in runtime_calls.iter().zip(ctxc_calls) {
        let at = format!("{label}: call {} (turn {})", c["index"], c["turn"]);
        let turn = c["turn"].as_u64().unwrap_or(0);
        for (what, theirs, mine) in [("counted", &r["count"], &c["runtime_count"]), ("sent", &r["sent"], &c["runtime_sent"])] {
            if theirs != mine {
                problems.push(format!("{at}: AgentScope {what} {theirs} tokens, ctxc {mine}"));
            }
        }
        let (sent, ctxc_sent) = (strings(&r["messages"]), strings(&c["messages"]));
        if sent != ctxc_sent {
            problems.push(format!("{at}: AgentScope sent {sent:?}\n  ctxc sent {ctxc_sent:?}"));
        }
        let events = c["events"].as_array().expect("events");
        for e in events {
            match e["kind"].as_str() {
                Some("summarized") => ours.compressed.push(turn),
                Some("tool_result_truncated" | "tool_result_offloaded") => {
                    ours.truncated.push(turn);
                    truncated_by_ctxc.extend(e["message"].as_str().map(String::from));
                }
                Some("runtime_state_injected") => ours.hinted.push(turn),
                _ => {}
            }
        }
        let runtime_compressions = r["compressions"].as_u64().unwrap_or(0);
        if runtime_compressions > compressions {
            runtime.compressed.push(turn);
        }
        compressions = runtime_compressions;
        let truncated = strings(&r["truncated"]);
        for id in &truncated {
            if !truncated_seen.contains(id) {
                runtime.truncated.push(turn);
                truncated_seen.push(id.clone());
            }
        }
        let ctxc_truncated: Vec<String> = ctxc_sent.iter().filter(|id| truncated_by_ctxc.contains(id)).cloned().collect();
        if truncated != ctxc_truncated {
            problems.push(format!("{at}: truncated results sent: AgentScope {truncated:?}, ctxc {ctxc_truncated:?}"));
        }
        // Each hint stands in the history until compressed: count the new ones.
        let hints = |ids: &[String]| ids.iter().filter(|id| *id == "hint").count();
        if hints(&sent) > 0 && r["messages"].as_array().and_then(|m| m.last()).and_then(Value::as_str) == Some("hint") {
            runtime.hinted.push(turn);
        }
    }
    for (what, theirs, mine) in
        [("compressed", &runtime.compressed, &ours.compressed), ("truncated a tool result", &runtime.truncated, &ours.truncated)]
    {
        if theirs != mine {
            problems.push(format!("{label}: {what} at turns {theirs:?} in AgentScope, {mine:?} in ctxc"));
        }
    }
    let figures = format!(
        "{label}: {} calls; compressed at turns {:?} (ctxc {:?}); tool results truncated at turns {:?} (ctxc {:?}); hints at turns {:?} (ctxc {:?})",
        runtime_calls.len(),
        runtime.compressed,
        ours.compressed,
        runtime.truncated,
        ours.truncated,
        runtime.hinted,
        ours.hinted
    );
    (problems, figures)
}

#[test]
#[ignore = "needs the AgentScope runtimes (scripts/runtimes)"]
fn simulate_matches_agentscope_call_by_call() {
    let fixtures = fixtures();
    assert!(fixtures.len() >= 3, "three workloads at least, found {fixtures:?}");
    for release in RELEASES {
        assert!(fixtures.iter().any(|f| compared_in(f, release)), "no workload for agentscope {release}");
    }
    let mut runs = Vec::new();
    for release in RELEASES {
        let compared: Vec<PathBuf> = fixtures.iter().filter(|f| compared_in(f, release)).cloned().collect();
        let (_temp, dirs) = projects(&compared, release);
        for dir in &dirs {
            common::write_conversation(dir);
        }
        for ((fixture, dir), ran) in compared.iter().zip(&dirs).zip(replays(release, &dirs)) {
            runs.push(compare(fixture, dir, release, &ran));
        }
    }
    common::no_problems(runs);
}
