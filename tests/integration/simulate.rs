//! `ctxc simulate`: the library on the bundled examples with the sample workload, and the binary's
//! text, JSON and input errors. The runtimes themselves are compared in tests/runtimes/deepagents.rs,
//! tests/runtimes/agentscope_simulate.rs, zeph.rs and adk_simulate.rs.

use crate::common;

use std::path::Path;

use ctxc::conversation::{transcript, workload, Conversation};
use ctxc::session::Only;
use ctxc::simulate::{simulate, Budget, Event, Simulation, TruncatedSize};

fn sample() -> Conversation {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/workloads/long-chat.toml")).expect("sample");
    workload("long-chat.toml", &text).expect("the sample workload is valid")
}

fn run(agent: &str, overrides: Vec<String>, conversation: &Conversation) -> Simulation {
    let session = ctxc::Session::new(overrides);
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agents").join(agent).join("ctxc.toml");
    let runs = session.run(&manifest, Only::default()).expect("the example loads");
    let run = runs.runs.first().expect("a mode");
    simulate(&runs.loaded.agent, &run.rendered, &run.measured, session.counter(), conversation, &mut Budget::default())
        .expect("within the budget")
}

#[test]
fn deep_agents_offloads_the_large_result_and_summarizes_at_its_trigger_keeping_its_share() {
    let conversation = sample();
    let sim = run("deepagents", vec!["deepagents.version=0.7.32".into(), "agent.context_window=100000".into()], &conversation);
    assert_eq!(sim.policy.system, "deepagents 0.7.32");
    let offloads: Vec<(usize, &Event)> = sim
        .calls
        .iter()
        .flat_map(|c| c.events.iter().map(move |e| (c.turn, e)))
        .filter(|(_, e)| matches!(e, Event::ToolResultOffloaded { .. }))
        .collect();
    assert_eq!(offloads.len(), 1, "only turn 12's 120,000-character result is over 80,000");
    assert!(matches!(offloads[0], (12, Event::ToolResultOffloaded { chars: 120_000, .. })));
    // claude-sonnet-4-5 reserves 64,000 output tokens: 0.7 summarizes over its input budget,
    // int(0.95 × 100,000) − 64,000 = 31,000, long before the 85 % trigger.
    assert_eq!(sim.policy.trigger, Some(31_001));
    sim.summary.first_summarization_turn.expect("summarizes");
    let mut summarized_before = false;
    let trigger = sim.policy.trigger.expect("a trigger in tokens");
    for c in &sim.calls {
        let summarized = c.events.iter().any(|e| matches!(e, Event::Summarized { .. }));
        // The runtime summarizes exactly when its own count reaches the trigger (or budget).
        assert_eq!(summarized, c.runtime_count >= trigger, "call {}: {} against {trigger}", c.index, c.runtime_count);
        if summarized {
            assert_eq!(c.messages[0], "summary");
            assert!(c.runtime_sent < trigger, "what is sent after summarizing is under the trigger");
        }
        summarized_before |= summarized;
        assert_eq!(
            summarized_before,
            c.messages[0] == "summary",
            "call {}: the summary stays first from the first summarization on",
            c.index
        );
    }
    assert!(sim.summary.summarizations >= 3, "{:?}", sim.summary);
    assert_eq!(sim.summary.window_exceeded_turn, None);
    assert!(sim.summary.window_exceeded_without_policy_turn.is_some());
}

#[test]
fn zeus_keeps_thirty_messages_and_the_same_spec_gives_the_same_figures() {
    let conversation = sample();
    let sim = run("zeus", Vec::new(), &conversation);
    assert!(sim.calls.iter().all(|c| c.messages.len() <= 30), "history: the last 30 messages");
    assert!(sim.calls.iter().any(|c| c.events.iter().any(|e| matches!(e, Event::HistoryTrimmed { kept: 30, .. }))));
    assert_eq!(sim, run("zeus", Vec::new(), &conversation), "deterministic");
    // Without the history limit, the 85 % trigger keeps the last 5 messages.
    let sim = run("zeus", vec!["history.max_messages=100000".into(), "agent.context_window=40000".into()], &conversation);
    let summarized = sim.calls.iter().find(|c| c.events.iter().any(|e| matches!(e, Event::Summarized { .. }))).expect("summarizes");
    assert_eq!(summarized.messages.len(), 6, "the summary and the last 5 messages");
}

