//! The reference-system presets (Deep Agents, Zeph, AgentScope) on their example agents: section
//! order, the Deep Agents release switch, human-in-the-loop text, skill-location overrides, Zeph's
//! walk-up to the project root, the documented defaults in `ctxc cost --format json`, every
//! validated setting failing `ctxc check` with its code, and `CTXC_…` environment overrides.

use std::path::Path;
use std::process::{Command, Output};

use crate::common::copy_tree;
use ctxc::render::Rendered;
use serde_json::Value;

const DEEPAGENTS: &str = "examples/agents/deepagents";
const ZEPH: &str = "examples/agents/zeph";
const ZEPH_MANIFEST: &str = "examples/agents/zeph/services/payouts/ctxc.toml";
const AGENTSCOPE: &str = "examples/agents/agentscope";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs ctxc from the repository root; `env` is set on the child process only.
fn ctxc(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ctxc"));
    command.args(args).current_dir(repo()).env("NO_COLOR", "1");
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("ctxc runs")
}

/// Stderr with miette's line wrapping undone, so messages can be matched as written.
fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).replace("\n  │ ", " ")
}

fn json(args: &[&str], env: &[(&str, &str)]) -> Value {
    let out = ctxc(args, env);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

/// Loads a manifest with overrides and renders one mode and scenario.
fn render_with(manifest: &str, overrides: &[&str], mode: &str, scenario: &str) -> Rendered {
    let session = ctxc::Session::new(overrides.iter().map(|s| s.to_string()).collect());
    let loaded = session.load(&repo().join(manifest)).unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
    session.render(&loaded, mode, Some(scenario)).unwrap_or_else(|d| panic!("{d:?}"))
}

fn ids(rendered: &Rendered) -> Vec<&str> {
    rendered.sections.iter().map(|s| s.id.as_str()).collect()
}

fn section<'a>(rendered: &'a Rendered, id: &str) -> &'a ctxc::render::Section {
    rendered.sections.iter().find(|s| s.id == id).unwrap_or_else(|| panic!("no section {id}: {:?}", ids(rendered)))
}

// ---- Deep Agents

#[test]
fn deepagents_0_4_puts_the_custom_prompt_first_then_each_middleware_in_order() {
    let r = render_with(&format!("{DEEPAGENTS}/ctxc.toml"), &[], "research", "default");
    assert_eq!(ids(&r), ["system_prompt", "base_prompt", "todo", "memory", "skills", "filesystem", "subagents", "user_middleware"]);
    let sandbox = render_with(&format!("{DEEPAGENTS}/ctxc.toml"), &[], "research", "sandbox");
    assert_eq!(ids(&sandbox)[5..7], ["filesystem", "execute"], "a user middleware step placed after a preset step");
    let brief = render_with(&format!("{DEEPAGENTS}/ctxc.toml"), &[], "brief", "sandbox");
    assert!(!ids(&brief).contains(&"subagents") && !ids(&brief).contains(&"execute"));
}

#[test]
fn deepagents_0_7_moves_memory_last_and_drops_the_base_prompt_and_todo_list() {
    // Through the environment, the way a CI job would switch releases.
    let r = json(&["render", DEEPAGENTS, "--mode", "research", "--format", "json"], &[("CTXC_DEEPAGENTS__VERSION", "0.7")]);
    let order: Vec<&str> = r["sections"].as_array().expect("sections").iter().map(|s| s["id"].as_str().expect("id")).collect();
    assert_eq!(order, ["system_prompt", "filesystem", "subagents", "user_middleware", "skills", "memory"]);
    assert!(!r["prompt"].as_str().expect("prompt").contains("write_todos`\n\nFor any task"), "no to-do list text in 0.7");
    let later = render_with(&format!("{DEEPAGENTS}/ctxc.toml"), &["deepagents.version=\"1.2.0\""], "research", "default");
    assert_eq!(ids(&later).last(), Some(&"memory"), "releases after 0.7 keep the 0.7 layout");
    let unknown = ctxc(&["render", DEEPAGENTS, "--mode", "research"], &[("CTXC_DEEPAGENTS__VERSION", "0.5")]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("layouts of release 0.4 and of 0.7 and later"), "{}", stderr(&unknown));
}

#[test]
fn human_in_the_loop_adds_no_text_and_a_config_without_decisions_is_refused() {
    let manifest = format!("{DEEPAGENTS}/ctxc.toml");
    let on = render_with(&manifest, &[], "research", "default");
    assert!(!ids(&on).contains(&"hitl"), "HumanInTheLoopMiddleware never touches the system prompt");
    let cost = json(&["cost", DEEPAGENTS, "--mode", "research", "--scenario", "default", "--format", "json"], &[]);
    assert_eq!(cost["reports"][0]["window"]["deepagents"]["interrupt_on"], serde_json::json!(["write_file", "edit_file", "execute"]));
    let empty = ctxc(&["render", DEEPAGENTS, "--mode", "research", "--set", "deepagents.interrupt_on.execute.allowed_decisions=[]"], &[]);
    assert_eq!(empty.status.code(), Some(2));
    assert!(stderr(&empty).contains("`deepagents.interrupt_on.execute` has no `allowed_decisions`"), "{}", stderr(&empty));
    // At the table the setting changed, found by its keys.
    assert!(stderr(&empty).contains("ctxc.toml:34:65]"), "{}", stderr(&empty));
}

