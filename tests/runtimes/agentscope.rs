//! Differential test against AgentScope itself: each fixture under tests/runtimes/agentscope/fixtures
//! is built as a real agent by the installed runtime (tests/runtimes/agentscope/run_agent.py, a
//! recording model, no network) and rendered by ctxc from its ctxc.toml. The system prompt must be
//! byte-identical, the tools the same names in the same order at the same token cost, and the
//! window numbers (context size, compression trigger, tokens kept, tool-result limit) equal, for
//! every pinned release (tests/runtimes/python/agentscope-*.txt).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use ctxc::measure::cost_tool_list;
use ctxc::tokens::TokenCounter;
use ctxc::tools::Tool;

/// The releases compared; 2.0.6 is the last with `trigger_ratio < 0.9` (2.0.7+ allow 0.9); 1.0.21 is
/// the newest of the 1.x line (`ReActAgent`), built by its own runner (run_react_agent.py).
pub(crate) const RELEASES: [&str; 3] = ["1.0.21", "2.0.6", "2.0.11"];

/// The release line (major version) of `release`: `1` builds `ReActAgent`, `2` builds `Agent`.
fn line(release: &str) -> &str {
    release.split('.').next().unwrap_or_default()
}

/// Where fixtures name the project root; replaced by the temporary copy's absolute path.
pub(crate) const PROJECT_DIR: &str = "/srv/agent";

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/agentscope/fixtures")
}

pub(crate) fn run_json(command: &mut Command, what: &str) -> Value {
    let out = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(out.status.success(), "{what} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{what}: not JSON ({e}):\n{}", String::from_utf8_lossy(&out.stdout)))
}

/// The agents `release` builds from the fixtures in `dirs`, in one interpreter: each one's JSON.
fn python(release: &str, dirs: &[PathBuf]) -> Vec<Value> {
    let python = common::runtime_path(&format!("agentscope-{release}/bin/python"));
    let runner = if line(release) == "1" { "run_react_agent.py" } else { "run_agent.py" };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/agentscope").join(runner);
    let value = run_json(Command::new(python).arg(script).args(dirs), &format!("agentscope {release} on {dirs:?}"));
    let runs = value.as_array().expect("a list of runs").clone();
    assert_eq!(runs.len(), dirs.len(), "one run per fixture");
    for run in &runs {
        assert_eq!(run["release"], release, "the environment holds another release");
    }
    runs
}

fn ctxc(args: &[&str], dir: &Path, release: &str) -> Value {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ctxc"));
    command.args(args).arg(dir).env("CTXC_AGENTSCOPE__VERSION", release).env("NO_COLOR", "1");
    run_json(&mut command, &format!("ctxc {} {}", args.join(" "), dir.display()))
}

/// AgentScope's own texts, which the fixtures refer to as modules and tool files under upstream/:
/// written into each of `dirs` by one `ctxc upstream ROOT --python` on the folder `root` holding
/// them, from the installed release, as a user does for a folder of agents (one interpreter for all).
pub(crate) fn write_upstream(root: &Path, dirs: &[PathBuf], release: &str) {
    let python = common::runtime_path(&format!("agentscope-{release}/bin/python"));
    let out =
        Command::new(env!("CARGO_BIN_EXE_ctxc")).arg("upstream").arg(root).arg("--python").arg(python).output().expect("ctxc upstream");
    assert!(out.status.success(), "ctxc upstream with agentscope {release} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    for dir in dirs {
        let manifest = std::fs::read_to_string(dir.join("ctxc.toml")).expect("manifest");
        assert!(manifest.contains(&format!("version = \"{release}\"")), "the installed release is recorded:\n{manifest}");
    }
}

/// Copies of `fixtures` (folders) under one temporary folder as a user's projects: each manifest
/// pointing at its copy, AgentScope's texts of `release` written by `ctxc upstream` on the folder.
pub(crate) fn projects(fixtures: &[PathBuf], release: &str) -> (tempfile::TempDir, Vec<PathBuf>) {
    let temp = tempfile::tempdir().expect("tempdir");
    let root = temp.path().canonicalize().expect("canonical");
    let dirs: Vec<PathBuf> = fixtures
        .iter()
        .map(|fixture| {
            let dir = root.join(fixture.file_name().expect("a fixture folder"));
            common::copy_tree(fixture, &dir);
            let manifest = dir.join("ctxc.toml");
            let text = std::fs::read_to_string(&manifest).expect("manifest").replace(PROJECT_DIR, &dir.display().to_string());
            std::fs::write(&manifest, text).expect("write");
            dir
        })
        .collect();
    write_upstream(&root, &dirs, release);
    (temp, dirs)
}

