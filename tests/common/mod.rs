//! Helpers shared by the integration tests (each test crate uses some of them).
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Every file below `dir`, sorted.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// Copies the folder `from` to `to`, recursively.
pub fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk");
        let target = to.join(entry.path().strip_prefix(from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The shared corpus beside the repository (`../shared/corpus`). CI always has it there, so its
/// absence fails the test with the reason instead of passing silently.
pub fn corpus() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    assert!(
        dir.join("INDEX.tsv").is_file(),
        "{} is absent: the tests read the shared corpus in place (clone it beside the repository)",
        dir.display()
    );
    dir
}

/// A command-line tool the test needs, found on PATH; fails with how to get it when missing.
/// Tests that need one are `#[ignore]`d with the reason and run by `scripts/test`, which
/// installs them first.
pub fn require_tool(name: &str) -> PathBuf {
    std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|p| p.join(name)).find(|p| p.is_file()))
        .unwrap_or_else(|| panic!("`{name}` is not installed: run `scripts/test`, which installs what the tests need"))
}

/// The Python interpreter of the environment `scripts/test` builds for the tokenizer cross-check
/// (`target/python/tiktoken`, from `scripts/python/tiktoken.txt`); fails with how to get it when
/// missing.
pub fn python() -> PathBuf {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/python/tiktoken/bin/python");
    assert!(python.is_file(), "{} is missing: run `scripts/test`, which creates it", python.display());
    python
}

/// A file or folder `scripts/runtimes` installs under `target/runtimes/` (a runtime's Python
/// environment, or a test-only crate's build); fails with how to get it when missing.
pub fn runtime_path(relative: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/runtimes").join(relative);
    assert!(
        path.exists(),
        "{} is missing: run `scripts/runtimes` (scripts/test does) before the differential tests; with CTXC_SKIP_RUNTIMES=1, scripts/test leaves them ignored",
        path.display()
    );
    path
}

/// A small project written to a temporary directory.
pub fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir
}

/// A readable line diff of what a real runtime produced and what ctxc produced (only the lines
/// that differ, line ends made visible).
pub fn runtime_diff(expected: &str, actual: &str) -> String {
    let mut out = String::new();
    for change in similar::TextDiff::from_lines(expected, actual).iter_all_changes() {
        let sign = match change.tag() {
            similar::ChangeTag::Delete => "-runtime ",
            similar::ChangeTag::Insert => "+ctxc    ",
            similar::ChangeTag::Equal => continue,
        };
        out.push_str(&format!("{sign}{:?}\n", change.value()));
    }
    out
}

/// The first `per_label` problems of each label (the text before a problem's first `:`, a fixture
/// and release), one a line: a differential test's failure stays readable when one difference
/// repeats on every call.
pub fn first_problems(problems: &[String], per_label: usize) -> String {
    let mut shown: Vec<&str> = Vec::new();
    for p in problems {
        let label = p.split(':').next().unwrap_or_default();
        if shown.iter().filter(|s| s.starts_with(label)).count() < per_label {
            shown.push(p);
        }
    }
    shown.join("\n")
}

/// Runs ctxc from the repository's root, colour off.
pub fn ctxc(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("ctxc runs")
}

/// Runs ctxc in `dir`, colour off, with `stdin` as its standard input.
pub fn ctxc_with_stdin(dir: &std::path::Path, args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ctxc"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("ctxc runs");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write stdin");
    child.wait_with_output().expect("ctxc ends")
}

/// The exit status of a child expected to end by itself within `timeout`; otherwise it is
/// killed and the test fails with `what` ("ctxc lsp after `exit`").
pub fn exit_within(child: &mut std::process::Child, timeout: std::time::Duration, what: &str) -> std::process::ExitStatus {
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            panic!("{what}: still running after {timeout:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Checks the README's "Proven per release" row of `release` (e.g. `deepagents 0.7.32`): it
/// exists and names `fixtures` fixtures, so the table stays what the differential tests compare.
pub fn assert_readme_release_row(release: &str, fixtures: usize) {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).expect("README.md");
    let row = readme.lines().find(|l| l.starts_with(&format!("| {release} |")));
    let Some(row) = row else { panic!("README.md's \"Proven per release\" table has no row `| {release} | …`") };
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    assert_eq!(
        cells.get(2).copied(),
        Some(fixtures.to_string().as_str()),
        "README.md: {release} is compared on {fixtures} fixtures: {row}"
    );
}

/// The fixture folders under `dir` (from the crate's root) holding a file `marker`, sorted.
pub fn fixture_dirs(dir: &str, marker: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut found: Vec<PathBuf> =
        std::fs::read_dir(&dir).expect("fixtures").flatten().map(|e| e.path()).filter(|p| p.join(marker).is_file()).collect();
    found.sort();
    found
}

/// A command's output read as JSON, after it succeeded (`what` names it in the failure).
pub fn json_of(out: std::process::Output, what: &str) -> serde_json::Value {
    assert!(out.status.success(), "{what} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{what}: not JSON ({e})"))
}

/// The strings of a JSON array (none for anything else).
pub fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(serde_json::Value::as_str).map(String::from).collect()).unwrap_or_default()
}

/// A differential test's runs (each its problems and a line of figures): prints the figures and
/// fails with the first problems of each label; returns the figures.
pub fn no_problems(runs: impl IntoIterator<Item = (Vec<String>, String)>) -> Vec<String> {
    let (mut problems, mut figures) = (Vec::new(), Vec::new());
    for (p, f) in runs {
        problems.extend(p);
        figures.push(f);
    }
    eprintln!("{}", figures.join("\n"));
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), first_problems(&problems, 4));
    figures
}

/// `ctxc simulate DIR --workload DIR/workload.toml --format json` with `env` set, as JSON.
pub fn simulate_json(dir: &Path, env: &[(&str, &str)], what: &str) -> serde_json::Value {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_ctxc"));
    command.arg("simulate").arg(dir).arg("--workload").arg(dir.join("workload.toml")).args(["--format", "json"]).env("NO_COLOR", "1");
    command.envs(env.iter().copied());
    json_of(command.output().expect("ctxc"), &format!("ctxc simulate {what}"))
}

/// `DIR/workload.toml`'s conversation written as JSON to `DIR/conversation.json` (what the
/// runtimes' harnesses replay); its path.
pub fn write_conversation(dir: &Path) -> PathBuf {
    let workload = std::fs::read_to_string(dir.join("workload.toml")).expect("workload");
    let conversation = ctxc::conversation::workload("workload.toml", &workload).expect("a valid workload");
    let file = dir.join("conversation.json");
    std::fs::write(&file, serde_json::to_string(&conversation).expect("json")).expect("write");
    file
}

/// The standard output of `cargo ARGS… --offline HOST_FLAG HOST` run in the repository, HOST being
/// this machine's platform (`--target`, `--filter-platform`): only its packages, the ones a build
/// here downloads (ctrlc's macOS dependencies, say, never are, and `--offline` would fail on them).
/// Fails with how to download them.
pub fn cargo_offline_for_host(args: &[&str], host_flag: &str) -> Vec<u8> {
    use std::process::Command;
    let rustc = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into())).arg("-vV").output().expect("run rustc -vV");
    let host = String::from_utf8_lossy(&rustc.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: ").map(str::to_string))
        .expect("rustc -vV names the host");
    let out = Command::new(env!("CARGO"))
        .args(args)
        .args(["--offline", host_flag, &host])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo");
    assert!(
        out.status.success(),
        "cargo {} --offline failed (every package of Cargo.lock must be downloaded: `cargo fetch --locked`, as scripts/test does):\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}
