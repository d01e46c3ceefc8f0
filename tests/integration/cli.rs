//! CLI tests: real invocations of the binary, colour off, from the repository root.

use std::path::Path;
use std::process::{Command, Output};

fn ctxc(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .expect("ctxc runs")
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every case under tests/fixtures/errors fails to load: exit 2, nothing on stdout, and a
/// diagnostic with file, line and column on stderr.
#[test]
fn unloadable_input_gets_a_diagnostic_and_exit_2() {
    insta::glob!("../fixtures/errors", "*/ctxc.{toml,yaml}", |manifest| {
        let dir = manifest.parent().expect("fixture folder");
        let rel = dir.strip_prefix(repo()).expect("inside the repo");
        let out = ctxc(&["render", rel.to_str().expect("utf-8 path")], repo());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(out.stdout.is_empty(), "stdout must stay empty: {}", String::from_utf8_lossy(&out.stdout));
        assert!(stderr.contains("╭─["), "diagnostic points into a file: {stderr}");
        assert_snapshot!(stderr);
    });
}

#[test]
fn renders_are_byte_identical_across_runs_and_working_directories() {
    let first = ctxc(&["render", "--mode", "plan", "examples/agents/zeus"], repo());
    let second = ctxc(&["render", "--mode", "plan", "examples/agents/zeus"], repo());
    let elsewhere = ctxc(&["render", "--mode", "plan", "zeus"], &repo().join("examples/agents"));
    assert_eq!(first.status.code(), Some(0), "{}", String::from_utf8_lossy(&first.stderr));
    assert_eq!(first.stdout, second.stdout);
    assert_eq!(first.stdout, elsewhere.stdout);
    let json = ctxc(&["render", "--mode", "agent", "--scenario", "connected", "--format", "json", "examples/agents/zeus"], repo());
    let json_elsewhere =
        ctxc(&["render", "--mode", "agent", "--scenario", "connected", "--format", "json", "."], &repo().join("examples/agents/zeus"));
    assert_eq!(json.stdout, json_elsewhere.stdout, "JSON holds no absolute or cwd-dependent paths");
}

#[test]
fn json_output_has_the_documented_shape() {
    let out = ctxc(&["render", "--mode", "ask", "--format", "json", "examples/agents/zeus"], repo());
    assert_eq!(out.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let keys: Vec<&str> = value.as_object().expect("object").keys().map(String::as_str).collect();
    // serde_json keeps insertion order (preserve_order): the keys come in the order the render declares them.
    assert_eq!(keys, ["agent", "mode", "scenario", "model", "modelled", "sections", "steps", "tools", "prompt"]);
    assert_eq!(value["modelled"], "Zeus documentation (docs.zeus.agentspro.cn, November 2026)");
    let section = &value["sections"][0];
    assert_eq!(section["step"], 1);
    assert_eq!(section["id"], "core");
    assert_eq!(section["kind"], "module");
    assert_eq!(section["sources"][0], "prompts/core.md");
    let write_file = value["tools"].as_array().expect("tools").iter().find(|t| t["name"] == "write_file").expect("write_file");
    assert_eq!(write_file["enabled"], false);
    assert_eq!(write_file["access"], "write");
    assert_eq!(write_file["reason"], "writes, and ask mode gives `filesystem` read-only access");
}

#[test]
fn usage_errors() {
    let several = ctxc(&["render", "tests/fixtures/render", "--mode", "plan"], repo());
    let no_mode = ctxc(&["render", "examples/agents/zeus"], repo());
    let bad_mode = ctxc(&["render", "examples/agents/zeus", "--mode", "plam"], repo());
    let nothing = ctxc(&["render", "src"], repo());
    for out in [&several, &no_mode, &bad_mode, &nothing] {
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
    }
    let text = [several, no_mode, bad_mode, nothing].map(|o| String::from_utf8_lossy(&o.stderr).into_owned()).join("\n");
    assert_snapshot!(text);
}

#[test]
fn schema_command_prints_the_checked_in_schema() {
    let out = ctxc(&["schema"], repo());
    let checked_in = std::fs::read(repo().join("schemas/ctxc.schema.json")).expect("schema file");
    assert_eq!(out.stdout, checked_in);
}

/// A Deep Agents deploy project in a temporary folder.
fn deploy_project(agent_json: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("agent.json"), agent_json).expect("write");
    std::fs::write(dir.path().join("AGENTS.md"), "# Desk\n").expect("write");
    dir
}

/// `ctxc upstream` runs only an interpreter the user named, never one the checked-out files hold:
/// a committed `.venv/bin/python` is not run when none is named, nor when named by VIRTUAL_ENV
/// or `--python` (there or from `import deepagents`).
#[cfg(unix)]
#[test]
fn upstream_never_runs_an_interpreter_from_the_repository() {
    let dir = deploy_project("{\n  \"name\": \"desk\",\n  \"model\": \"anthropic:claude-opus-4-7\"\n}\n");
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir");
    let path = dir.path().to_str().expect("utf-8 path");
    assert_eq!(ctxc(&["import", "deepagents", path], repo()).status.code(), Some(0));
    let canary = dir.path().join("canary");
    let python = dir.path().join(".venv/bin/python");
    std::fs::create_dir_all(python.parent().expect("bin")).expect("mkdir");
    std::fs::write(&python, format!("#!/bin/sh\ntouch '{}'\n", canary.display())).expect("write");
    std::fs::set_permissions(&python, std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("chmod");
    let venv = dir.path().join(".venv");
    let python = python.to_str().expect("utf-8 path");
    let runs: [(&[&str], Option<&Path>, &str); 4] = [
        (&["upstream", path], None, "no Python interpreter named"),
        (&["upstream", path], Some(&venv), "VIRTUAL_ENV"),
        (&["upstream", path, "--python", python], None, "--python"),
        (&["import", "deepagents", path, "--force", "--python", python], None, "--python"),
    ];
    for (args, virtual_env, says) in runs {
        let mut command = Command::new(env!("CARGO_BIN_EXE_ctxc"));
        command.args(args).current_dir(dir.path()).env("NO_COLOR", "1").env_remove("VIRTUAL_ENV");
        if let Some(env) = virtual_env {
            command.env("VIRTUAL_ENV", env);
        }
        let out = command.output().expect("ctxc runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says) && stderr.contains("--python"), "{args:?}: says what to name: {stderr}");
        if virtual_env.is_some() || args.contains(&"--python") {
            assert!(stderr.contains("is inside"), "{args:?}: {stderr}");
        }
        assert!(!canary.exists(), "{args:?}: the committed interpreter ran");
    }
}

#[test]
fn import_deepagents_writes_once_and_replaces_only_with_force() {
    let dir = deploy_project("{\n  \"name\": \"desk\",\n  \"model\": \"anthropic:claude-opus-4-7\",\n  \"extras\": {}\n}\n");
    let path = dir.path().to_str().expect("utf-8 path");
    let out = ctxc(&["import", "deepagents", path], repo());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("agent.json:4:3"), "the note on `extras` points at its line: {stderr}");
    let manifest = dir.path().join("ctxc.toml");
    let first = std::fs::read_to_string(&manifest).expect("written");
    assert!(first.contains("mount = \"/memories/\""), "{first}");
    assert!(stderr.contains("next: `ctxc upstream") && stderr.contains("--python PY"), "says how to get the texts: {stderr}");
    // No environment with Deep Agents here: one error saying what to pass, nothing written.
    let out = ctxc(&["upstream", path], repo());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no Python interpreter named") && stderr.contains("--python"), "{stderr}");
    assert!(!dir.path().join("upstream").exists());

    std::fs::write(&manifest, "# mine\n").expect("write");
    let out = ctxc(&["import", "deepagents", path, "--layout", "local"], repo());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("exists: not overwritten"), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(&manifest).expect("read"), "# mine\n", "left as it was");

    let out = ctxc(&["import", "deepagents", path, "--layout", "local", "--force"], repo());
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let replaced = std::fs::read_to_string(&manifest).expect("read");
    assert!(replaced.contains("--layout local") && !replaced.contains("mount ="), "{replaced}");
}

#[cfg(unix)]
#[test]
fn import_force_replaces_a_ctxc_toml_symlink_and_never_writes_through_it() {
    let outside = tempfile::tempdir().expect("tempdir");
    let target = outside.path().join("precious.txt");
    std::fs::write(&target, "keep me\n").expect("write");
    let dir = deploy_project("{\"name\": \"desk\"}");
    std::os::unix::fs::symlink(&target, dir.path().join("ctxc.toml")).expect("symlink");
    let path = dir.path().to_str().expect("utf-8 path");

    let out = ctxc(&["import", "deepagents", path], repo());
    assert_eq!(out.status.code(), Some(2), "a symlink counts as an existing file");
    let out = ctxc(&["import", "deepagents", path, "--force"], repo());
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(&target).expect("read"), "keep me\n", "the file outside is untouched");
    let manifest = dir.path().join("ctxc.toml");
    assert!(!std::fs::symlink_metadata(&manifest).expect("there").file_type().is_symlink(), "the link was replaced by a file");
    assert!(std::fs::read_to_string(&manifest).expect("read").contains("name = \"desk\""));
}

