//! Differential tests against the real Deep Agents (tests/runtimes/deepagents/): for each fixture
//! and each pinned release, the runtime builds the agent with a recording model
//! (tests/runtimes/deepagents/harness.py) and ctxc renders the fixture's manifest with that
//! release selected. The system prompt must be byte-identical, the tools the same names in the
//! same order at the same token cost, and the window numbers equal.
//!
//! Upstream's prose (base prompt, middleware texts, skills usage, memory guidelines, tool
//! descriptions, profile suffixes) is never committed: the harness prints it from the installed
//! release and the test writes it into a temporary copy of the fixture, as a user pastes it.

use crate::common;

use std::path::{Path, PathBuf};

use ctxc::session::Only;
use serde_json::Value;

/// The releases compared, each installed by scripts/runtimes from tests/runtimes/python/.
const RELEASES: [&str; 2] = ["0.4.12", "0.7.32"];

/// Module files every fixture may declare; a release without the text gets an empty file (the
/// step is then off, as the middleware adds nothing).
const TEXTS: [&str; 7] = ["base_prompt", "todo", "filesystem", "subagents", "skills_usage", "memory_guidelines", "profile_suffix"];

fn fixtures() -> Vec<PathBuf> {
    common::fixture_dirs("tests/runtimes/deepagents/fixtures", "runtime.json")
}

/// Runs the harness of `release` once on all of `projects` (a fixture, or a deploy project with
/// the layout it is mounted as, "deploy" or "local") and returns each one's JSON, in that order.
fn runtime(release: &str, projects: &[(&Path, Option<&str>)]) -> Vec<Value> {
    let python = common::runtime_path(&format!("deepagents-{release}/bin/python"));
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/deepagents/harness.py");
    let args = projects.iter().map(|(path, layout)| match layout {
        Some(layout) => format!("{}:{layout}", path.display()),
        None => path.display().to_string(),
    });
    let out = std::process::Command::new(python).arg(harness).args(args).output().expect("run the harness");
    assert!(out.status.success(), "deepagents {release} failed on {projects:?}:\n{}", String::from_utf8_lossy(&out.stderr));
    let ran: Vec<Value> = serde_json::from_slice(&out.stdout).expect("harness JSON");
    assert_eq!(ran.len(), projects.len(), "one run per project");
    ran
}

/// The harness's runs of `release` on `fixtures`, each built from its runtime.json.
fn fixture_runs(release: &str, fixtures: &[PathBuf]) -> Vec<Value> {
    runtime(release, &fixtures.iter().map(|f| (f.as_path(), None)).collect::<Vec<_>>())
}

/// A copy of `fixture` with upstream's texts of this release written under `upstream/`.
fn with_upstream_texts(fixture: &Path, ran: &Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    common::copy_tree(fixture, dir.path());
    let upstream = dir.path().join("upstream");
    std::fs::create_dir_all(&upstream).expect("mkdir");
    for name in TEXTS {
        let text = ran["texts"][name].as_str().unwrap_or("");
        std::fs::write(upstream.join(format!("{name}.md")), text).expect("write text");
    }
    let tools = ran["texts"]["builtin_tools"].as_str().expect("builtin tools");
    std::fs::write(upstream.join("builtin_tools.json"), tools).expect("write tools");
    dir
}

fn name_of(dir: &Path) -> String {
    dir.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string()
}

/// What one comparison of a fixture with the runtime's run `ran` found wrong (empty when the
/// render equals the runtime).
fn compare(fixture: &Path, release: &str, ran: &Value) -> Vec<String> {
    let project = with_upstream_texts(fixture, ran);
    check(
        &format!("{} @ deepagents {release}", name_of(fixture)),
        ran,
        project.path(),
        release,
        vec![format!("deepagents.version={release}")],
    )
}