#[test]
fn memory_shows_each_agents_md_with_its_path_and_later_skill_locations_win() {
    let r = render_with(&format!("{DEEPAGENTS}/ctxc.toml"), &[], "research", "default");
    let memory = section(&r, "memory");
    assert_eq!(memory.sources, ["AGENTS.md", "memories/user/AGENTS.md", "prompts/middleware/memory_guidelines.md"]);
    // 0.4.12's format: the virtual path, one line break, the file as read.
    assert!(memory.text.starts_with("<agent_memory>\n/AGENTS.md\n# Policy research desk"));
    assert!(memory.text.contains("\n\n/memories/user/AGENTS.md\n# About Dana"));
    assert!(memory.text.contains("\n</agent_memory>\n\n<memory_guidelines>\n"));
    let skills = section(&r, "skills");
    assert!(skills.sources.contains(&"skills/project/literature-search/SKILL.md".to_string()));
    assert!(!skills.sources.contains(&"skills/user/literature-search/SKILL.md".to_string()), "the project location overrides the user one");
    assert!(skills.text.contains("**User Skills**: `/skills/user/`\n**Project Skills**: `/skills/project/` (higher priority)"));
    assert!(skills.text.contains("**literature-search**: Search the team's sources in order"));
    assert_eq!(skills.text.matches("**literature-search**").count(), 1);
}

#[test]
fn deepagents_without_a_model_profile_uses_the_170k_fallback_and_check_flags_it() {
    let cost = json(
        &["cost", DEEPAGENTS, "--mode", "research", "--scenario", "default", "--format", "json", "--set", "agent.model=acme-internal-7b"],
        &[],
    );
    let d = &cost["reports"][0]["window"]["deepagents"];
    assert_eq!(d["model_profile"], false);
    assert_eq!(d["trigger"]["value"], serde_json::json!({ "tokens": 170000 }));
    assert_eq!(d["keep"]["value"], serde_json::json!({ "messages": 6 }));
    assert_eq!(d["trigger"]["source"], "Deep Agents' fallback without a model profile");
    let check = ctxc(&["check", DEEPAGENTS, "--set", "agent.model=acme-internal-7b"], &[]);
    assert_eq!(check.status.code(), Some(1));
    assert!(stderr(&check).contains("SET001") && stderr(&check).contains("beyond the model's 64000-token window"), "{}", stderr(&check));
}

// Deep Agents returns early when the limit is falsy ("eviction not configured", filesystem.py
// 0.4.12 and 0.7.32): 0 turns offloading off, it does not offload every result (audit DA-8).
#[test]
fn deepagents_offload_limit_zero_turns_offloading_off() {
    let set = "deepagents.tool_token_limit_before_evict=0";
    let cost = json(&["cost", DEEPAGENTS, "--mode", "research", "--format", "json", "--set", set], &[]);
    let d = &cost["reports"][0]["window"]["deepagents"];
    assert_eq!(d["tool_token_limit_before_evict"]["value"], 0);
    assert_eq!(d["offload_chars"], serde_json::Value::Null);
    let text = ctxc(&["cost", DEEPAGENTS, "--mode", "research", "--set", set], &[]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("tool results are never offloaded"));
    let check = ctxc(&["check", DEEPAGENTS, "--set", set], &[]);
    assert!(!stderr(&check).contains("SET004"), "{}", stderr(&check));
}

// ---- Zeph