#[test]
fn import_deepagents_bad_agent_json_points_at_the_error() {
    let dir = deploy_project("{\n  \"name\": \"desk\",\n  \"model\": ,\n}\n");
    let out = ctxc(&["import", "deepagents", dir.path().to_str().expect("utf-8 path")], repo());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("agent.json:3:12"), "file:line:col of the bad value: {stderr}");
    assert!(!dir.path().join("ctxc.toml").exists(), "no partial output");

    let empty = tempfile::tempdir().expect("tempdir");
    let out = ctxc(&["import", "deepagents", empty.path().to_str().expect("utf-8 path")], repo());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("agent.json"), "{}", String::from_utf8_lossy(&out.stderr));
}

/// An imported ADK agent with no global instruction and no sub-agents checks clean: ADK leaves
/// those parts out, so the preset's steps for them staying off is no MAN004 finding.
#[test]
fn import_adk_of_a_plain_agent_checks_clean() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir");
    std::fs::write(
        dir.path().join("root_agent.yaml"),
        "name: helper
model: gemini-2.5-flash
instruction: |
  You help.
",
    )
    .expect("write");
    let path = dir.path().to_str().expect("utf-8 path");
    let out = ctxc(&["import", "adk", path], repo());
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let out = ctxc(&["check", "--format", "concise", path], repo());
    let shown = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{shown}");
    assert!(!shown.contains("MAN004"), "{shown}");
}

