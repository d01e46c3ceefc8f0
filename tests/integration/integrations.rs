//! The CI integrations: shell completions for every shell clap_complete knows (syntax-checked
//! by bash, and by zsh and fish in the ignored test `scripts/test` runs), the pre-commit hooks, the
//! GitHub Action (action.yml) and the workflow example that uses it — valid YAML of the expected
//! shape, and every ctxc command line in them parses with ctxc's own argument parser. (actionlint
//! checks the Action and the workflows, and the install script runs, in scripts/package-check.)

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
    // `--help` before any `--`: after it, every word is a file name.
    let options = words.iter().position(|w| w == "--").unwrap_or(words.len());
    let out = Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(&words[1..options])
        .arg("--help")
        .args(&words[options..])
        .output()
        .expect("ctxc runs");
    assert!(out.status.success(), "`{}` does not parse: {}", words.join(" "), String::from_utf8_lossy(&out.stderr));
}

fn yaml(path: &str) -> Value {
    let text = std::fs::read_to_string(repo().join(path)).expect(path);
    serde_yaml::from_str(&text).expect("YAML")
}

/// The ctxc command lines of the Action's steps: each line running `"$CTXC" …`, with the
/// variables a step sets given example values.
fn action_commands(action: &Value) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    for step in action["runs"]["steps"].as_sequence().expect("steps") {
        let Some(script) = step["run"].as_str() else { continue };
        let script = script
            .replace(r#""$CTXC""#, "ctxc")
            .replace(r#""${args[@]}""#, "--deny-warnings")
            .replace(r#""${baseline[@]}""#, "--baseline ctxc-baseline.json")
            .replace(r#""$CHECK_PATH""#, ".")
            .replace(r#""$BASE""#, "HEAD")
            .replace(r#"${FAIL_ON_INCREASE:+--fail-on-increase "$FAIL_ON_INCREASE"}"#, "--fail-on-increase 10%");
        commands.extend(ctxc_lines(&script));
    }
    commands
}

#[test]
fn the_action_is_composite_and_its_commands_parse() {
    let action = yaml("action.yml");
    assert_eq!(action["runs"]["using"], "composite");
    let text = std::fs::read_to_string(repo().join("action.yml")).expect("action");
    let inputs = action["inputs"].as_mapping().expect("inputs");
    // Every `inputs.NAME` the steps read is declared.
    for used in text.split("inputs.").skip(1) {
        let name: String = used.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
        assert!(inputs.contains_key(name.as_str()), "inputs.{name} is not declared");
    }
    let joined: Vec<String> = action_commands(&action).iter().map(|c| c.join(" ")).collect();
    assert_eq!(
        joined,
        [
            "ctxc check --format github --deny-warnings .",
            "ctxc check --format sarif --deny-warnings .",
            "ctxc diff --base HEAD --format markdown --baseline ctxc-baseline.json --fail-on-increase 10% .",
        ]
    );
    for command in action_commands(&action) {
        assert_parses(&command);
    }
    // The install script is the one scripts/package-check runs against local artefacts.
    assert!(text.contains("$GITHUB_ACTION_PATH/.github/action/install-ctxc.sh"));
    assert!(repo().join(".github/action/install-ctxc.sh").is_file());
}

#[test]
fn github_actions_workflow_example_uses_the_action() {
    let workflow = yaml("docs/ci/github-actions.yml");
    let action = yaml("action.yml");
    let on = &workflow["on"];
    assert!(on.get("pull_request").is_some() && on.get("push").is_some(), "runs on pushes and pull requests: {on:?}");
    let job = &workflow["jobs"]["check"];
    assert_eq!(job["runs-on"], "ubuntu-latest");
    assert_eq!(job["permissions"]["security-events"], "write", "SARIF upload needs it");
    assert_eq!(job["permissions"]["pull-requests"], "write", "the comment needs it");
    let steps = job["steps"].as_sequence().expect("steps");
    assert_eq!(steps[0]["with"]["fetch-depth"], 0, "diff needs the base commit");
    let uses = steps[1]["uses"].as_str().expect("the action");
    assert!(uses.ends_with("/ctxc@v0.1.0"), "{uses}");
    let with = steps[1]["with"].as_mapping().expect("inputs");
    for (key, _) in with {
        assert!(action["inputs"].get(key).is_some(), "{key:?} is no input of action.yml");
    }
    let args: Vec<String> = ["ctxc", "check", "--format", "github"]
        .into_iter()
        .map(str::to_string)
        .chain(with["args"].as_str().expect("args").split_whitespace().map(str::to_string))
        .collect();
    assert_parses(&args);
}

#[test]
fn pre_commit_hooks() {
    let hooks = yaml(".pre-commit-hooks.yaml");
    let hooks = hooks.as_sequence().expect("a list of hooks");
    let ids: Vec<&str> = hooks.iter().map(|h| h["id"].as_str().expect("id")).collect();
    assert_eq!(ids, ["ctxc-check-files", "ctxc-check", "ctxc-check-locked"]);
    for hook in hooks {
        for key in ["name", "entry", "language", "files"] {
            assert!(hook[key].is_string(), "{key} in {hook:?}");
        }
        // The wheel: no Rust toolchain on a contributor's machine.
        assert_eq!(hook["language"], "python");
        let mut entry: Vec<String> = hook["entry"].as_str().expect("entry").split_whitespace().map(str::to_string).collect();
        if hook["pass_filenames"] == true {
            entry.extend(["ctxc.toml".to_string(), "prompts/system.md".to_string()]);
        }
        assert_parses(&entry);
    }
    assert_eq!(hooks[0]["entry"], "ctxc check --files --", "file names after `--`: never options");
    assert_eq!(hooks[0]["pass_filenames"], true);
    assert_eq!(hooks[1]["pass_filenames"], false);
    assert_eq!(hooks[2]["entry"], "ctxc check --locked");
}