#[test]
fn zeph_prompt_order_project_context_root_first_and_the_skill_split() {
    let r = render_with(ZEPH_MANIFEST, &[], "code", "default");
    // zeph-core 0.22.4 `assemble_final_system_prompt`: the skills come before project context and the repo map.
    assert_eq!(ids(&r), ["base_prompt", "environment", "skills", "other_skills", "project_context", "budget_hint"]);
    // zeph-core 0.22.4 with Zeph's defaults: a 2,500-cent daily cap and 10 tool iterations.
    assert_eq!(
        &*section(&r, "budget_hint").text,
        "<budget>\n<remaining_cost_cents>2500.00</remaining_cost_cents>\n<total_budget_cents>2500.00</total_budget_cents>\n<remaining_tool_calls>10</remaining_tool_calls>\n<max_tool_calls>10</max_tool_calls>\n</budget>"
    );
    let off = render_with(ZEPH_MANIFEST, &["zeph.budget_hint_enabled=false"], "code", "default");
    assert!(!ids(&off).contains(&"budget_hint"));
    let refused = ctxc::Session::new(vec!["zeph.max_tool_iterations=101".into()]).load(&repo().join(ZEPH_MANIFEST)).expect_err("101 > 100");
    assert!(refused.diagnostics.iter().any(|d| d.message.contains("Zeph refuses more than 100")), "{:?}", refused.diagnostics);
    let tools_only = render_with(ZEPH_MANIFEST, &["zeph.max_daily_cents=0", "zeph.max_tool_iterations=3"], "code", "default");
    assert_eq!(
        &*section(&tools_only, "budget_hint").text,
        "<budget>\n<remaining_tool_calls>3</remaining_tool_calls>\n<max_tool_calls>3</max_tool_calls>\n</budget>"
    );
    let context = section(&r, "project_context");
    assert_eq!(context.sources, ["../../ZEPH.md", "../../.zeph/config.md", "ZEPH.md", "ZEPH.local.md"]);
    assert!(context.text.starts_with("<project_context>\n# Ledgerline workspace"));
    assert!(section(&r, "skills").text.contains("<skill name=\"rust-testing\">\nRun the single failing test"));
    let others = section(&r, "other_skills");
    assert!(others.text.contains("- sql-migrations: ") && !others.text.contains("- rust-testing: "));
    let indexed = render_with(ZEPH_MANIFEST, &[], "code", "indexed");
    assert_eq!(ids(&indexed), ["base_prompt", "environment", "skills", "other_skills", "project_context", "repo_map", "budget_hint"]);
    assert!(indexed.tools.iter().any(|t| t.name == "search_code" && t.enabled));
}

fn project_context(manifest: &Path) -> (Vec<String>, String) {
    let r = ctxc::render_mode(manifest, "code", Some("default")).unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
    let s = section(&r, "project_context");
    (s.sources.clone(), s.text.to_string())
}

#[test]
fn zeph_walks_up_to_the_project_root_and_never_past_it() {
    let outer = tempfile::tempdir().expect("tempdir");
    let project = outer.path().join("ledgerline");
    copy_tree(&repo().join(ZEPH), &project);
    // The project is a repository of its own: `[project] root` may climb to its top, not above.
    std::fs::create_dir(project.join(".git")).expect("mkdir");
    let manifest = project.join("services/payouts/ctxc.toml");
    let (before, text_before) = project_context(&manifest);
    // Outside the project root: ignored.
    std::fs::write(outer.path().join("ZEPH.md"), "Outside the project: never read.\n").expect("write");
    assert_eq!(project_context(&manifest), (before.clone(), text_before.clone()));
    // In a parent folder inside the project: added between the root's files and the agent's.
    std::fs::write(project.join("services/ZEPH.md"), "Services share the `ledger-common` error types.\n").expect("write");
    let (after, text_after) = project_context(&manifest);
    assert_eq!(after, ["../../ZEPH.md", "../../.zeph/config.md", "../ZEPH.md", "ZEPH.md", "ZEPH.local.md"]);
    assert!(text_after.contains("`ledger-common`") && !text_after.contains("never read"));
    assert_ne!(text_after, text_before);
    // Without `[project] root`, the manifest's directory is the root: only its own files.
    let manifest_text = std::fs::read_to_string(&manifest).expect("read").replace("[project]\nroot = \"../..\"\n", "");
    std::fs::write(&manifest, manifest_text).expect("write");
    assert_eq!(project_context(&manifest).0, ["ZEPH.md", "ZEPH.local.md"]);
}

#[cfg(unix)]
#[test]
fn a_project_context_symlink_out_of_the_root_is_refused() {
    let outer = tempfile::tempdir().expect("tempdir");
    let project = outer.path().join("ledgerline");
    copy_tree(&repo().join(ZEPH), &project);
    std::fs::write(outer.path().join("secret.md"), "outside").expect("write");
    std::os::unix::fs::symlink(outer.path().join("secret.md"), project.join("services/ZEPH.md")).expect("symlink");
    let out = Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(["render", "--mode", "code", "services/payouts"])
        .current_dir(&project)
        .env("NO_COLOR", "1")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`../ZEPH.md` points outside the project root"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

#[test]
fn project_root_must_be_an_ancestor() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("ctxc.toml"), "[agent]\nname = \"x\"\n[project]\nroot = \"sub\"\n").expect("write");
    let out = ctxc(&["render", dir.path().to_str().expect("utf-8")], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("is not an ancestor of the manifest's directory") && stderr(&out).contains("ctxc.toml:4:8"),
        "{}",
        stderr(&out)
    );
}

// ---- AgentScope

#[test]
fn agentscope_is_base_prompt_then_skills_then_middleware_in_hook_order() {
    let r = render_with(&format!("{AGENTSCOPE}/ctxc.toml"), &[], "analyze", "default");
    assert_eq!(ids(&r), ["system_prompt", "skills", "on_system_prompt", "clock"]);
    assert_eq!(section(&r, "on_system_prompt").sources, ["prompts/middleware/workspace.md"]);
    let explain = render_with(&format!("{AGENTSCOPE}/ctxc.toml"), &[], "explain", "offline");
    assert_eq!(section(&explain, "on_system_prompt").sources, ["prompts/middleware/workspace-readonly.md"]);
    assert!(explain.tools.iter().all(|t| !t.enabled || t.access == "read"));
}