/// Whether `release` has what the fixture in `dir` uses: the release line its agentscope.json
/// names (`"line": "1"` for a 1.x `ReActAgent`; none: 2.x's `Agent`) is the release's, and the
/// `since` release it names (a setting added then), if any, is not later.
pub(crate) fn compared_in(dir: &Path, release: &str) -> bool {
    let spec: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("agentscope.json")).expect("agentscope.json"))
        .expect("agentscope.json is JSON");
    let patch = |v: &str| v.rsplit('.').next().and_then(|p| p.parse::<u32>().ok()).unwrap_or(0);
    spec["line"].as_str().unwrap_or("2") == line(release) && spec["since"].as_str().is_none_or(|since| patch(release) >= patch(since))
}

/// The fixtures compared under `release`, sorted.
fn compared_under(release: &str) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(fixtures()).expect("fixtures").map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect();
    names.retain(|name| compared_in(&fixtures().join(name), release));
    names.sort();
    names
}

/// One fixture (copied to `dir`) under one release, against the agent AgentScope built from it:
/// the mismatches found, each readable on its own.
pub(crate) fn compare(name: &str, dir: &Path, release: &str, runtime: &Value) -> Vec<String> {
    let render = ctxc(&["render", "--format", "json"], dir, release);
    let cost = ctxc(&["cost", "--format", "json"], dir, release);
    let mut problems = Vec::new();
    let label = format!("{name} @ agentscope {release}");

    let (want, got) = (runtime["system_prompt"].as_str().unwrap_or_default(), render["prompt"].as_str().unwrap_or_default());
    if want != got {
        problems.push(format!(
            "{label}: system prompt differs ({} bytes from AgentScope, {} from ctxc)\n{}",
            want.len(),
            got.len(),
            ctxc::review::compare::unified_diff(Some(want), Some(got), "agentscope", "ctxc")
        ));
    }

    let report = &cost["reports"][0];
    let sent: Vec<&Value> = runtime["tools"].as_array().expect("tools").iter().map(|t| &t["function"]).collect();
    let sent_names: Vec<&str> = sent.iter().map(|f| f["name"].as_str().unwrap_or_default()).collect();
    let ctxc_tools = report["tool_schemas"]["tools"].as_array().expect("tool costs");
    let ctxc_names: Vec<&str> = ctxc_tools.iter().map(|t| t["name"].as_str().unwrap_or_default()).collect();
    if sent_names != ctxc_names {
        problems.push(format!("{label}: tools differ: AgentScope sends {sent_names:?}, ctxc lists {ctxc_names:?}"));
    } else {
        // The tools AgentScope sent, counted as ctxc counts the manifest's tools.
        let tools: Vec<Tool> = sent
            .iter()
            .map(|f| {
                let text = |k: &str| f[k].as_str().unwrap_or_default().to_string();
                Tool::new(text("name"), text("description"), f["parameters"].clone(), None)
            })
            .collect();
        let model = ctxc::models::profile(report["model"]["model"].as_str().unwrap_or_default());
        let costs = cost_tool_list(&tools.iter().collect::<Vec<_>>(), &model, &TokenCounter::new(), &ctxc::memo::Cache::default());
        let (sent_tokens, total): (Vec<i64>, _) = (costs.tools.iter().map(|c| c.tokens.tokens).collect(), costs.total);
        let ctxc_tokens: Vec<i64> = ctxc_tools.iter().map(|t| t["tokens"]["tokens"].as_i64().unwrap_or(-1)).collect();
        let ctxc_total = report["tool_schemas"]["total"]["tokens"].as_i64().unwrap_or(-1);
        if sent_tokens != ctxc_tokens || total.tokens != ctxc_total {
            problems.push(format!(
                "{label}: tool tokens differ: AgentScope's tools cost {sent_tokens:?} (total {}), ctxc counts {ctxc_tokens:?} (total {ctxc_total})",
                total.tokens
            ));
        }
    }

    // 1.x models have no context size and its agent no ratio-based compression: nothing to compare.
    if runtime.get("context_size").is_none() {
        return problems;
    }
    // The model's context size is the window of the whole report, the general block included.
    if report["window"]["max_input_tokens"] != runtime["context_size"] {
        problems.push(format!(
            "{label}: cost's window is {} where AgentScope's context_size is {}",
            report["window"]["max_input_tokens"], runtime["context_size"]
        ));
    }
    let window = &report["window"]["agentscope"];
    for (runtime_key, ctxc_key) in [
        ("context_size", "context_size"),
        ("compression_at", "compression_at"),
        ("kept_after_compression", "kept_after_compression"),
        ("tool_result_limit", "tool_result_limit"),
    ] {
        let ours = window[ctxc_key].get("value").unwrap_or(&window[ctxc_key]);
        if runtime[runtime_key] != *ours {
            problems.push(format!("{label}: {runtime_key} is {} in AgentScope, {ours} in ctxc", runtime[runtime_key]));
        }
    }
    problems
}