/// The AgentScope example with its documented workload: the 260,000-character table of turn 15
/// is truncated to the 50,000-token limit's share, the context is compressed at 80 % of
/// DashScopeChatModel's 131,072 (as AgentScope counts), and the hints come where the policy says.
#[test]
fn agentscope_truncates_the_large_result_compresses_at_its_trigger_and_hints() {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/workloads/agentscope-analyst.toml")).expect("sample");
    let conversation = workload("agentscope-analyst.toml", &text).expect("valid");
    for release in ["2.0.6", "2.0.11"] {
        let sim = run("agentscope", vec![format!("agentscope.version={release}")], &conversation);
        assert_eq!(sim.policy.system, format!("agentscope {release}"));
        assert_eq!((sim.policy.window, sim.policy.trigger), (131_072, Some(104_858)), "ceil(0.8 × 131,072)");
        let truncated: Vec<(usize, &Event)> = sim
            .calls
            .iter()
            .flat_map(|c| c.events.iter().map(move |e| (c.turn, e)))
            .filter(|(_, e)| matches!(e, Event::ToolResultTruncated { .. }))
            .collect();
        // 260,000 bytes are 65,000 tokens: int(50,000 / 65,000 × 260,000) characters kept, then the marker.
        assert!(
            matches!(
                truncated[..],
                [(15, Event::ToolResultTruncated { size: TruncatedSize::Chars { chars: 260_000, replacement_chars: 200_111 }, .. })]
            ),
            "{truncated:?}"
        );
        let compressed: Vec<&ctxc::simulate::Call> =
            sim.calls.iter().filter(|c| c.events.iter().any(|e| matches!(e, Event::Summarized { .. }))).collect();
        assert!(compressed.len() >= 3, "{:?}", sim.summary);
        for c in &compressed {
            assert!(
                c.runtime_count >= 104_858 && c.runtime_sent < c.runtime_count,
                "call {}: {} → {}",
                c.index,
                c.runtime_count,
                c.runtime_sent
            );
            assert_eq!(c.messages[0], "summary");
            assert_eq!(c.messages.last().map(String::as_str), Some("hint"), "the time again: the compression removed its hint");
        }
        let below: Vec<&ctxc::simulate::Call> = sim.calls.iter().filter(|c| c.runtime_count < 104_858).collect();
        assert!(below.iter().all(|c| !c.events.iter().any(|e| matches!(e, Event::Summarized { .. }))));
        // The count hint: only at a reply's first call, only over (0.8 − 0.2) × 131,072.
        for c in &sim.calls {
            let hinted = c
                .events
                .iter()
                .any(|e| matches!(e, Event::RuntimeStateInjected { fields, .. } if fields.iter().any(|f| f == "context-length")));
            assert!(!hinted || (c.step == 1 && c.runtime_sent > 78_643), "call {}", c.index);
        }
        assert_eq!(sim.summary.window_exceeded_turn, None);
        assert!(sim.summary.window_exceeded_without_policy_turn.is_some());
    }
}

#[test]
fn a_transcript_replays_one_call_per_assistant_message() {
    let text = r#"[{"role":"user","content":"find the report"},
        {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{\"q\":\"report\"}"}}]},
        {"role":"tool","tool_call_id":"c1","content":"found it"},
        {"role":"assistant","content":"here it is"},
        {"role":"user","content":"thanks"},{"role":"assistant","content":"you're welcome"}]"#;
    let conversation = transcript("t.json", text, 100).expect("valid");
    let sim = run("deepagents", Vec::new(), &conversation);
    let shape: Vec<(usize, usize, Vec<String>)> = sim.calls.iter().map(|c| (c.turn, c.step, c.messages.clone())).collect();
    assert_eq!(
        shape,
        vec![
            (1, 1, vec!["m0".to_string()]),
            (1, 2, vec!["m0".into(), "m1".into(), "c1".into()]),
            (2, 1, vec!["m0".into(), "m1".into(), "c1".into(), "m3".into(), "m4".into()]),
        ]
    );
    assert!(sim.calls.windows(2).all(|w| w[1].runtime_count > w[0].runtime_count));
}