// ---- Defaults, findings, overrides

#[test]
fn each_presets_documented_defaults_are_in_cost_json() {
    let setting = |value: Value, source: &str| serde_json::json!({ "value": value, "source": source });
    let d = json(&["cost", DEEPAGENTS, "--format", "json"], &[]);
    let d = &d["reports"][0]["window"]["deepagents"];
    assert_eq!(d["version"], "0.4");
    assert_eq!(d["tool_token_limit_before_evict"], setting(20000.into(), "preset deepagents"));
    assert_eq!(d["offload_chars"], 80000);
    assert_eq!(d["trigger"], setting(serde_json::json!({ "fraction": 0.85 }), "Deep Agents' default with a model profile"));
    assert_eq!(d["keep"], setting(serde_json::json!({ "fraction": 0.1 }), "Deep Agents' default with a model profile"));
    assert_eq!(d["summarization_at"], 170000, "85 % of claude-sonnet-4-5's 200,000");
    assert_eq!(d["kept_tokens"], 20000);

    let z = json(&["cost", ZEPH, "--mode", "code", "--format", "json"], &[]);
    let (plain, indexed) = (&z["reports"][0]["window"]["zeph"], &z["reports"][1]["window"]["zeph"]);
    assert_eq!(plain["response_reserve_ratio"], setting(0.2.into(), "preset zeph"));
    assert_eq!(plain["soft_compaction_threshold"], setting(0.6.into(), "preset zeph"));
    assert_eq!(plain["compaction_threshold"], setting(0.9.into(), "preset zeph"));
    assert_eq!(plain["compaction_preserve_tail"], setting(6.into(), "preset zeph"));
    assert_eq!(plain["prune_protect_tokens"], setting(40000.into(), "preset zeph"));
    assert_eq!(plain["tool_output_max_chars"], setting(50000.into(), "preset zeph"));
    // zeph-context 0.22.4: the system prompt and the skills prompt (cl100k_base) come off before the shares.
    assert_eq!(
        (plain["budget"].as_u64(), plain["budget_source"].as_str(), plain["response_reserve"].as_u64()),
        (Some(128000), Some("auto"), Some(25600))
    );
    assert_eq!(
        (plain["system_prompt_tokens"].as_u64(), plain["skills_tokens"].as_u64(), plain["available"].as_u64()),
        (Some(697), Some(98), Some(101605))
    );
    let shares = |w: &Value| -> Vec<(String, f64, u64)> {
        w["shares"]
            .as_array()
            .expect("shares")
            .iter()
            .map(|s| (s["name"].as_str().expect("n").to_string(), s["ratio"].as_f64().expect("r"), s["tokens"].as_u64().expect("t")))
            .collect()
    };
    let named = |v: &[(&str, f64, u64)]| v.iter().map(|(n, r, t)| (n.to_string(), *r, *t)).collect::<Vec<_>>();
    assert_eq!(
        shares(plain),
        named(&[
            ("summaries", 0.08, 8128),
            ("semantic_recall", 0.08, 8128),
            ("cross_session", 0.04, 4064),
            ("code_context", 0.3, 30481),
            ("recent_history", 0.5, 50802)
        ])
    );
    // The code index adds the repo map (a larger prompt) but keeps the shares.
    assert_eq!((indexed["available"].as_u64(), indexed["recent_history"].as_u64()), (Some(101282), Some(50641)));
    assert_eq!((plain["soft_compaction_at"].as_u64(), plain["compaction_at"].as_u64()), (Some(76800), Some(115200)));

    let a = json(&["cost", AGENTSCOPE, "--format", "json"], &[]);
    let a = &a["reports"][0]["window"]["agentscope"];
    assert_eq!(a["trigger_ratio"], setting(0.8.into(), "preset agentscope"));
    assert_eq!(a["reserve_ratio"], setting(0.1.into(), "preset agentscope"));
    assert_eq!(a["tool_result_limit"], setting(50000.into(), "preset agentscope"));
    // The window is DashScopeChatModel's context_size default, not the model's 131,000 (AS-2).
    assert_eq!(a["context_size"], 131072);
    assert_eq!((a["compression_at"].as_u64(), a["kept_after_compression"].as_u64()), (Some(104857), Some(13107)));
}