#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn ctxc_renders_what_agentscope_sends() {
    let mut problems = Vec::new();
    for release in RELEASES {
        let names = compared_under(release);
        let least = if line(release) == "1" { 3 } else { 6 };
        assert!(names.len() >= least, "expected at least {least} fixtures for {release}, found {names:?}");
        let (_temp, dirs) = projects(&names.iter().map(|name| fixtures().join(name)).collect::<Vec<_>>(), release);
        for ((name, dir), runtime) in names.iter().zip(&dirs).zip(python(release, &dirs)) {
            problems.extend(compare(name, dir, release, &runtime));
        }
    }
    assert!(problems.is_empty(), "ctxc differs from AgentScope in {} place(s):\n\n{}", problems.len(), problems.join("\n\n"));
}

/// The README's per-release table names each release compared here and its fixture count.
#[test]
fn readme_names_each_agentscope_release_compared() {
    for release in RELEASES {
        common::assert_readme_release_row(&format!("agentscope {release}"), compared_under(release).len());
    }
}

/// `ctxc cost` for an AgentScope agent without the runtime: `--model` costs it on that model's
/// class (its `context_size` default, the window of the whole report), and the compression tool
/// is refused where the release has no such setting.
#[test]
fn model_override_and_compression_tool_follow_the_release() {
    let manifest = "[agent]\nname = \"a\"\nmodel = \"gpt-4o\"\n\n[pipeline]\npreset = \"agentscope\"\n\n[modules]\nsystem_prompt = { source = \"system.md\" }\n\n[agentscope]\nmodel_class = \"OllamaChatModel\"\ncompression_tool_enabled = true\n";
    let tool = r#"[{"type": "function", "function": {"name": "CompressContext", "description": "Compress.", "parameters": {"type": "object", "properties": {}}}}]"#;
    let dir = common::project(&[("ctxc.toml", manifest), ("system.md", "Answer briefly."), ("upstream/compression-tool.json", tool)]);
    let cost = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_ctxc"))
            .arg("cost")
            .arg(dir.path())
            .args(args)
            .args(["--format", "json"])
            .output()
            .expect("ctxc");
        (
            out.status.code(),
            serde_json::from_slice::<Value>(&out.stdout).unwrap_or(Value::Null),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, own, _) = cost(&[]);
    assert_eq!(code, Some(0));
    let report = &own["reports"][0];
    assert_eq!(report["window"]["max_input_tokens"], 32768, "OllamaChatModel's default is the report's window");
    assert_eq!(report["window"]["agentscope"]["context_size"], 32768);
    let tools: Vec<&str> = report["tool_schemas"]["tools"].as_array().expect("tools").iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(tools, ["CompressContext"], "compression_tool_enabled adds the tool");

    let (_, other, _) = cost(&["--model", "claude-sonnet-4-5"]);
    let window = &other["reports"][0]["window"];
    assert_eq!(window["agentscope"]["context_size"], 200000, "AnthropicChatModel's default: {window}");
    assert_eq!(window["max_input_tokens"], 200000);

    let (code, _, stderr) = cost(&["--set", "agentscope.version=2.0.6"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("`compression_tool_enabled` is not in agentscope 2.0.6"), "{stderr}");
}