#[test]
fn a_transcript_that_ends_without_an_answer_replays_the_call_it_waits_for() {
    // A lone long message, and a turn that ends with tool results: the runtime calls the model
    // with each, though the transcript does not hold its answer yet.
    let lone = format!(r#"[{{"role":"user","content":"{}"}}]"#, "word ".repeat(300_000));
    let sim = run("deepagents", Vec::new(), &transcript("t.json", &lone, 100).expect("valid"));
    assert_eq!(sim.calls.iter().map(|c| (c.turn, c.step, c.messages.clone())).collect::<Vec<_>>(), vec![(1, 1, vec!["m0".to_string()])]);
    assert!(sim.calls[0].tokens > 250_000 && sim.summary.window_exceeded_turn == Some(1), "{:?}", sim.summary);
    let pending = r#"[{"role":"user","content":"find it"},
        {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"search","arguments":"{}"}}]},
        {"role":"tool","tool_call_id":"c1","content":"found"}]"#;
    let sim = run("deepagents", Vec::new(), &transcript("t.json", pending, 100).expect("valid"));
    assert_eq!(sim.calls.last().map(|c| (c.step, c.messages.clone())), Some((2, vec!["m0".into(), "m1".into(), "c1".into()])));
}

#[test]
fn the_chart_draws_a_summarization_on_its_trigger_line_in_the_runtimes_count() {
    // Deep Agents compares characters / 3.3 with its trigger: drawn in ctxc's tokens, the bundled
    // example's summarizations sat at about half the trigger line.
    let html =
        common::ctxc(&["simulate", "examples/agents/deepagents", "--workload", "examples/workloads/long-chat.toml", "--format", "html"]);
    let page = String::from_utf8_lossy(&html.stdout);
    let attr = |tag: &str, name: &str| -> f64 {
        let from = tag.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
        tag[from..].split('"').next().and_then(|v| v.parse().ok()).expect("a number")
    };
    let trigger = page.split("<line ").find(|t| t.contains("#d68910")).map(|t| attr(t, "y1")).expect("a trigger line");
    let fired: Vec<f64> = page.split("<circle ").skip(1).filter(|t| t.contains(r#"r="5""#)).map(|t| attr(t, "cy")).collect();
    assert!(!fired.is_empty(), "the example summarizes");
    // SVG's y grows downwards: at or above the line, within a line's width.
    assert!(fired.iter().all(|&y| y <= trigger + 1.0), "trigger at y {trigger}, summarizations at {fired:?}");
    assert!(page.contains("orange: the runtime's count, which the trigger compares; blue: ctxc's count"));
}

#[test]
fn the_cli_prints_the_table_json_and_html_and_refuses_bad_input() {
    let ok = common::ctxc(&[
        "simulate",
        "examples/agents/deepagents",
        "--workload",
        "examples/workloads/long-chat.toml",
        "--set",
        "agent.context_window=60000",
    ]);
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    let text = String::from_utf8_lossy(&ok.stdout);
    assert!(text.contains("first summarization: turn "), "{text}");
    assert!(text.contains("offloaded call_12_1 (120,000 chars"), "{text}");
    let json = common::ctxc(&["simulate", "examples/agents/zeus", "--workload", "examples/workloads/long-chat.toml", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(value["simulations"][0]["summary"]["calls"], 157);
    assert!(value["simulations"][0]["calls"][0]["runtime_count"].is_u64());
    let html = common::ctxc(&["simulate", "examples/agents/zeus", "--workload", "examples/workloads/long-chat.toml", "--format", "html"]);
    let page = String::from_utf8_lossy(&html.stdout);
    assert!(page.contains("<svg") && page.contains("window 128,000"), "the chart with its window line");

    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("w.toml");
    std::fs::write(&bad, "turns = 3\nuser_chars = { min = 9, max = 1 }\nassistant_chars = 5\n").expect("write");
    let out = common::ctxc(&["simulate", "examples/agents/zeus", "--workload", bad.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("w.toml:2:14") || stderr.contains("`min` is above `max`"), "{stderr}");
    // A FIFO is refused, not waited on (nothing writes to it: a read would block forever).
    let fifo = dir.path().join("w.fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let out = common::ctxc(&["simulate", "examples/agents/zeus", "--workload", fifo.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Every bundled example replays its documented sample workload (docs/simulate.md: the
/// runtime's own for Deep Agents, AgentScope and Zeph, the generic long chat for the others)
/// through its runtime's policy, as a table and as a page with one chart per mode.
#[test]
fn every_bundled_example_simulates_its_documented_sample() {
    let samples = [
        ("adk", "long-chat.toml", "google-adk 2.13.0"),
        ("agentscope", "agentscope-analyst.toml", "agentscope 2.0"),
        ("deepagents", "long-chat.toml", "deepagents 0."),
        ("openhands-style", "long-chat.toml", ""),
        ("support-triage", "long-chat.toml", ""),
        ("zeph", "zeph-coding-session.toml", "zeph-context 0.22.4"),
        ("zeus", "long-chat.toml", ""),
    ];
    let bundled: Vec<String> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agents"))
        .expect("examples")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(bundled.len(), samples.len(), "a new example needs its sample here: {bundled:?}");
    for (agent, workload, policy) in samples {
        let path = format!("examples/agents/{agent}");
        let workload = format!("examples/workloads/{workload}");
        let text = common::ctxc(&["simulate", &path, "--workload", &workload]);
        assert!(text.status.success(), "{agent}: {}", String::from_utf8_lossy(&text.stderr));
        let table = String::from_utf8_lossy(&text.stdout);
        assert!(
            table.contains(policy) && table.contains("first summarization: ") && table.contains("largest request: "),
            "{agent}: {table}"
        );
        let html = common::ctxc(&["simulate", &path, "--workload", &workload, "--format", "html"]);
        assert!(html.status.success(), "{agent}: {}", String::from_utf8_lossy(&html.stderr));
        let page = String::from_utf8_lossy(&html.stdout);
        let json = common::ctxc(&["simulate", &path, "--workload", &workload, "--format", "json"]);
        let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
        let charts = value["simulations"].as_array().expect("simulations").len();
        assert_eq!(page.matches("<svg").count(), charts, "{agent}: one chart per agent and mode");
    }
}

/// Zeph 0.22.4 summarizes each tool call beyond the last six with its results (a model call), and
/// applies the waiting summaries by count or above the soft threshold: the pair stays in Zeph's
/// count and its list, hidden; the Claude provider leaves it out of the request, the OpenAI one
/// sends it with the summary. (tests/runtimes/zeph.rs compares this call by call with Zeph's code.)
#[test]
fn zeph_hides_summarized_tool_pairs_and_only_the_claude_provider_leaves_them_out() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/zeph/simulate/tool-summaries");
    let conversation = workload("workload.toml", &std::fs::read_to_string(dir.join("workload.toml")).expect("workload")).expect("valid");
    for model in ["claude-sonnet-4-5", "gpt-4o"] {
        let session = ctxc::Session::new(vec![format!("agent.model={model}")]);
        let runs = session.run(&dir.join("ctxc.toml"), Only::default()).expect("the agent loads");
        let run = runs.runs.first().expect("a mode");
        let sim = simulate(&runs.loaded.agent, &run.rendered, &run.measured, session.counter(), &conversation, &mut Budget::default())
            .expect("within the budget");
        let summarized: Vec<&String> = sim
            .calls
            .iter()
            .flat_map(|c| &c.events)
            .flat_map(|e| match e {
                Event::ToolPairsSummarized { messages } => messages.iter().collect(),
                _ => vec![],
            })
            .collect();
        // Two calls a turn, six left unsummarized, the rest summarized once each, until the count
        // reaches four fifths of the budget (turn 21): from there Zeph ends each turn before its
        // first call (below the hard threshold, nothing frees room).
        assert!(summarized.len() >= 30, "{model}: {summarized:?}");
        let applied: Vec<(usize, &Vec<String>)> = sim
            .calls
            .iter()
            .flat_map(|c| c.events.iter().map(move |e| (c.index, e)))
            .filter_map(|(i, e)| match e {
                Event::ToolSummariesApplied { messages, .. } => Some((i, messages)),
                _ => None,
            })
            .collect();
        // The first batch by count: six summaries waiting, far below the soft threshold.
        let (first, hidden) = applied.first().expect("summaries applied");
        assert_eq!(hidden.len(), 12, "{model}: six calls with their results");
        let call = &sim.calls[first - 1];
        assert!(call.runtime_count < 7_200, "{model}: below the soft threshold");
        let summaries = call.messages.iter().filter(|m| m.starts_with("tool-summary-")).count();
        assert_eq!(summaries, 6, "{model}: {:?}", call.messages);
        let sent_hidden = call.messages.iter().filter(|m| hidden.contains(m)).count();
        if model.starts_with("claude") {
            assert_eq!(sent_hidden, 0, "the Claude provider leaves hidden messages out");
            assert!(call.runtime_sent < call.runtime_count, "{} vs {}", call.runtime_sent, call.runtime_count);
        } else {
            assert_eq!(sent_hidden, 12, "the OpenAI provider sends them");
            // Zeph's count was just taken afresh over the list it sends whole.
            assert_eq!(call.runtime_sent, call.runtime_count);
        }
        assert!(applied.iter().any(|(i, _)| sim.calls[i - 1].events.iter().any(|e| matches!(e, Event::SoftCompaction { .. }))));
    }
}

/// `[adk.compaction]` (set here as one table: its two keys go together) gives ADK's policy: the sliding
/// window every 2 invocations overlapping 1 keeps both overlapping summaries in the request; the
/// token threshold keeps one rolling summary. Without it ADK (and ctxc) summarize nothing.
/// tests/runtimes/adk_simulate.rs compares the same policy with the real ADK.
#[test]
fn adk_compaction_replays_the_sliding_window_and_the_token_threshold() {
    let conversation = sample();
    let plain = run("adk", vec![], &conversation);
    assert!(plain.calls.iter().all(|c| c.events.is_empty()), "no compaction without [adk.compaction]");
    let sets = |pairs: &[&str]| pairs.iter().map(|p| p.to_string()).collect::<Vec<_>>();
    let sliding = run("adk", sets(&["adk.compaction={ compaction_interval = 2, overlap_size = 1 }"]), &conversation);
    assert_eq!(sliding.policy.system, "google-adk 2.13.0");
    let summaries = |c: &ctxc::simulate::Call| c.messages.iter().filter(|m| *m == "summary").count();
    let compacted: Vec<usize> = sliding.calls.iter().filter(|c| !c.events.is_empty()).map(|c| c.turn).collect();
    assert!(compacted.len() >= 2 && compacted[..2] == [3, 5], "after turns 2 and 4: {compacted:?}");
    // ADK compacts once the number of new invocations reaches the interval, and the text says so.
    let text = ctxc::report::simulate::text(&sliding, true);
    assert!(text.contains("(invocations: 2 ≥ 2)"), "{text}");
    assert_eq!(sliding.calls.iter().map(summaries).max(), Some(compacted.len()), "overlapping summaries all stay");
    let token = run("adk", sets(&["adk.compaction={ token_threshold = 3000, event_retention_size = 2 }"]), &conversation);
    assert!(token.summary.summarizations >= 2, "{:?}", token.summary);
    assert!(token.calls.iter().all(|c| summaries(c) <= 1), "one rolling summary");
}

/// Zeph 0.22.4 ends a turn's tool loop before a model call once its running count reaches four
/// fifths of its budget: no call is made at or above it, the turn's remaining steps never happen
/// (its answer is never sent), and the next call is the next turn's first, carrying the stop.
/// (tests/runtimes/zeph.rs compares this call by call with Zeph's code.)
#[test]
fn zeph_ends_the_tool_loop_at_four_fifths_of_its_budget() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/zeph/simulate/tool-heavy");
    let conversation = workload("workload.toml", &std::fs::read_to_string(dir.join("workload.toml")).expect("workload")).expect("valid");
    let session = ctxc::Session::new(vec![]);
    let runs = session.run(&dir.join("ctxc.toml"), Only::default()).expect("the agent loads");
    let run = runs.runs.first().expect("a mode");
    let sim = simulate(&runs.loaded.agent, &run.rendered, &run.measured, session.counter(), &conversation, &mut Budget::default())
        .expect("within the budget");
    // The manifest's budget is 10,000 tokens.
    let stops: Vec<(usize, u64, u64)> = sim
        .calls
        .iter()
        .flat_map(|c| c.events.iter().map(move |e| (c.index, e)))
        .filter_map(|(i, e)| match e {
            Event::ToolLoopStopped { count, threshold } => Some((i, *count, *threshold)),
            _ => None,
        })
        .collect();
    assert!(!stops.is_empty(), "the workload reaches four fifths of the budget");
    for (index, count, threshold) in &stops {
        assert_eq!(*threshold, 8_000);
        assert!(*count >= 8_000, "{count}");
        assert_eq!(sim.calls[index - 1].step, 1, "call {index}: the stop is reported with the next turn's first call");
    }
    assert!(sim.calls.iter().all(|c| c.runtime_count < 8_000), "no call at or above the stop");
    assert!(!sim.summary.stopped_turns.is_empty());
    for &t in &sim.summary.stopped_turns {
        let turn = &conversation.turns[t - 1];
        let answers = turn.steps.iter().filter(|m| m.role == ctxc::conversation::Role::Assistant).count();
        let made = sim.calls.iter().filter(|c| c.turn == t).count();
        assert!(made < answers, "turn {t}: {made} calls of {answers}");
        let answer = &turn.steps.last().expect("steps").id;
        assert!(sim.calls.iter().all(|c| !c.messages.contains(answer)), "turn {t}'s answer is never written");
    }
}