/// Every validated setting, set to an invalid value, gives its finding (with its code) and exit 1.
#[test]
fn every_validated_setting_fails_check_with_its_code() {
    let cases: &[(&str, &str, &str)] = &[
        (DEEPAGENTS, "deepagents.summarization.trigger.fraction=1.5", "SET001"),
        (DEEPAGENTS, "deepagents.summarization.trigger.messages=0", "SET001"),
        (DEEPAGENTS, "deepagents.summarization.keep.fraction=0.9", "SET002"),
        (DEEPAGENTS, "deepagents.summarization.trigger.tokens=1500", "SET003"),
        (DEEPAGENTS, "deepagents.tool_token_limit_before_evict=169000", "SET004"),
        (ZEPH, "zeph.shares.summaries=0.2", "SET005"),
        (ZEPH, "zeph.shares_with_graph.code_context=-0.1", "SET005"),
        (ZEPH, "zeph.context_budget_tokens=900", "SET006"),
        (ZEPH, "zeph.compaction_threshold=1.2", "SET007"),
        (ZEPH, "zeph.soft_compaction_threshold=0.95", "SET007"),
        (ZEPH, "zeph.compaction_threshold=0.005", "SET003"),
        (ZEPH, "zeph.compaction_preserve_tail=0", "SET008"),
        (ZEPH, "zeph.compaction_preserve_tail=40", "SET008"),
        (ZEPH, "zeph.prune_protect_tokens=100000", "SET009"),
        (ZEPH, "zeph.tool_output_max_chars=0", "SET010"),
        (ZEPH, "zeph.tool_output_max_chars=400000", "SET010"),
        (ZEPH, "zeph.context_budget_tokens=200000", "SET011"),
        (ZEPH, "zeph.response_reserve_ratio=1.2", "SET012"),
        (AGENTSCOPE, "agentscope.trigger_ratio=0.95", "SET013"),
        (AGENTSCOPE, "agentscope.trigger_ratio=0", "SET013"),
        (AGENTSCOPE, "agentscope.reserve_ratio=0.8", "SET014"),
        (AGENTSCOPE, "agentscope.context_buffer_ratio=0.8", "SET014"),
        (AGENTSCOPE, "agentscope.tool_result_limit=0", "SET015"),
        (AGENTSCOPE, "agentscope.tool_result_limit=120000", "SET015"),
        (AGENTSCOPE, "agentscope.trigger_ratio=0.004", "SET003"),
    ];
    for (agent, set, code) in cases {
        let out = ctxc(&["check", agent, "--set", set], &[]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{set}: {err}");
        assert!(err.contains(code), "{set}: expected {code} in {err}");
        assert!(out.stdout.is_empty());
    }
    // The same through the environment.
    let out = ctxc(&["check", AGENTSCOPE], &[("CTXC_AGENTSCOPE__TRIGGER_RATIO", "0.95")]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("SET013"));
}

#[test]
fn findings_point_at_the_manifest_line_or_say_the_value_is_the_presets_default() {
    let dir = tempfile::tempdir().expect("tempdir");
    let manifest = "[agent]\nname = \"tiny\"\nmodel = \"gpt-4o\"\n[pipeline]\npreset = \"agentscope\"\n[modules]\nsystem_prompt = { source = \"p.md\" }\n[agentscope]\ntrigger_ratio = 0.95\n";
    std::fs::write(dir.path().join("ctxc.toml"), manifest).expect("write");
    std::fs::write(dir.path().join("p.md"), "You help.\n").expect("write");
    let out = ctxc(&["check", dir.path().to_str().expect("utf-8")], &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("SET013") && err.contains("ctxc.toml:9:17"), "points at `trigger_ratio = 0.95`: {err}");
    // reserve_ratio 0.1 comes from the preset: the finding says so and points at the preset line.
    let out = ctxc(&["check", AGENTSCOPE, "--set", "agentscope.trigger_ratio=0.05"], &[]);
    let err = stderr(&out);
    assert!(err.contains("SET014") && err.contains("the `agentscope` preset's default"), "{err}");
    assert!(err.contains("ctxc.toml:15:10"), "points at `preset = \"agentscope\"`: {err}");
}

/// AgentScope 2.0.6 refuses `trigger_ratio = 0.9` (`lt=0.9`); 2.0.7 and later accept it (`le=0.9`).
#[test]
fn agentscope_trigger_bound_follows_the_release() {
    let at = |version: &str| {
        ctxc(&["check", AGENTSCOPE, "--set", "agentscope.trigger_ratio=0.9", "--set", &format!("agentscope.version={version}")], &[])
    };
    let old = at("2.0.6");
    assert_eq!(old.status.code(), Some(1), "{}", stderr(&old));
    assert!(stderr(&old).contains("SET013") && stderr(&old).contains("below 0.9"), "{}", stderr(&old));
    assert_eq!(at("2.0.11").status.code(), Some(0), "{}", stderr(&at("2.0.11")));
    // Without the buffer check: runtime state not injected, so a buffer at the trigger is allowed.
    let quiet =
        ctxc(&["check", AGENTSCOPE, "--set", "agentscope.context_buffer_ratio=0.8", "--set", "agentscope.inject_runtime_state=false"], &[]);
    assert_eq!(quiet.status.code(), Some(0), "{}", stderr(&quiet));
    let unknown = ctxc(&["check", AGENTSCOPE, "--set", "agentscope.version=2.1.0"], &[]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("2.0.6, 2.0.7"), "{}", stderr(&unknown));
}

/// A workspace without `workdir` is refused, at the table's key.
#[test]
fn agentscope_workspace_needs_a_workdir() {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_tree(&repo().join(AGENTSCOPE), dir.path());
    let manifest = dir.path().join("ctxc.toml");
    let mut text = std::fs::read_to_string(&manifest).expect("read");
    // Right after the `[agentscope]` table.
    let at = text.find("[agentscope]").and_then(|i| text[i + 1..].find("\n[").map(|j| i + j + 2)).expect("a table after [agentscope]");
    text.insert_str(at, "[agentscope.workspace]\nbackend = \"local\"\n\n");
    let line = text[..at].lines().count() + 1;
    std::fs::write(&manifest, text).expect("write");
    let out = ctxc(&["check", dir.path().to_str().expect("a UTF-8 path")], &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("needs `workdir`"), "{}", stderr(&out));
    assert!(stderr(&out).contains(&format!("ctxc.toml:{line}:13]")), "at `workspace` in the table header: {}", stderr(&out));
}

#[test]
fn environment_overrides_follow_the_naming_rule_and_lose_to_set() {
    let env = [("CTXC_BUDGETS__SYSTEM_PROMPT", "1000")];
    let tight = ctxc(&["check", "examples/agents/zeus"], &env);
    assert_eq!(tight.status.code(), Some(1));
    assert!(stderr(&tight).contains("over its budget of 1,000"));
    let cost = json(
        &[
            "cost",
            "examples/agents/zeus",
            "--mode",
            "plan",
            "--scenario",
            "default",
            "--format",
            "json",
            "--set",
            "agent.context_window=32000",
        ],
        &[("CTXC_AGENT__CONTEXT_WINDOW", "50000")],
    );
    assert_eq!(cost["env_overrides"], serde_json::json!(["agent.context_window=50000"]));
    assert_eq!(cost["overrides"], serde_json::json!(["agent.context_window=32000"]));
    assert_eq!(cost["reports"][0]["window"]["max_input_tokens"], 32000, "--set wins over the environment");
    let typo = ctxc(&["check", "examples/agents/zeus"], &[("CTXC_BUDGETS__SYSTEM_PROMT", "10")]);
    assert_eq!(typo.status.code(), Some(2));
    assert!(
        stderr(&typo).contains("CTXC_BUDGETS__SYSTEM_PROMT") && stderr(&typo).contains("did you mean `system_prompt`?"),
        "{}",
        stderr(&typo)
    );
    let bad = ctxc(&["check", "examples/agents/zeus"], &[("CTXC_BUDGETS___SYSTEM_PROMPT", "10")]);
    assert_eq!(bad.status.code(), Some(2));
    // Settings from the environment are labelled as overrides in the report.
    let z =
        json(&["cost", ZEPH, "--mode", "code", "--scenario", "default", "--format", "json"], &[("CTXC_ZEPH__COMPACTION_THRESHOLD", "0.7")]);
    assert_eq!(z["reports"][0]["window"]["zeph"]["compaction_threshold"], serde_json::json!({ "value": 0.7, "source": "override" }));
}

/// Zeph's own variables (zeph-config 0.22.4 `env.rs`) set the Zeph agent's settings, are listed in
/// `cost`'s `env_overrides`, leave other agents alone, and a value that does not fit exits 2.
#[test]
fn zeph_variables_override_zeph_agents_only() {
    let vars = [("ZEPH_MEMORY_COMPACTION_THRESHOLD", "0.5"), ("ZEPH_MEMORY_CONTEXT_BUDGET_TOKENS", "64000")];
    let z = json(&["cost", ZEPH, "--mode", "code", "--scenario", "default", "--format", "json"], &vars);
    assert_eq!(z["env_overrides"], serde_json::json!(["@zeph zeph.compaction_threshold=0.5", "@zeph zeph.context_budget_tokens=64000"]));
    let window = &z["reports"][0]["window"]["zeph"];
    assert_eq!(window["compaction_threshold"], serde_json::json!({ "value": 0.5, "source": "override" }));
    assert_eq!((window["budget"].as_u64(), window["compaction_at"].as_u64()), (Some(64000), Some(32000)));
    let other = ctxc(&["check", "examples/agents/zeus"], &vars);
    assert!(other.status.code().is_some_and(|c| c < 2), "{}", stderr(&other));
    for bad in ["lots", "0.5.1", "", "1e999999"] {
        let out = ctxc(&["cost", ZEPH], &[("ZEPH_MEMORY_COMPACTION_THRESHOLD", bad)]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("ZEPH_MEMORY_COMPACTION_THRESHOLD"), "{bad:?}: {}", stderr(&out));
    }
    let out = ctxc(&["cost", ZEPH], &[("ZEPH_MEMORY_AUTO_BUDGET", "yes")]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn system_tables_need_their_preset() {
    let out = ctxc(&["check", "examples/agents/zeus", "--set", "zeph.compaction_threshold=0.7"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("`[zeph]` settings apply only to agents on the `zeph` preset"), "{}", stderr(&out));
}

#[test]
fn cost_reports_show_each_systems_window() {
    for (name, args) in [
        ("deepagents", vec!["cost", DEEPAGENTS, "--mode", "research", "--scenario", "default"]),
        ("zeph", vec!["cost", ZEPH, "--mode", "code", "--scenario", "indexed"]),
        ("agentscope", vec!["cost", AGENTSCOPE, "--mode", "analyze", "--scenario", "default", "--format", "markdown"]),
    ] {
        let out = ctxc(&args, &[]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_snapshot!(format!("cost-{name}"), String::from_utf8_lossy(&out.stdout));
    }
}

#[test]
fn settings_findings_read_well() {
    let out = ctxc(
        &[
            "check",
            ZEPH,
            "--set",
            "zeph.soft_compaction_threshold=0.95",
            "--set",
            "zeph.shares.summaries=0.2",
            "--set",
            "zeph.prune_protect_tokens=120000",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_snapshot!(String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_middleware_step_without_its_module_is_off_with_the_reason() {
    let dir = tempfile::tempdir().expect("tempdir");
    let manifest = "[agent]\nname = \"min\"\nmodel = \"gpt-4o\"\n[pipeline]\npreset = \"deepagents\"\n[modules]\nsystem_prompt = { source = \"p.md\" }\n";
    std::fs::write(dir.path().join("ctxc.toml"), manifest).expect("write");
    std::fs::write(dir.path().join("p.md"), "You research.\n").expect("write");
    let r = ctxc::render_mode(&dir.path().join("ctxc.toml"), "default", None).unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
    assert_eq!(ids(&r), ["system_prompt"]);
    let reason = |id: &str| r.steps.iter().find(|s| s.id == id).map(|s| s.reason.clone()).expect("step");
    assert_eq!(reason("todo"), "module `todo` is not declared, so this step adds no text");
    assert_eq!(reason("memory"), "no memory files are configured");
}

/// The ADK preset without the runtime: session state from the scenario, `transfer_to_agent`
/// first and limited to the tree, the transfer step off without a target, and a bad tree refused
/// at its key.
#[test]
fn adk_fills_state_puts_transfer_first_and_refuses_bad_trees() {
    const ADK: &str = "examples/agents/adk/ctxc.toml";
    let guest = render_with(ADK, &[], "default", "guest");
    assert_eq!(ids(&guest), ["global_instruction", "instruction", "identity", "agent_transfer"]);
    assert!(section(&guest, "instruction").text.starts_with("Help guest (membership: none) plan a trip. Current plan: .\n"));
    assert!(section(&guest, "agent_transfer").text.contains("Agents you may name: `flights`, `hotels`."));
    let tools: Vec<&str> = guest.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(tools, ["transfer_to_agent", "suggest_destinations", "entry_requirements"]);
    let session = ctxc::Session::new(Vec::new());
    let loaded = session.load(&repo().join(ADK)).expect("loads");
    let transfer = &loaded.agent.categories[0].tools[0].tool;
    assert_eq!(transfer.parameters["properties"]["agent_name"]["enum"], serde_json::json!(["flights", "hotels"]));

    let alone = render_with(ADK, &["adk.sub_agents=[]"], "default", "member");
    assert_eq!(ids(&alone), ["global_instruction", "instruction", "identity"]);
    assert!(alone.tools.iter().all(|t| t.name != "transfer_to_agent"));
    let child = render_with(ADK, &["adk.parent={ name = \"desk\" }"], "default", "member");
    assert!(section(&child, "agent_transfer").text.ends_with("\nWhen no agent fits, hand the question back to desk.\n"));
    assert_eq!(child.tools[0].name, "transfer_to_agent");

    let dir = tempfile::tempdir().expect("tempdir");
    copy_tree(&repo().join("examples/agents/adk"), dir.path());
    let manifest = dir.path().join("ctxc.toml");
    // A sub-agent without ADK's line about its parent: the transfer step is off, saying why.
    let text = std::fs::read_to_string(&manifest).expect("manifest");
    std::fs::write(&manifest, text.replace("transfer_to_parent = ", "# transfer_to_parent = ")).expect("write");
    let out = ctxc(&["render", "--steps", dir.path().to_str().expect("utf-8"), "--set", "adk.parent={ name = \"desk\" }"], &[]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("module `transfer_to_parent` (ADK's line about the parent) is not declared"));
    let text = text.replace("name = \"hotels\"", "name = \"concierge\"");
    std::fs::write(&manifest, &text).expect("write");
    let out = ctxc(&["check", dir.path().to_str().expect("utf-8")], &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("agent name `concierge` is used twice in the agent tree"), "{err}");
    let line = text.lines().position(|l| l.starts_with("sub_agents")).expect("sub_agents") + 1;
    assert!(err.contains(&format!("ctxc.toml:{line}:1")), "points at `sub_agents`: {err}");
}

/// `[adk.compaction]` is checked as google-adk 2.13.0's `EventsCompactionConfig` checks it: each
/// problem at its key (or at the table when a key is missing), exit 2.
#[test]
fn adk_compaction_is_checked_as_adk_checks_it() {
    let run = |compaction: &str| {
        let dir = tempfile::tempdir().expect("tempdir");
        let manifest = format!(
            "[agent]\nname = \"helper\"\nmodel = \"gemini-2.5-flash\"\n[pipeline]\npreset = \"adk\"\n[modules]\ninstruction = {{ source = \"i.md\" }}\n[adk.compaction]\n{compaction}"
        );
        std::fs::write(dir.path().join("ctxc.toml"), manifest).expect("write");
        std::fs::write(dir.path().join("i.md"), "You help.\n").expect("write");
        ctxc(&["check", dir.path().to_str().expect("utf-8")], &[])
    };
    let out = run("compaction_interval = 0\noverlap_size = 1\n");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("`compaction_interval` must be greater than 0") && err.contains("ctxc.toml:9:1"), "{err}");
    let out = run("token_threshold = 1000\n");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("must be set together") && err.contains("ctxc.toml:8:6"), "at the table's first value: {err}");
    let out = run("overlap_size = -1\ncompaction_interval = 2\n");
    let err = stderr(&out);
    assert!(err.contains("`overlap_size` must be 0 or more") && err.contains("ctxc.toml:9:1"), "{err}");
    let out = run("");
    let err = stderr(&out);
    assert!(err.contains("needs a trigger"), "{err}");
    let out = run("token_threshold = 1000\nevent_retention_size = 0\n");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// AgentScope 1.0.21 (`ReActAgent`): a model class sets no window there (1.x model classes have no
/// `context_size`), and `simulate` replays ReActAgent's `CompressionConfig`, not 2.0.x's policy.
#[test]
fn agentscope_1x_refuses_what_it_does_not_have() {
    let v1 = ["--set", "agentscope.version=1.0.21"];
    let with_class = ctxc(&["check", AGENTSCOPE, v1[0], v1[1]], &[]);
    assert_eq!(with_class.status.code(), Some(2), "{}", stderr(&with_class));
    assert!(stderr(&with_class).contains("model classes have no `context_size`"), "{}", stderr(&with_class));

    let dir = tempfile::tempdir().expect("tempdir");
    copy_tree(&repo().join(AGENTSCOPE), dir.path());
    let manifest = dir.path().join("ctxc.toml");
    let text = std::fs::read_to_string(&manifest).expect("read").replace("model_class = \"DashScopeChatModel\"\n", "");
    std::fs::write(&manifest, text).expect("write");
    let project = dir.path().to_str().expect("a UTF-8 path");
    let workload = repo().join("examples/workloads/agentscope-analyst.toml");
    let args = ["simulate", project, "--mode", "analyze", "--workload", workload.to_str().expect("utf-8"), v1[0], v1[1]];
    let out = ctxc(&args, &[]);
    assert_eq!(out.status.code(), Some(0), "1.0.21 replays ReActAgent (no compression_config: never compresses): {}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("agentscope 1.0.21"), "{}", String::from_utf8_lossy(&out.stdout));
    let two = ctxc(&args[..6], &[]);
    assert_eq!(two.status.code(), Some(0), "2.0.11 simulates: {}", stderr(&two));

    // `[agentscope.compression]` (CompressionConfig): its required keys named at the table, a
    // counter ctxc does not model at its value; 2.0.x has no such table.
    let original = std::fs::read_to_string(&manifest).expect("read");
    std::fs::write(&manifest, format!("{original}\n[agentscope.compression]\ntrigger_threshold = 1000\ntoken_counter = \"char\"\n"))
        .expect("write");
    let written = std::fs::read_to_string(&manifest).expect("read");
    let line = written.lines().position(|l| l == "[agentscope.compression]").expect("table") + 1;
    let out = ctxc(&["check", project, v1[0], v1[1]], &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("needs `enable`") && err.contains(&format!("ctxc.toml:{}:21", line + 1)), "at the table: {err}");
    assert!(err.contains("unknown AgentScope token counter `char`") && err.contains(&format!("ctxc.toml:{}:17", line + 2)), "{err}");
    let out = ctxc(&["check", project], &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("is ReActAgent's CompressionConfig, not in agentscope 2.0.11"), "{}", stderr(&out));
    std::fs::write(&manifest, original).expect("write");

    // `cost` shows no figure of 2.0's ContextConfig (compression point, kept after) for 1.x.
    let window = |extra: &[&str]| {
        let out = ctxc(&[&["cost", project, "--format", "json"], extra].concat(), &[]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        json["reports"][0]["window"].clone()
    };
    assert!(window(&v1).get("agentscope").is_none(), "1.0.21 has no ContextConfig: {}", window(&v1));
    assert!(window(&[])["agentscope"]["compression_at"].is_u64(), "2.0.11 compresses at its trigger");
    let text = ctxc(&["cost", project, v1[0], v1[1]], &[]);
    assert!(!String::from_utf8_lossy(&text.stdout).contains("ContextConfig"), "{}", String::from_utf8_lossy(&text.stdout));
}
