//! The CI integrations: shell completions for every shell clap_complete knows (syntax-checked
//! by bash, and by zsh and fish in the ignored test `scripts/test` runs), the pre-commit hooks, the
//! GitHub Action (action.yml) and the workflow example that uses it — valid YAML of the expected
//! shape, and every ctxc command line in them parses with ctxc's own argument parser. The Action
//! on hostile pull requests: no step that runs ctxc holds a token, the comment step (run with a
//! stand-in `gh`) updates only the token's own comment, and the install script (run against a
//! release folder on disk) installs the release the action's Cargo.toml records whatever the ref.
//! Third-party actions are pinned by commit; pre-commit's `pip install .` builds a wheel that
//! only requires the prebuilt `ctxc-cli`. (actionlint checks the Action and the workflows, and the
//! install script and pre-commit run against the built wheel, in scripts/package-check.)

use std::path::Path;
use std::process::{Command, Output};

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
    assert_eq!(steps[0]["with"]["persist-credentials"], false, "no token in .git/config beside the pull request's content");
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

/// The steps of action.yml whose `run` holds `needle`.
fn steps_running<'a>(action: &'a Value, needle: &str) -> Vec<&'a Value> {
    let steps = action["runs"]["steps"].as_sequence().expect("steps");
    steps.iter().filter(|s| s["run"].as_str().is_some_and(|r| r.contains(needle))).collect()
}

/// A step's `env` values, as text.
fn step_env(step: &Value) -> Vec<String> {
    step["env"]
        .as_mapping()
        .map(|m| m.iter().map(|(k, v)| format!("{}={}", k.as_str().unwrap_or(""), v.as_str().unwrap_or(""))).collect())
        .unwrap_or_default()
}

/// No step that runs ctxc on the checked-out content (a pull request's) holds a token; the one
/// step that does hold it runs no ctxc.
#[test]
fn no_step_running_ctxc_holds_a_token() {
    let action = yaml("action.yml");
    let running = steps_running(&action, "\"$CTXC\"");
    assert_eq!(running.len(), 3, "check, check --format sarif, diff");
    for step in running {
        for var in step_env(step) {
            assert!(!var.to_lowercase().contains("token"), "{:?} runs ctxc and holds {var}", step["name"]);
        }
    }
    let steps = action["runs"]["steps"].as_sequence().expect("steps");
    let holding: Vec<&Value> = steps.iter().filter(|s| step_env(s).iter().any(|v| v.contains("inputs.github-token"))).collect();
    assert_eq!(holding.len(), 1);
    assert_eq!(holding[0]["name"], "Comment the prompt changes");
    assert!(!holding[0]["run"].as_str().expect("run").contains("CTXC"));
}

/// Runs the Action's comment step with a stand-in `gh` on PATH (real `jq` for its `--jq`): it
/// answers `gh api user` with `login` (fails when None), lists `comments` for the pull request,
/// and logs every PATCH and POST. Returns the log and the step's output.
fn comment_step(job_token: bool, login: Option<&str>, comments: &serde_json::Value) -> (String, String) {
    let action = yaml("action.yml");
    let step =
        action["runs"]["steps"].as_sequence().expect("steps").iter().find(|s| s["name"] == "Comment the prompt changes").expect("the step");
    let dir = tempfile::tempdir().expect("tempdir");
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).expect("bin");
    let gh = bin.join("gh");
    std::fs::write(
        &gh,
        r#"#!/usr/bin/env bash
set -euo pipefail
log=$FAKE_DIR/calls.log
case "$*" in
"api user --jq .login") [[ -n ${FAKE_LOGIN:-} ]] && echo "$FAKE_LOGIN" || exit 1 ;;
"api graphql"*) exit 1 ;;
"api --paginate "*) [[ $3 == repos/owner/repo/issues/7/comments && $4 == --jq ]]; jq -r "$5" "$FAKE_DIR/comments.json" ;;
"api --method "*) echo "$3 $4 $5" >> "$log" ;;
*) echo "unexpected gh $*" >&2; exit 3 ;;
esac
"#,
    )
    .expect("gh");
    std::fs::set_permissions(&gh, std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("chmod");
    std::fs::write(dir.path().join("comments.json"), comments.to_string()).expect("comments");
    std::fs::write(dir.path().join("ctxc-diff.md"), "| mode | tokens |").expect("diff");
    std::fs::write(dir.path().join("calls.log"), "").expect("log");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new(common::require_tool("bash"))
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"].as_str().expect("run")])
        .env("PATH", path)
        .env("FAKE_DIR", dir.path())
        .env("FAKE_LOGIN", login.unwrap_or(""))
        .env("RUNNER_TEMP", dir.path())
        .env("GITHUB_REPOSITORY", "owner/repo")
        .env("PULL_REQUEST", "7")
        .env("GH_TOKEN", "a-token")
        .env("IS_JOB_TOKEN", if job_token { "true" } else { "false" })
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    (std::fs::read_to_string(dir.path().join("calls.log")).expect("log"), stdout)
}