/// A deploy project as a user meets it, imported into a copy: the runtime mounts it as `layout`,
/// and ctxc renders what `ctxc import deepagents` and then `ctxc upstream --python` (the texts
/// read from the installed release, the manifest's layout recorded from it; see
/// [`compare_imports`]) write, with no hand editing. The copy and its manifest, or what failed.
fn import_copy(project: &Path, layout: Layout, label: &str) -> Result<(tempfile::TempDir, PathBuf), String> {
    let copy = tempfile::tempdir().expect("tempdir");
    common::copy_tree(project, copy.path());
    let imported = match ctxc::runtimes::deepagents::import::import(copy.path(), layout) {
        Ok(imported) => imported,
        Err(failure) => return Err(format!("{label}: the import fails: {:?}", failure.diagnostics)),
    };
    if let Err(d) = ctxc::import::write(&imported, false) {
        return Err(format!("{label}: the manifest is not written: {}", d.message));
    }
    Ok((copy, imported.manifest))
}

/// Each of `cases` (a deploy project and the layout it is mounted as) imported, its texts read
/// from `release` by one `ctxc upstream` run for all of them, against the runtime's records `runs`.
fn compare_imports(cases: &[(&PathBuf, Layout)], release: &str, runs: &[Value]) -> Vec<String> {
    let label =
        |project: &Path, layout: Layout| format!("imported {} --layout {} @ deepagents {release}", name_of(project), layout_name(layout));
    let mut problems = Vec::new();
    let mut imported = Vec::new();
    for ((project, layout), ran) in cases.iter().zip(runs) {
        match import_copy(project, *layout, &label(project, *layout)) {
            Ok((copy, manifest)) => imported.push((label(project, *layout), copy, manifest, ran)),
            Err(problem) => problems.push(problem),
        }
    }
    let python = common::runtime_path(&format!("deepagents-{release}/bin/python"));
    let manifests: Vec<&Path> = imported.iter().map(|(_, _, manifest, _)| manifest.as_path()).collect();
    for ((label, copy, _, ran), written) in imported.iter().zip(ctxc::upstream::update_all(&manifests, &python)) {
        match written {
            Ok(_) => problems.extend(check(label, ran, copy.path(), release, Vec::new())),
            Err(d) => problems.push(format!("{label}: ctxc upstream fails: {}", d.message)),
        }
    }
    problems
}

fn layout_name(layout: Layout) -> &'static str {
    match layout {
        Layout::Deploy => "deploy",
        Layout::Local => "local",
    }
}

