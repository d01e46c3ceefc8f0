//! Hostile conditions around the CLI (issue 12): a reader that closes the pipe early, unrelated
//! `CTXC_…` variables in the environment, and secrets in what `render` prints and `snapshot`
//! writes. Real invocations of the binary, colour off.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};

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
