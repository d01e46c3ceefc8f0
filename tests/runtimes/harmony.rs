//! Differential test against the real `openai-harmony` 0.0.8 (tests/runtimes/harmony/harness.py,
//! installed by scripts/runtimes from tests/runtimes/python/openai-harmony-0.0.8.txt): for tool
//! files written to cover harmony's schema rendering, three example agents (every mode and
//! scenario, with the model set to gpt-oss) and the GitHub MCP server's tool set, the fixed part
//! of a gpt-oss request rendered by harmony must equal ctxc's byte for byte, and its token counts
//! (system prompt, tools, framing, total) must equal ctxc's exactly.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use ctxc::measure::callable_tools;
use ctxc::models::profile;
use ctxc::providers::{count_request, harmony};
use ctxc::session::Only;
use ctxc::tokens::TokenCounter;
use ctxc::tools::Tool;
use serde_json::{json, Value};

const MODEL: &str = "openai/gpt-oss-20b";

/// One request to compare; `measured` holds what `ctxc cost` reported for it, when it came
/// from an agent: (system prompt, framing + joins, tool schemas, request total).
struct Case {
    label: String,
    instructions: Option<String>,
    tools: Vec<Tool>,
    measured: Option<[i64; 4]>,
}

/// The folder holding the `o200k_base.tiktoken` the tiktoken-rs crate ships, found through
/// `cargo metadata` (the copy this build uses).
fn encodings_dir() -> PathBuf {
    let out = common::cargo_offline_for_host(&["metadata", "--format-version", "1"], "--filter-platform");
    let metadata: Value = serde_json::from_slice(&out).expect("cargo metadata JSON");
    let manifest = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .find(|p| p["name"] == "tiktoken-rs")
        .and_then(|p| p["manifest_path"].as_str())
        .expect("cargo metadata lists no tiktoken-rs package");
    let assets = Path::new(manifest).parent().expect("crate folder").join("assets");
    assert!(
        assets.join("o200k_base.tiktoken").is_file(),
        "{} is missing: openai-harmony needs it to render offline (the tiktoken-rs crate ships it; run `cargo fetch`)",
        assets.join("o200k_base.tiktoken").display()
    );
    assets
}

/// openai-harmony's `ToolDescription` requires a description: a tool without one gets an empty
/// one, which harmony renders as nothing (as ctxc does).
fn tool_json(tool: &Tool) -> Value {
    json!({ "name": tool.name, "description": tool.description_text(), "parameters": tool.parameters })
}

/// Harmony's rendering of every case, in order.
fn harmony_results(cases: &[Case]) -> Vec<Value> {
    let python = common::runtime_path("openai-harmony-0.0.8/bin/python");
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/harmony/harness.py");
    let cache = tempfile::tempdir().expect("tempdir");
    let input = json!({ "cases": cases.iter().map(|c| json!({ "instructions": c.instructions, "tools": c.tools.iter().map(tool_json).collect::<Vec<_>>() })).collect::<Vec<_>>() });
    let mut child = Command::new(python)
        .arg(harness)
        .env("TIKTOKEN_ENCODINGS_BASE", encodings_dir())
        .env("TIKTOKEN_RS_CACHE_DIR", cache.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the harness");
    child.stdin.take().expect("stdin").write_all(input.to_string().as_bytes()).expect("write the cases");
    let out = child.wait_with_output().expect("harness output");
    assert!(out.status.success(), "openai-harmony failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let results: Value = serde_json::from_slice(&out.stdout).expect("harness JSON");
    results["results"].as_array().expect("results").clone()
}

fn fixture_cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/harmony/tools");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).expect("fixtures").flatten().map(|e| e.path()).collect();
    files.sort();
    assert!(files.len() >= 4, "the schema fixtures are missing from {}", dir.display());
    let mut cases = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read fixture");
        let tools = ctxc::tools::parse_tool_file(&text).expect("a tool file").tools;
        let label = file.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
        cases.push(Case {
            label: format!("{label} with instructions"),
            instructions: Some("You are a careful agent.\n".into()),
            tools: tools.clone(),
            measured: None,
        });
        cases.push(Case { label: format!("{label} alone"), instructions: None, tools, measured: None });
    }
    cases
}