/// Compares the runtime's record `ran` (of `release`) with ctxc's render of `project`'s ctxc.toml,
/// with `overrides` laid over it.
fn check(label: &str, ran: &Value, project: &Path, release: &str, overrides: Vec<String>) -> Vec<String> {
    let session = ctxc::Session::new(overrides);
    let runs = match session.run(&project.join("ctxc.toml"), Only::default()) {
        Ok(runs) => runs,
        Err(failure) => return vec![format!("{label}: ctxc cannot load it: {:?}", failure.diagnostics)],
    };
    let mut problems: Vec<String> = runs.problems.iter().map(|d| format!("{label}: {}", d.message)).collect();
    let Some(run) = runs.runs.first() else { return problems };

    let expected = ran["system_prompt"].as_str().expect("system prompt");
    let actual = run.rendered.prompt();
    if expected != actual {
        problems.push(format!(
            "{label}: system prompt differs ({} bytes from the runtime, {} from ctxc):\n{}",
            expected.len(),
            actual.len(),
            common::runtime_diff(expected, &actual)
        ));
    }

    // The tools Deep Agents sent, costed as ctxc costs the manifest's tools for this model's provider.
    let sent_tools: Vec<ctxc::tools::Tool> = ran["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            let f = &t["json"]["function"];
            let text = |k: &str| f[k].as_str().unwrap_or_default().to_string();
            ctxc::tools::Tool::new(text("name"), text("description"), f["parameters"].clone(), None)
        })
        .collect();
    let sent_costs = ctxc::measure::cost_tool_list(
        &sent_tools.iter().collect::<Vec<_>>(),
        &runs.loaded.agent.profile,
        session.counter(),
        session.cache(),
    );
    let sent: Vec<(String, usize)> = sent_costs.tools.iter().map(|t| (t.name.clone(), t.tokens.tokens.max(0) as usize)).collect();
    let costed: Vec<(String, usize)> =
        run.measured.tool_schemas.tools.iter().map(|t| (t.name.clone(), t.tokens.tokens.max(0) as usize)).collect();
    if sent != costed {
        problems.push(format!("{label}: tools (name, tokens) differ:\n runtime {sent:?}\n ctxc    {costed:?}"));
    }

    let window = &ran["window"];
    let Some(da) = &run.measured.window.deepagents else {
        problems.push(format!("{label}: ctxc reports no Deep Agents window"));
        return problems;
    };
    let size = |s: deepagents::ContextSize| match s {
        deepagents::ContextSize::Fraction(f) => ("fraction", f),
        deepagents::ContextSize::Tokens(n) => ("tokens", n as f64),
        deepagents::ContextSize::Messages(n) => ("messages", n as f64),
    };
    let pair = |v: &Value| (v["kind"].as_str().unwrap_or("?").to_string(), v["value"].as_f64().unwrap_or(f64::NAN));
    let numbers = [
        ("model has a profile", Some(u64::from(window["model_profile"].as_bool() == Some(true))), Some(u64::from(da.model_profile))),
        ("max input tokens", window["max_input_tokens"].as_u64(), da.model.max_input_tokens),
        ("trigger at (tokens)", window["trigger"]["tokens"].as_u64(), da.trigger_at),
        ("input budget (tokens)", window["input_budget"].as_u64(), da.input_budget),
        // The point the runtime acts on first: its trigger, or its input budget when lower.
        (
            "summarization at (tokens)",
            match (window["trigger"]["tokens"].as_u64(), window["input_budget"].as_u64()) {
                (Some(t), Some(b)) => Some(t.min(b)),
                (t, b) => t.or(b),
            },
            da.summarization_at,
        ),
        ("kept (tokens)", window["keep"]["tokens"].as_u64(), da.kept_tokens),
        ("tool_token_limit_before_evict", window["tool_token_limit_before_evict"].as_u64(), Some(da.tool_token_limit_before_evict.value)),
        (
            "offload over (characters)",
            window["tool_token_limit_before_evict"].as_u64().map(|t| t * window["chars_per_token"].as_u64().unwrap_or(0)),
            da.offload_chars,
        ),
        (
            "human_message_token_limit_before_evict",
            window["human_message_token_limit_before_evict"].as_u64(),
            da.human_message_token_limit_before_evict.as_ref().map(|s| s.value),
        ),
    ];
    for (what, runtime, ours) in numbers {
        if runtime != ours {
            problems.push(format!("{label}: {what}: runtime {runtime:?}, ctxc {ours:?}"));
        }
    }
    let chars = window["summary_chars_per_token"].as_f64();
    if chars != Some(da.model.chars_per_token) {
        problems.push(format!("{label}: summarization counts characters per token: runtime {chars:?}, ctxc {}", da.model.chars_per_token));
    }
    for (what, runtime, ours) in
        [("trigger", pair(&window["trigger"]), size(da.trigger.value)), ("keep", pair(&window["keep"]), size(da.keep.value))]
    {
        if runtime.0 != ours.0 || (runtime.1 - ours.1).abs() > 1e-9 {
            problems.push(format!("{label}: {what}: runtime {runtime:?}, ctxc {ours:?}"));
        }
    }
    if ran["release"].as_str() != Some(&format!("deepagents {release}")) {
        problems.push(format!("{label}: the environment runs {}", ran["release"]));
    }
    problems
}

use ctxc::runtimes::deepagents::import::Layout;
use ctxc::runtimes::deepagents::window as deepagents;

#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn prompts_tools_and_window_equal_the_real_deep_agents() {
    let fixtures = fixtures();
    let mut problems = Vec::new();
    for release in RELEASES {
        let runs = fixture_runs(release, &fixtures);
        for (fixture, ran) in fixtures.iter().zip(&runs) {
            problems.extend(compare(fixture, release, ran));
        }
    }
    assert!(problems.is_empty(), "ctxc differs from the real Deep Agents:\n\n{}", problems.join("\n\n"));
    assert!(fixtures.len() >= 6, "expected at least 6 fixtures, found {}", fixtures.len());
}