/// `CTXC_TIMINGS=1` adds one `timings` line per stage to stderr, in the stages' order, the
/// report's last, each a name padded to 20 and milliseconds with one decimal; `0` and empty
/// add none, and stdout is the same bytes either way. Times are not compared: only the shape.
#[test]
fn timings_are_one_line_per_stage_on_stderr_and_change_nothing_else() {
    let line = regex::Regex::new(r"^timings (.{20}) +\d+\.\d ms$").expect("pattern");
    let stages = ["load", "resolve and render", "measure", "checks", "lint rules", "agent files", "report"];
    for args in [&["cost", "examples/agents/support-triage", "--mode", "triage"][..], &["check", "examples/agents/support-triage"]] {
        let run = |timings: Option<&str>| {
            let mut command = Command::new(env!("CARGO_BIN_EXE_ctxc"));
            command.args(args).current_dir(repo()).env("NO_COLOR", "1").env_remove("GITHUB_STEP_SUMMARY").env_remove("CTXC_TIMINGS");
            if let Some(value) = timings {
                command.env("CTXC_TIMINGS", value);
            }
            command.output().expect("ctxc runs")
        };
        let (plain, timed) = (run(None), run(Some("1")));
        assert_eq!((plain.status.code(), timed.status.code()), (Some(0), Some(0)), "{args:?}");
        assert_eq!(plain.stdout, timed.stdout, "{args:?}: stdout changed");
        let stderr = String::from_utf8(timed.stderr).expect("UTF-8");
        let names: Vec<String> = stderr
            .lines()
            .filter(|l| l.starts_with("timings"))
            .map(|l| line.captures(l).unwrap_or_else(|| panic!("{args:?}: not a timings line: {l:?}"))[1].trim_end().to_string())
            .collect();
        assert_eq!(names, stages, "{args:?}:\n{stderr}");
        let rest: Vec<&str> = stderr.lines().filter(|l| !l.starts_with("timings")).collect();
        assert_eq!(rest, String::from_utf8_lossy(&plain.stderr).lines().collect::<Vec<_>>(), "{args:?}: stderr besides the timings");
        for off in ["0", ""] {
            assert_eq!(run(Some(off)).stderr, plain.stderr, "{args:?}: CTXC_TIMINGS={off:?} prints nothing");
        }
    }
}
