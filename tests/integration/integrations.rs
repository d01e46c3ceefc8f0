//! The CI integrations: shell completions for every shell clap_complete knows (syntax-checked
//! by bash, and by zsh and fish in the ignored test `scripts/test` runs), the pre-commit hooks and the GitHub Actions workflow
//! example — valid YAML of the expected shape, and every ctxc command line in them parses with
//! ctxc's own argument parser.

use std::path::Path;
use std::process::Command;

use crate::common;

use serde_yaml::Value;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn completions(shell: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ctxc")).args(["completions", shell]).output().expect("ctxc runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = completions(shell);
        for word in ["snapshot", "diff", "completions", "fail-on-increase", "locked"] {
            assert!(script.contains(word), "{shell} completion lacks {word}");
        }
    }
    let unknown = Command::new(env!("CARGO_BIN_EXE_ctxc")).args(["completions", "tcsh"]).output().expect("runs");
    assert_eq!(unknown.status.code(), Some(2));
}

/// Syntax-checks a completion script with its own shell.
fn assert_valid_for_shell(shell: &str, check_flag: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join(format!("ctxc.{shell}"));
    std::fs::write(&file, completions(shell)).expect("write");
    let out = Command::new(common::require_tool(shell)).arg(check_flag).arg(&file).output().expect("shell runs");
    assert!(out.status.success(), "{shell}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn bash_completion_script_is_valid() {
    assert_valid_for_shell("bash", "-n");
}

#[test]
#[ignore = "needs zsh and fish: run by scripts/test, which installs them"]
fn zsh_and_fish_completion_scripts_are_valid() {
    assert_valid_for_shell("zsh", "-n");
    assert_valid_for_shell("fish", "--no-execute");
}

/// The ctxc command lines of a shell snippet: each line that runs `ctxc …`, up to a
/// redirection or operator, with quotes removed.
fn ctxc_lines(script: &str) -> Vec<Vec<String>> {
    script
        .lines()
        .filter(|line| line.trim_start().starts_with("ctxc "))
        .map(|line| {
            line.split_whitespace()
                .take_while(|w| !matches!(*w, ">" | ">>" | "|" | "||" | "&&" | ";" | "#"))
                .map(|w| w.trim_matches('"').to_string())
                .collect()
        })
        .collect()
}

/// Parses a command line with ctxc's own parser and runs nothing: `--help` at the end stops
/// clap once every argument before it has been checked.
fn assert_parses(words: &[String]) {
    let out = Command::new(env!("CARGO_BIN_EXE_ctxc")).args(&words[1..]).arg("--help").output().expect("ctxc runs");
    assert!(out.status.success(), "`{}` does not parse: {}", words.join(" "), String::from_utf8_lossy(&out.stderr));
}

#[test]
fn github_actions_workflow_example_is_a_valid_workflow() {
    let text = std::fs::read_to_string(repo().join("docs/ci/github-actions.yml")).expect("workflow");
    let workflow: Value = serde_yaml::from_str(&text).expect("YAML");
    assert!(workflow["name"].is_string());
    let on = &workflow["on"];
    assert!(on.get("pull_request").is_some() && on.get("push").is_some(), "runs on pushes and pull requests: {on:?}");
    let jobs = workflow["jobs"].as_mapping().expect("jobs");
    assert_eq!(jobs.len(), 2);
    let mut commands = Vec::new();
    let mut uses = Vec::new();
    for (name, job) in jobs {
        assert_eq!(job["runs-on"], "ubuntu-latest", "{name:?}");
        for step in job["steps"].as_sequence().expect("steps") {
            match (step.get("uses"), step.get("run")) {
                (Some(action), None) => uses.push(action.as_str().expect("action").to_string()),
                (None, Some(run)) => commands.extend(ctxc_lines(run.as_str().expect("script"))),
                _ => panic!("a step has either `uses` or `run`: {step:?}"),
            }
        }
    }
    for action in ["actions/checkout@v4", "github/codeql-action/upload-sarif@v3", "marocchino/sticky-pull-request-comment@v2"] {
        assert!(uses.iter().any(|u| u == action), "{action}");
    }
    // Variables named CTXC_… would be read by ctxc as manifest overrides.
    let mut env_keys: Vec<String> = Vec::new();
    let mut collect =
        |env: &Value| env_keys.extend(env.as_mapping().into_iter().flatten().filter_map(|(k, _)| k.as_str().map(str::to_string)));
    collect(&workflow["env"]);
    for job in jobs.values() {
        collect(&job["env"]);
        job["steps"].as_sequence().into_iter().flatten().for_each(|step| collect(&step["env"]));
    }
    assert!(env_keys.contains(&"INSTALL_CTXC_FROM".to_string()) && env_keys.contains(&"BASE".to_string()), "{env_keys:?}");
    assert!(!env_keys.iter().any(|k| k.starts_with("CTXC_")), "{env_keys:?}");
    let joined: Vec<String> = commands.iter().map(|c| c.join(" ")).collect();
    for expected in [
        "ctxc check --format github .",
        "ctxc check --format sarif .",
        "ctxc check --locked .",
        "ctxc diff --base $BASE --format markdown --fail-on-increase 10% .",
    ] {
        assert!(joined.iter().any(|c| c == expected), "{expected} in {joined:?}");
    }
    for command in &commands {
        assert_parses(command);
    }
    assert_eq!(workflow["jobs"]["check"]["permissions"]["security-events"], "write", "SARIF upload needs it");
    assert_eq!(workflow["jobs"]["diff"]["permissions"]["pull-requests"], "write", "the comment needs it");
    assert_eq!(workflow["jobs"]["diff"]["steps"][0]["with"]["fetch-depth"], 0, "diff needs the base commit");
}

#[test]
fn pre_commit_hooks() {
    let text = std::fs::read_to_string(repo().join(".pre-commit-hooks.yaml")).expect("hooks");
    let hooks: Value = serde_yaml::from_str(&text).expect("YAML");
    let hooks = hooks.as_sequence().expect("a list of hooks");
    let ids: Vec<&str> = hooks.iter().map(|h| h["id"].as_str().expect("id")).collect();
    assert_eq!(ids, ["ctxc-check", "ctxc-check-locked"]);
    for hook in hooks {
        for key in ["name", "entry", "language", "files"] {
            assert!(hook[key].is_string(), "{key} in {hook:?}");
        }
        assert_eq!(hook["language"], "rust");
        assert_eq!(hook["pass_filenames"], false);
        let entry: Vec<String> = hook["entry"].as_str().expect("entry").split_whitespace().map(str::to_string).collect();
        assert_parses(&entry);
    }
    assert_eq!(hooks[1]["entry"], "ctxc check --locked");
}