#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn imported_deploy_projects_equal_the_real_deep_agents() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/deepagents/projects");
    let mut projects: Vec<PathBuf> = std::fs::read_dir(&dir).expect("projects").flatten().map(|e| e.path()).collect();
    projects.sort();
    assert!(!projects.is_empty(), "no deploy project under {}", dir.display());
    let mut problems = Vec::new();
    let cases: Vec<(&PathBuf, Layout)> = projects.iter().flat_map(|p| [(p, Layout::Deploy), (p, Layout::Local)]).collect();
    for release in RELEASES {
        let runs = runtime(release, &cases.iter().map(|(p, layout)| (p.as_path(), Some(layout_name(*layout)))).collect::<Vec<_>>());
        problems.extend(compare_imports(&cases, release, &runs));
    }
    assert!(problems.is_empty(), "ctxc's imports differ from the real Deep Agents:\n\n{}", problems.join("\n\n"));
}

/// data/deepagents-profiles.tsv is what the pinned model classes give, in both environments.
#[test]
#[ignore = "needs the real runtimes: run by scripts/test, which installs them"]
fn deepagents_profile_table_is_what_the_installed_model_classes_give() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let committed = std::fs::read_to_string(root.join("data/deepagents-profiles.tsv")).expect("the table");
    for release in RELEASES {
        let python = common::runtime_path(&format!("deepagents-{release}/bin/python"));
        let out = std::process::Command::new(python)
            .arg("-I")
            .arg(root.join("scripts/derive-deepagents-profiles.py"))
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .output()
            .expect("run the script");
        assert!(out.status.success(), "deepagents {release}: {}", String::from_utf8_lossy(&out.stderr));
        let derived = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(
            derived == committed,
            "deepagents {release}: regenerate data/deepagents-profiles.tsv:\n{}",
            common::runtime_diff(&committed, &derived)
        );
    }
}

/// The README's per-release table names each release compared here and its fixture count.
#[test]
fn readme_names_each_deepagents_release_compared() {
    for release in RELEASES {
        common::assert_readme_release_row(&format!("deepagents {release}"), fixtures().len());
    }
}

/// ctxc's simulation of `conversation` on the project in `dir` with `release` selected.
fn simulate(dir: &Path, release: &str, conversation: &ctxc::conversation::Conversation) -> ctxc::simulate::Simulation {
    let session = ctxc::Session::new(vec![format!("deepagents.version={release}")]);
    let runs = session.run(&dir.join("ctxc.toml"), Only::default()).expect("ctxc loads the fixture");
    let run = runs.runs.first().expect("one mode");
    ctxc::simulate::simulate(
        &runs.loaded.agent,
        &run.rendered,
        &run.measured,
        session.counter(),
        conversation,
        &mut ctxc::simulate::Budget::default(),
    )
    .expect("within the budget")
}

/// A simulate fixture's conversation: its workload, or its transcript (content parts as written).
fn conversation_file(fixture: &Path) -> Option<&'static str> {
    ["workload.toml", "transcript.jsonl"].into_iter().find(|f| fixture.join(f).is_file())
}

/// The fixtures under tests/runtimes/deepagents/simulate/ (those with a workload or a transcript),
/// sorted, and each release's harness run on them: made once per test process and shared by the
/// tests that compare with them (each run imports LangChain: seconds of CPU).
fn simulate_fixture_runs() -> &'static (Vec<PathBuf>, [Vec<Value>; 2]) {
    static RUNS: std::sync::OnceLock<(Vec<PathBuf>, [Vec<Value>; 2])> = std::sync::OnceLock::new();
    RUNS.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/deepagents/simulate");
        let mut fixtures: Vec<PathBuf> =
            std::fs::read_dir(&dir).expect("fixtures").flatten().map(|e| e.path()).filter(|p| conversation_file(p).is_some()).collect();
        fixtures.sort();
        let runs = RELEASES.map(|release| fixture_runs(release, &fixtures));
        (fixtures, runs)
    })
}