/// Anyone can comment first with the marker: the comment updated is the token's own.
#[test]
fn the_pull_request_comment_updated_is_the_tokens_own() {
    let comment = |id: u64, login: &str, body: &str| serde_json::json!({ "id": id, "user": { "login": login }, "body": body });
    let marked = "<!-- ctxc diff -->\nthe old table";
    let comments = serde_json::json!([
        comment(11, "mallory", marked),
        comment(12, "github-actions[bot]", "no marker"),
        comment(13, "github-actions[bot]", marked),
        comment(14, "ci-user", marked),
    ]);
    // The job's GITHUB_TOKEN: github-actions[bot]'s comment.
    let (calls, _) = comment_step(true, None, &comments);
    assert_eq!(calls, "PATCH repos/owner/repo/issues/comments/13 -f\n");
    // A personal access token: its user's.
    let (calls, _) = comment_step(false, Some("ci-user"), &comments);
    assert_eq!(calls, "PATCH repos/owner/repo/issues/comments/14 -f\n");
    // Only someone else's marked comment: a new comment, theirs untouched.
    let (calls, _) = comment_step(true, None, &serde_json::json!([comment(11, "mallory", marked)]));
    assert_eq!(calls, "POST repos/owner/repo/issues/7/comments -f\n");
    // A token whose owner cannot be told: no comment at all rather than a guess.
    let (calls, stdout) = comment_step(false, None, &comments);
    assert_eq!(calls, "");
    assert!(stdout.contains("::warning::ctxc: could not tell whose the token is"), "{stdout}");
}

/// A release folder as the release workflow lays it out, for each Linux target an archive (and
/// its `.sha256`) whose `ctxc` is a script reporting `version`: the install script reads it at
/// `file://` URLs, so nothing is downloaded.
fn fake_release(releases: &Path, version: &str) {
    let folder = releases.join(format!("v{version}"));
    std::fs::create_dir_all(&folder).expect("release folder");
    let bin = tempfile::tempdir().expect("tempdir");
    std::fs::write(bin.path().join("ctxc"), format!("#!/bin/sh\necho 'ctxc {version}'\n")).expect("ctxc");
    for target in ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"] {
        let archive = format!("ctxc-{target}.tar.gz");
        let script = format!(
            "chmod +x '{0}/ctxc' && tar -czf '{archive}' -C '{0}' ctxc && sha256sum '{archive}' > '{archive}.sha256'",
            bin.path().display()
        );
        let status = Command::new("bash").args(["-c", &script]).current_dir(&folder).status().expect("bash runs");
        assert!(status.success());
    }
}

/// Runs the Action's install script as action.yml does, with `CTXC_VERSION` the `version` input
/// and the action's own files at `action_path`.
fn install_ctxc(releases: &Path, action_path: &Path, action_ref: &str, version_input: &str) -> (Output, tempfile::TempDir) {
    let dest = tempfile::tempdir().expect("tempdir");
    let out = Command::new("bash")
        .arg(repo().join(".github/action/install-ctxc.sh"))
        .env_remove("GITHUB_PATH")
        .env("CTXC_VERSION", version_input)
        .env("CTXC_ACTION_REF", action_ref)
        .env("GITHUB_ACTION_PATH", action_path)
        .env("CTXC_RELEASES", format!("file://{}", releases.display()))
        .env("CTXC_DEST", dest.path())
        .output()
        .expect("bash runs");
    (out, dest)
}

/// Pinned by commit SHA, by branch or by tag, the Action installs the release its own Cargo.toml
/// records (a SHA names no release: `v<sha>` would be downloaded); a version tag that disagrees
/// with Cargo.toml, or a `version` input that is no version, is refused.
#[test]
fn the_action_installs_the_release_its_source_records() {
    let version = env!("CARGO_PKG_VERSION");
    let releases = tempfile::tempdir().expect("tempdir");
    fake_release(releases.path(), version);
    fake_release(releases.path(), "0.0.7");
    let installed = |(out, _dest): (Output, tempfile::TempDir)| {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let binary = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let reported = Command::new(&binary).arg("--version").output().expect("installed ctxc runs");
        String::from_utf8_lossy(&reported.stdout).trim().to_string()
    };
    let expected = format!("ctxc {version}");
    for action_ref in ["0123456789abcdef0123456789abcdef01234567", "main", &format!("v{version}"), "v0", ""] {
        assert_eq!(installed(install_ctxc(releases.path(), repo(), action_ref, "")), expected, "at {action_ref:?}");
    }
    // The `version` input wins over the ref.
    assert_eq!(installed(install_ctxc(releases.path(), repo(), "main", "0.0.7")), "ctxc 0.0.7");
    let refused = |(out, _dest): (Output, tempfile::TempDir), why: &str| {
        assert!(!out.status.success());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(why), "{stderr}");
    };
    refused(install_ctxc(releases.path(), repo(), "v9.9.9", ""), "used at v9.9.9, but its Cargo.toml records version");
    refused(install_ctxc(releases.path(), repo(), "main", "0123456789abcdef0123456789abcdef01234567"), "not a release version");
    let empty = tempfile::tempdir().expect("tempdir");
    refused(install_ctxc(releases.path(), empty.path(), "main", ""), "Cargo.toml is missing");
}

