//! Hostile conditions around the CLI (issue 12): a reader that closes the pipe early, unrelated
//! `CTXC_…` variables in the environment, and secrets in what `render` prints and `snapshot`
//! writes. Real invocations of the binary, colour off.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::{project, walk};

const SECRET: &str = "sk-proj-Hq3Zr8VbN2kTw5Lm9Xc4Jd7Fs1Gy6Pe0Ua2Ri";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn command(args: &[&str], cwd: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ctxc"));
    command.args(args).current_dir(cwd).env("NO_COLOR", "1").env_remove("GITHUB_STEP_SUMMARY");
    command
}

fn ctxc(args: &[&str], cwd: &Path, env: &[(&str, &str)]) -> Output {
    command(args, cwd).envs(env.iter().copied()).output().expect("ctxc runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs ctxc with stdout a pipe the reader closes early: after reading the first line, or (when
/// `first_line` is false) before reading anything, so that ctxc's first write already fails.
fn with_closed_pipe(args: &[&str], first_line: bool) -> Output {
    let mut child = command(args, repo()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("ctxc starts");
    let out = child.stdout.take().expect("piped stdout");
    if first_line {
        let mut line = String::new();
        BufReader::new(out).read_line(&mut line).expect("first line");
        assert!(!line.is_empty(), "ctxc {args:?} printed nothing");
    } else {
        drop(out);
    }
    child.wait_with_output().expect("ctxc ends")
}

/// `ctxc … | head -1` for every command with a lot of output: no panic, nothing on stderr, and the
/// exit status the run earned (the same as with a reader that reads everything).
#[test]
fn a_closed_pipe_ends_the_run_quietly_with_its_own_exit_status() {
    let cases: [&[&str]; 8] = [
        &["cost", "examples/agents"],
        &["cost", "examples/agents", "--format", "json"],
        &["render", "examples/agents/zeus", "--mode", "plan"],
        &["check", "examples/agents", "--format", "json"],
        &["check", "tests/fixtures/rules/SEC001/fail", "--format", "json"],
        &["models"],
        &["rules"],
        &["schema"],
    ];
    for args in cases {
        let full = ctxc(args, repo(), &[]);
        assert!(!full.stdout.is_empty(), "{args:?}: {}", stderr(&full));
        let expected = full.status.code();
        for first_line in [true, false] {
            for run in 0..3 {
                let out = with_closed_pipe(args, first_line);
                assert_eq!(out.status.code(), expected, "{args:?} (first line read: {first_line}, run {run}): {}", stderr(&out));
                assert_eq!(stderr(&out), "", "{args:?} (first line read: {first_line}, run {run})");
            }
        }
    }
    // A run with findings keeps exit 1: a closed pipe cannot turn a failed gate into a pass.
    assert_eq!(ctxc(&["check", "tests/fixtures/rules/SEC001/fail", "--format", "json"], repo(), &[]).status.code(), Some(1));
}

/// The same for stderr (`ctxc check 2>&1 | head -1`): the diagnostics stop, the verdict stays.
#[test]
fn a_closed_stderr_pipe_keeps_the_exit_status() {
    for (path, expected) in [("examples/agents", 0), ("tests/fixtures/rules/SEC001/fail", 1)] {
        assert!(!ctxc(&["check", path], repo(), &[]).stderr.is_empty(), "{path} has diagnostics to print");
        for run in 0..3 {
            let mut child = command(&["check", path], repo()).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("ctxc starts");
            drop(child.stderr.take());
            assert_eq!(child.wait().expect("ctxc ends").code(), Some(expected), "{path}, run {run}");
        }
    }
}

/// Other failures to write stdout are not quiet: one line on stderr and exit 2.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_on_stdout_is_an_error() {
    let full = std::fs::File::create("/dev/full").expect("/dev/full exists on Linux");
    let out = command(&["models"], repo()).stdout(full).output().expect("ctxc runs");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), "ctxc: cannot write to standard output: No space left on device (os error 28)\n");
}