/// The shared harness run of `release` on the simulate fixture `name`.
fn simulate_fixture_run(release: &str, name: &str) -> (&'static Path, &'static Value) {
    let (fixtures, runs) = simulate_fixture_runs();
    let i = fixtures.iter().position(|f| name_of(f) == name).unwrap_or_else(|| panic!("no simulate fixture {name}"));
    let r = RELEASES.iter().position(|r| *r == release).unwrap_or_else(|| panic!("release {release} is not compared"));
    (&fixtures[i], &runs[r][i])
}

/// `ctxc simulate` against the real runtime: each fixture under tests/runtimes/deepagents/simulate/
/// has a workload or a transcript; the runtime replays it with a scripted model (simulate.py beside this file)
/// and ctxc simulates it on the fixture's manifest. Per model call, the count the runtime's
/// summarization decided on, its count of the request sent (after summarizing and clipping), the
/// history it sent (message ids, `summary` first after a summarization) and the tool results it
/// offloaded must be the same; a request 0.7 refuses (`ContextOverflowError`, the run's last) is
/// the one ctxc reports over the budget. One interpreter per release replays every fixture.
#[test]
#[ignore = "needs the Deep Agents runtimes (scripts/runtimes)"]
fn simulate_matches_the_runtime_call_by_call() {
    let (fixtures, runs) = simulate_fixture_runs();
    assert!(fixtures.len() >= 3, "three workloads at least");
    let conversations: Vec<ctxc::conversation::Conversation> = fixtures
        .iter()
        .map(|fixture| {
            let file = conversation_file(fixture).expect("a workload or a transcript");
            let text = std::fs::read_to_string(fixture.join(file)).expect("read");
            match file {
                "workload.toml" => ctxc::conversation::workload(file, &text),
                _ => ctxc::conversation::transcript(file, &text, 2_000),
            }
            .unwrap_or_else(|f| panic!("{file}: {:?}", f.diagnostics))
        })
        .collect();
    // Per release, a copy of each fixture with its texts and conversation, all replayed by one
    // interpreter (the runtime writes offloaded results and history into each copy, its backend).
    let replays = RELEASES.iter().zip(runs).map(|(release, runs)| {
        let projects: Vec<tempfile::TempDir> = fixtures
            .iter()
            .zip(runs)
            .zip(&conversations)
            .map(|((fixture, ran), conversation)| {
                let project = with_upstream_texts(fixture, ran);
                std::fs::write(project.path().join("conversation.json"), serde_json::to_string(conversation).expect("json"))
                    .expect("write");
                project
            })
            .collect();
        let python = common::runtime_path(&format!("deepagents-{release}/bin/python"));
        let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/deepagents/simulate.py");
        let out = std::process::Command::new(python)
            .arg(harness)
            .args(projects.iter().flat_map(|p| [p.path().to_path_buf(), p.path().join("conversation.json")]))
            .output()
            .expect("run the harness");
        assert!(out.status.success(), "deepagents {release}: the runtime failed:\n{}", String::from_utf8_lossy(&out.stderr));
        let ran: Vec<Vec<Value>> = serde_json::from_slice(&out.stdout).expect("harness JSON");
        assert_eq!(ran.len(), fixtures.len(), "deepagents {release}: one replay per fixture");
        (projects, ran)
    });
    let replays: Vec<(Vec<tempfile::TempDir>, Vec<Vec<Value>>)> = replays.collect();
    let mut problems = Vec::new();
    let mut figures = Vec::new();
    for (i, (fixture, conversation)) in fixtures.iter().zip(&conversations).enumerate() {
        for (release, (projects, replayed)) in RELEASES.iter().zip(&replays) {
            let label = format!("{} @ deepagents {release}", name_of(fixture));
            let (project, ran) = (&projects[i], &replayed[i]);
            let simulated = simulate(project.path(), release, conversation);
            if ran.len() != simulated.calls.len() {
                problems.push(format!("{label}: {} model calls in the runtime, {} in ctxc", ran.len(), simulated.calls.len()));
                continue;
            }
            let mut events = (Vec::new(), Vec::new());
            let mut summaries = 0;
            for (r, c) in ran.iter().zip(&simulated.calls) {
                let ids: Vec<&str> = r["messages"].as_array().expect("ids").iter().filter_map(Value::as_str).collect();
                let offloaded: Vec<&str> = r["offloaded"].as_array().expect("offloaded").iter().filter_map(Value::as_str).collect();
                let ctxc_offloaded: Vec<&str> = c
                    .messages
                    .iter()
                    .map(String::as_str)
                    .filter(|id| {
                        simulated.calls[..c.index]
                            .iter()
                            .flat_map(|c| &c.events)
                            .any(|e| matches!(e, ctxc::simulate::Event::ToolResultOffloaded { message, .. } if message == id))
                    })
                    .collect();
                if r["count"].as_u64() != Some(c.runtime_count) {
                    problems.push(format!(
                        "{label}: call {} (turn {}): the runtime counted {}, ctxc {}",
                        c.index, c.turn, r["count"], c.runtime_count
                    ));
                }
                // A request the runtime refused (nothing sent) is the one ctxc finds over the budget.
                let refused = r["refused"] == Value::Bool(true);
                if refused != c.events.iter().any(|e| matches!(e, ctxc::simulate::Event::OverBudget { .. })) {
                    problems.push(format!(
                        "{label}: call {} (turn {}): refused by the runtime: {refused}, over the budget in ctxc: {}",
                        c.index, c.turn, !refused
                    ));
                }
                // What was sent, after summarizing and clipping: the runtime's count of it.
                if !refused && r["sent"].as_u64() != Some(c.runtime_sent) {
                    problems.push(format!(
                        "{label}: call {} (turn {}): the runtime sent {}, ctxc {}",
                        c.index, c.turn, r["sent"], c.runtime_sent
                    ));
                }
                if !refused && ids != c.messages.iter().map(String::as_str).collect::<Vec<_>>() {
                    problems.push(format!("{label}: call {} (turn {}): the runtime sent {ids:?}, ctxc {:?}", c.index, c.turn, c.messages));
                }
                if !refused && offloaded != ctxc_offloaded {
                    problems.push(format!("{label}: call {}: offloaded {offloaded:?} in the runtime, {ctxc_offloaded:?} in ctxc", c.index));
                }
                let runtime_summaries = r["summaries"].as_u64().expect("summaries");
                if runtime_summaries > summaries {
                    events.0.push(c.turn);
                }
                summaries = runtime_summaries;
                if c.events.iter().any(|e| matches!(e, ctxc::simulate::Event::Summarized { .. })) {
                    events.1.push(c.turn);
                }
            }
            if events.0 != events.1 {
                problems.push(format!("{label}: summarized at turns {:?} in the runtime, {:?} in ctxc", events.0, events.1));
            }
            let refused = ran.iter().filter(|r| r["refused"] == Value::Bool(true)).count();
            figures.push(format!(
                "{label}: {} calls, {refused} refused; summarized at turns {:?} (ctxc {:?})",
                ran.len(),
                events.0,
                events.1
            ));
        }
    }
    eprintln!("{}", figures.join("\n"));
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), common::first_problems(&problems, 4));
}