/// The GitHub MCP server's tools (one `.snap` file per tool), in file name order.
fn github_case() -> Case {
    let dir = common::corpus().join("tools/github-mcp-server/pkg/github/__toolsnaps__");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).expect("GitHub MCP tools").flatten().map(|e| e.path()).collect();
    files.sort();
    let tools: Vec<Tool> = files
        .iter()
        .flat_map(|f| ctxc::tools::parse_tool_file(&std::fs::read_to_string(f).expect("read")).expect("a tool file").tools)
        .collect();
    assert!(tools.len() > 20, "{} GitHub tools", tools.len());
    Case { label: format!("GitHub MCP server ({} tools)", tools.len()), instructions: None, tools, measured: None }
}

/// Every mode and scenario of an example agent, its model set to gpt-oss.
fn agent_cases(name: &str) -> Vec<Case> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agents").join(name).join("ctxc.toml");
    let session = ctxc::Session::new(vec![format!("agent.model={MODEL}")]);
    let runs = session.run(&manifest, Only::default()).unwrap_or_else(|f| panic!("{name}: {:?}", f.diagnostics));
    let agent = &runs.loaded.agent;
    assert_eq!(agent.profile.model, MODEL, "{name}: the model override is not applied");
    runs.runs
        .iter()
        .map(|run| {
            let m = &run.measured;
            Case {
                label: format!("{name} · {} · {}", m.mode, m.scenario),
                instructions: Some(run.rendered.prompt().to_string()),
                tools: callable_tools(agent, &run.rendered).iter().map(|(t, _)| (*t.tool).clone()).collect(),
                measured: Some([
                    m.system_prompt.tokens,
                    m.request.framing.tokens + m.request.joins.tokens,
                    m.tool_schemas.total.tokens,
                    m.request.total.tokens,
                ]),
            }
        })
        .collect()
}

fn compare(case: &Case, ran: &Value, counter: &TokenCounter) -> Vec<String> {
    let label = &case.label;
    let mut problems = Vec::new();
    let tools: Vec<&Tool> = case.tools.iter().collect();
    let text = harmony::render(case.instructions.as_deref(), &tools);
    let expected = ran["text"].as_str().expect("text");
    if text != expected {
        problems.push(format!("{label}: the rendering differs:\n{}", common::runtime_diff(expected, &text)));
    }
    let p = profile(MODEL);
    let prompt_tokens = case.instructions.as_deref().map(|i| counter.count(p.tokenizer, i));
    let parts = case.instructions.as_deref().zip(prompt_tokens).map(|part| vec![part]);
    let counted = count_request(&p, parts.as_deref(), &tools, counter, &ctxc::memo::Cache::default());
    let n = |key: &str| ran[key].as_i64().expect("count");
    let prompt = prompt_tokens.unwrap_or(0) as i64;
    // (system prompt, framing and joins, tools, total): harmony's, then ctxc's.
    let theirs = [n("prompt"), n("without_tools") - n("prompt"), n("total") - n("without_tools"), n("total")];
    let ours = [prompt, counted.without_tools - prompt, counted.tools_total, counted.without_tools + counted.tools_total];
    if theirs != ours {
        problems.push(format!("{label}: (system prompt, framing, tools, total) harmony {theirs:?}, ctxc {ours:?}"));
    }
    if let Some(measured) = case.measured {
        if measured != theirs {
            problems.push(format!("{label}: ctxc cost reports (system prompt, framing, tools, total) {measured:?}, harmony {theirs:?}"));
        }
    }
    problems
}

#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn gpt_oss_requests_equal_openai_harmony() {
    let mut cases = fixture_cases();
    cases.push(github_case());
    for agent in ["zeus", "support-triage", "deepagents"] {
        cases.extend(agent_cases(agent));
    }
    let results = harmony_results(&cases);
    assert_eq!(results.len(), cases.len(), "one result per case");
    let counter = TokenCounter::new();
    let problems: Vec<String> = cases.iter().zip(&results).flat_map(|(case, ran)| compare(case, ran, &counter)).collect();
    assert!(problems.is_empty(), "{} of {} requests differ from openai-harmony:\n{}", problems.len(), cases.len(), problems.join("\n"));
}