/// Every action the workflows and the Action use from another repository is pinned by full commit
/// SHA, its tag in a comment (the example's own `your-org/ctxc` stands for the reader's pin); the
/// release publishes with trusted publishing, no registry token from the secrets.
#[test]
fn third_party_actions_are_pinned_by_commit_and_no_registry_token_is_stored() {
    let pin = regex::Regex::new(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$").expect("regex");
    let mut seen = 0;
    for path in [".github/workflows/release.yml", "action.yml", "docs/ci/github-actions.yml"] {
        let text = std::fs::read_to_string(repo().join(path)).expect(path);
        for line in text.lines().filter_map(|l| l.trim_start().trim_start_matches("- ").strip_prefix("uses: ")) {
            if line.starts_with("./") || line.starts_with("your-org/") {
                continue;
            }
            assert!(pin.is_match(line), "{path}: `{line}` is not pinned by commit SHA with its tag");
            seen += 1;
        }
        assert!(!text.contains("${{ secrets."), "{path} reads a stored secret");
    }
    assert!(seen >= 10, "{seen} pins");
    let release = yaml(".github/workflows/release.yml");
    for job in ["pypi", "crates-io"] {
        assert_eq!(release["jobs"][job]["permissions"]["id-token"], "write", "{job}: trusted publishing");
    }
    let text = std::fs::read_to_string(repo().join(".github/workflows/release.yml")).expect("release");
    assert!(text.contains("rust-lang/crates-io-auth-action@"));
    assert!(text.contains("CARGO_REGISTRY_TOKEN: ${{ steps.auth.outputs.token }}"));
}

/// pre-commit runs `pip install .` at the root of the hook repository: the root pyproject.toml
/// must be a package that compiles nothing and downloads no build tool (its backend is in the
/// repository, with no requirement), and its wheel must require the prebuilt `ctxc-cli` wheel of
/// the version Cargo.toml records. (scripts/package-check installs the hooks with pre-commit
/// itself, against the wheel it builds.)
#[test]
fn pre_commit_installs_the_prebuilt_wheel() {
    let read = |path: &str| -> toml::Value { toml::from_str(&std::fs::read_to_string(repo().join(path)).expect(path)).expect("TOML") };
    let root = read("pyproject.toml");
    assert_eq!(root["build-system"]["build-backend"].as_str(), Some("ctxc_hooks_backend"));
    assert_eq!(root["build-system"]["requires"].as_array().map(Vec::len), Some(0), "nothing to download to build it");
    assert_eq!(root["build-system"]["backend-path"].as_array().and_then(|p| p[0].as_str()), Some("python"));
    let wheel = read("python/ctxc-cli/pyproject.toml");
    assert_eq!(wheel["project"]["name"].as_str(), Some("ctxc-cli"));
    assert_eq!(wheel["tool"]["maturin"]["manifest-path"].as_str(), Some("../../Cargo.toml"));
    let dir = tempfile::tempdir().expect("tempdir");
    let build = "import sys, zipfile\n\
                 sys.path.insert(0, 'python')\n\
                 import ctxc_hooks_backend as backend\n\
                 name = backend.build_wheel(sys.argv[1])\n\
                 wheel = zipfile.ZipFile(sys.argv[1] + '/' + name)\n\
                 print(name)\n\
                 print(sorted(wheel.namelist()))\n\
                 print(wheel.read(name.split('-py3')[0] + '.dist-info/METADATA').decode())";
    let out = Command::new(common::require_tool("python3"))
        .args(["-c", build])
        .arg(dir.path())
        .current_dir(repo())
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8(out.stdout).expect("UTF-8");
    let version = env!("CARGO_PKG_VERSION");
    let dist_info = format!("ctxc_pre_commit-{version}.dist-info");
    assert!(printed.starts_with(&format!("ctxc_pre_commit-{version}-py3-none-any.whl\n")), "{printed}");
    assert!(printed.contains(&format!("['{dist_info}/METADATA', '{dist_info}/RECORD', '{dist_info}/WHEEL']")), "metadata alone: {printed}");
    assert!(printed.contains(&format!("\nRequires-Dist: ctxc-cli=={version}\n")), "{printed}");
    assert_eq!(printed.matches("Requires-Dist:").count(), 1, "{printed}");
}