/// Deep Agents 0.7's over-budget clip of a `read_file` result (the workloads of
/// `simulate_matches_the_runtime_call_by_call` call `search` only): a 90,000-character file read
/// passes the input budget of the `over-budget` fixture in one step; after summarizing, the
/// runtime cuts the result to its first 4,000 characters and a notice. ctxc's cut must be as long
/// as the one the runtime's `_clip_overflow_tail` makes of the same result (clip.py), counted
/// in characters (the text holds non-ASCII ones).
#[test]
#[ignore = "needs the Deep Agents runtimes (scripts/runtimes)"]
fn deep_agents_clips_a_read_file_result_as_the_runtime_does() {
    use ctxc::simulate::{Event, TruncatedSize};

    let release = "0.7.32";
    let (fixture, ran) = simulate_fixture_run(release, "over-budget");
    let project = with_upstream_texts(fixture, ran);
    let content: String = (0..2000).map(|i| format!("línea {i}: {}\n", "é".repeat(38))).collect();
    assert!(content.chars().count() > 90_000);
    let mut args = serde_json::Map::new();
    args.insert("file_path".into(), Value::String("/notes.md".into()));
    let conversation = one_tool_call("read_file", args, "call_1", &content);

    let simulated = simulate(project.path(), release, &conversation);
    let events = &simulated.calls[1].events;
    let cut = events.iter().find_map(|e| match e {
        Event::ToolResultTruncated { message, size: TruncatedSize::Chars { chars, replacement_chars }, .. } if message == "call_1" => {
            Some((*chars, *replacement_chars))
        }
        _ => None,
    });

    let python = common::runtime_path(&format!("deepagents-{release}/bin/python"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/deepagents/clip.py");
    let mut child = std::process::Command::new(python)
        .arg(script)
        .args(["/notes.md", "call_1"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run clip.py");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), content.as_bytes()).expect("write the result");
    let out = child.wait_with_output().expect("clip.py");
    assert!(out.status.success(), "clip.py failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let clipped: String = serde_json::from_slice(&out.stdout).expect("clip.py JSON");
    assert!(clipped.ends_with("file_path='/notes.md', offset=0, limit=100.]"), "the runtime's notice: {clipped:.200}");
    assert_eq!(cut, Some((content.chars().count() as u64, clipped.chars().count() as u64)), "ctxc's events: {events:?}");
}

/// One turn: a user message, an assistant message calling `tool` with `args` under `id`, its
/// result `content`, and the answer.
fn one_tool_call(tool: &str, args: serde_json::Map<String, Value>, id: &str, content: &str) -> ctxc::conversation::Conversation {
    use ctxc::conversation::{Conversation, Message, Role, ToolCall, Turn};
    let message = |id: &str, role, content: &str| Message {
        id: id.into(),
        role,
        content: content.into(),
        tool_calls: vec![],
        tool_call_id: None,
        name: None,
        blocks: None,
    };
    let call = Message {
        tool_calls: vec![ToolCall { id: id.into(), name: tool.into(), args, written: None }],
        ..message("a1.1", Role::Assistant, "")
    };
    let result = Message { tool_call_id: Some(id.into()), name: Some(tool.into()), ..message(id, Role::Tool, content) };
    Conversation {
        source: "test".into(),
        turns: vec![Turn {
            user: message("u1", Role::User, "Go on."),
            steps: vec![call, result, message("a1.2", Role::Assistant, "Done.")],
        }],
        summary_chars: 500,
        warnings: Vec::new(),
    }
}

/// The file an offloaded tool result is written to, named after its call id as each release
/// names it (`sanitize_tool_call_id`, run by clip.py): `.`, `/` and `\` made `_`, and from 0.7
/// an id longer than 128 bytes so made named by its SHA-256.
#[test]
#[ignore = "needs the Deep Agents runtimes (scripts/runtimes)"]
fn deep_agents_names_an_offloaded_results_file_as_the_runtime_does() {
    let ids = ["toolu_01.a/b\\c", &format!("call.{}", "ab/".repeat(42))];
    for release in RELEASES {
        let (fixture, ran) = simulate_fixture_run(release, "over-budget");
        let project = with_upstream_texts(fixture, ran);
        let python = common::runtime_path(&format!("deepagents-{release}/bin/python"));
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtimes/deepagents/clip.py");
        let out = std::process::Command::new(python).arg(script).arg("--name").args(ids).output().expect("run clip.py");
        assert!(out.status.success(), "clip.py failed:\n{}", String::from_utf8_lossy(&out.stderr));
        let names: Vec<String> = serde_json::from_slice(&out.stdout).expect("clip.py JSON");
        for (id, name) in ids.iter().zip(names) {
            // Over the offload limit (80,000 characters), the result is offloaded as it arrives.
            let simulated = simulate(project.path(), release, &one_tool_call("search", serde_json::Map::new(), id, &"x".repeat(85_000)));
            let path = simulated.calls[1].events.iter().find_map(|e| match e {
                ctxc::simulate::Event::ToolResultOffloaded { path, .. } => Some(path.clone()),
                _ => None,
            });
            assert_eq!(path, Some(format!("/large_tool_results/{name}")), "deepagents {release}, call id {id}");
        }
    }
}