/// Only `CTXC_<SECTION>__…` variables are manifest overrides: others are left to whoever set them.
#[test]
fn unrelated_ctxc_variables_are_ignored() {
    let clean = ctxc(&["check", "examples/agents/zeus"], repo(), &[]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    for (name, value) in [("CTXC_VERSION", "1.2"), ("CTXC_", "x"), ("CTXC_BUDGETS_SYSTEM_PROMPT", "10"), ("CTXC_TOKEN", "not = [toml")] {
        let out = ctxc(&["check", "examples/agents/zeus"], repo(), &[(name, value)]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        assert_eq!(stderr(&out), stderr(&clean), "{name}");
    }
    let render = ctxc(&["render", "examples/agents/zeus", "--mode", "plan"], repo(), &[("CTXC_VERSION", "1.2")]);
    assert_eq!(render.status.code(), Some(0), "{}", stderr(&render));
}

/// Not valid UTF-8 is only an error in a variable ctxc reads.
#[cfg(unix)]
#[test]
fn an_unrelated_variable_that_is_not_utf8_is_ignored_too() {
    use std::os::unix::ffi::OsStrExt;
    let bytes = std::ffi::OsStr::from_bytes(b"\xff\xfe");
    let unrelated = command(&["check", "examples/agents/zeus"], repo()).env("CTXC_VERSION", bytes).output().expect("ctxc runs");
    assert_eq!(unrelated.status.code(), Some(0), "{}", stderr(&unrelated));
    let read = command(&["check", "examples/agents/zeus"], repo()).env("CTXC_BUDGETS__SYSTEM_PROMPT", bytes).output().expect("ctxc runs");
    assert_eq!(read.status.code(), Some(2));
    assert!(stderr(&read).contains("environment variable `CTXC_BUDGETS__SYSTEM_PROMPT` is not valid UTF-8"), "{}", stderr(&read));
}

/// A variable shaped like a key that names none is still a usage error with a "did you mean".
#[test]
fn a_near_miss_of_a_real_key_still_fails_with_a_suggestion() {
    let out = ctxc(&["check", "examples/agents/zeus"], repo(), &[("CTXC_VERSION", "1.2"), ("CTXC_BUDGET__SYSTEM_PROMPT", "10")]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("× CTXC_BUDGET__SYSTEM_PROMPT: unknown field `budget`"), "{err}");
    assert!(err.contains("(did you mean `budgets`?)"), "{err}");
    assert!(!err.contains("CTXC_VERSION"), "{err}");
    assert!(out.stdout.is_empty());
    // And a real key still applies: the budget is now overrun.
    let applied = ctxc(&["check", "examples/agents/zeus", "--format", "json"], repo(), &[("CTXC_BUDGETS__SYSTEM_PROMPT", "10")]);
    assert_eq!(applied.status.code(), Some(1), "{}", stderr(&applied));
    assert!(stdout(&applied).contains("\"code\": \"BUDGET001\""), "{}", stdout(&applied));
}

const MANIFEST: &str = "[agent]\nname = \"fixture\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [\n  { id = \"core\", kind = \"module\" },\n]\n\n[modules]\ncore = { source = \"core.md\" }\n";

/// An agent whose prompt holds an OpenAI key, at core.md:3:27.
fn leaky_agent() -> tempfile::TempDir {
    project(&[("ctxc.toml", MANIFEST), ("core.md", &format!("You are a helpful assistant.\n\nCall the billing API with {SECRET}.\n"))])
}

/// Masked means at most the first four characters.
fn assert_masked(text: &str) {
    assert!(!text.contains(&SECRET[..5]), "the secret leaked: {text}");
}

#[test]
fn render_prints_the_prompt_and_names_the_secret_masked_on_stderr() {
    let dir = leaky_agent();
    let out = ctxc(&["render", "."], dir.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), format!("You are a helpful assistant.\n\nCall the billing API with {SECRET}.\n"), "the user's own preview, exactly");
    assert_eq!(
        stderr(&out),
        "SEC001\n\n  ⚠ core.md:3:27: the prompt on stdout holds what looks like an OpenAI API key (`sk-p…`), unmasked\n  help: this output is the prompt exactly, secrets included: keep it out of logs, issues and\n        commits; remove the secret from the prompt sources and rotate it\n\n"
    );
    let json = ctxc(&["render", ".", "--format", "json"], dir.path(), &[]);
    assert_eq!(json.status.code(), Some(0));
    assert!(stdout(&json).contains(SECRET));
    assert_eq!(stderr(&json), stderr(&out));
    // The steps table does not show the prompt, so there is nothing to warn of.
    let steps = ctxc(&["render", ".", "--steps"], dir.path(), &[]);
    assert_eq!((steps.status.code(), stderr(&steps)), (Some(0), String::new()));
}

/// A secret no file holds (put together by a template) is placed in the rendered prompt itself.
#[test]
fn a_secret_made_by_a_template_is_located_in_the_output() {
    let (head, tail) = SECRET.split_at(8);
    let manifest = MANIFEST.replace("core.md", "core.md.j2");
    let dir = project(&[("ctxc.toml", &manifest), ("core.md.j2", &format!("Intro.\n\nKey: {{{{ \"{head}\" ~ \"{tail}\" }}}}\n"))]);
    let out = ctxc(&["render", "."], dir.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains(SECRET));
    let err = stderr(&out);
    assert!(err.contains("SEC001") && err.contains("⚠ <rendered prompt>:3:6: the prompt on stdout holds what looks like an OpenAI API key (`sk-p…`)"), "{err}");
    assert_masked(&err);
    let snapshot = ctxc(&["snapshot", "."], dir.path(), &[]);
    assert_eq!(snapshot.status.code(), Some(1));
    let err = stderr(&snapshot);
    // Line 12 of the snapshot file: its header takes nine lines.
    assert!(err.contains("× .ctxc/snapshots/default.default.md:12:6: what looks like an OpenAI API key (`sk-p…`) would be"), "{err}");
    assert_masked(&err);
    assert!(!dir.path().join(".ctxc").exists());
}

#[test]
fn snapshot_refuses_to_write_a_secret_and_writes_nothing() {
    let dir = leaky_agent();
    let before = walk(dir.path());
    let out = ctxc(&["snapshot", "."], dir.path(), &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "SEC001\n\n  × core.md:3:27: what looks like an OpenAI API key (`sk-p…`) would be written to .ctxc/snapshots/\n  │ default.default.md\n  help: no snapshot was written: snapshot files are meant to be committed. Remove the secret from\n        the prompt sources and rotate it, or pass --allow-secrets to write it anyway\n\n"
    );
    assert_eq!(walk(dir.path()), before, "no snapshot, no lock, no folder");
    assert!(!dir.path().join(".ctxc").exists());
}

/// Several agents: one secret in one of them, found in every mode that holds it, and not one file
/// written for any agent, not even over snapshots written before.
#[test]
fn one_leaking_agent_stops_the_snapshot_of_every_agent() {
    let modes = "\n[modes.ask]\n\n[modes.plan]\n";
    let dir = project(&[
        ("a/ctxc.toml", &MANIFEST.replace("fixture", "a")),
        ("a/core.md", "Clean.\n"),
        ("b/ctxc.toml", &format!("{}{modes}", MANIFEST.replace("fixture", "b"))),
        ("b/core.md", "Clean for now.\n"),
    ]);
    let first = ctxc(&["snapshot", "."], dir.path(), &[]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let snapshots: Vec<(std::path::PathBuf, Vec<u8>)> = walk(dir.path()).into_iter().map(|p| (p.clone(), std::fs::read(&p).expect("read"))).collect();
    std::fs::write(dir.path().join("a/core.md"), "Clean, and longer now.\n").expect("write");
    std::fs::write(dir.path().join("b/core.md"), format!("Use {SECRET} here.\n")).expect("write");
    let out = ctxc(&["snapshot", "."], dir.path(), &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "SEC001\n\n  × ./b/core.md:1:5: what looks like an OpenAI API key (`sk-p…`) would be written to ./b/.ctxc/\n  │ snapshots/ask.default.md and 1 other snapshot file\n  help: no snapshot was written: snapshot files are meant to be committed. Remove the secret from\n        the prompt sources and rotate it, or pass --allow-secrets to write it anyway\n\n",
        "one secret, reported once"
    );
    let after: Vec<(std::path::PathBuf, Vec<u8>)> = walk(dir.path()).into_iter().map(|p| (p.clone(), std::fs::read(&p).expect("read"))).collect();
    let changed: Vec<_> = after.iter().filter(|f| !snapshots.contains(f)).map(|(p, _)| p).collect();
    assert_eq!(changed, [&dir.path().join("a/core.md"), &dir.path().join("b/core.md")], "only the sources changed");
}

#[test]
fn allow_secrets_writes_the_snapshot_and_still_warns() {
    let dir = leaky_agent();
    let out = ctxc(&["snapshot", ".", "--allow-secrets"], dir.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "fixture: 1 snapshot in .ctxc/snapshots (1 written, 0 unchanged); ctxc.lock written\n");
    let err = stderr(&out);
    assert!(err.contains("⚠ core.md:3:27: what looks like an OpenAI API key (`sk-p…`) is written to .ctxc/snapshots/"), "{err}");
    assert_masked(&err);
    let written = std::fs::read_to_string(dir.path().join(".ctxc/snapshots/default.default.md")).expect("snapshot written");
    assert!(written.contains(SECRET));
}

/// Only what the snapshot would hold counts: a secret in a file the prompt does not use (here a
/// comment in the manifest, which `check` reports as SEC006) does not stop it.
#[test]
fn a_secret_outside_the_prompt_does_not_stop_the_snapshot() {
    let manifest = format!("# api_key = \"9f8Kq2Lm4Np7Rt1VwYb5\"\n{MANIFEST}");
    let dir = project(&[("ctxc.toml", &manifest), ("core.md", "Clean.\n")]);
    let check = ctxc(&["check", "."], dir.path(), &[]);
    assert_eq!(check.status.code(), Some(1));
    assert!(stderr(&check).contains("SEC006"), "{}", stderr(&check));
    let out = ctxc(&["snapshot", "."], dir.path(), &[]);
    assert_eq!((out.status.code(), stderr(&out)), (Some(0), String::new()));
    assert!(dir.path().join(".ctxc/snapshots/default.default.md").is_file());
}
