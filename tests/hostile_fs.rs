//! Hostile file systems and git trees: what a pull request can put in front of ctxc in CI. Each
//! case runs the binary in a scratch project next to a canary folder and asserts the exit code,
//! the diagnostic naming the file (and place), and that the canary was neither changed, added to
//! nor printed. Every run is killed after a time limit, so a hang fails instead of blocking.
#![cfg(unix)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Far above any of these runs (each takes well under a second of work): only a hang reaches it.
const TIME_LIMIT: Duration = Duration::from_secs(20);
/// What the canary holds: a tool list, so that a read of it as a tool file, a lock or a prompt
/// would show this name.
const CANARY: &str = r#"[{"type":"function","function":{"name":"canary_7f3a","description":"CANARY-7f3a: never read","parameters":{"type":"object","properties":{}}}}]"#;

/// A scratch folder: `project/` (a repository top, marked by `.git`), `canary/secret.json`
/// beside it, and `tmp/` for ctxc's temporary folders (so that a checkout's `../..` is inside
/// the scratch folder too).
struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().expect("tempdir");
        for sub in ["project/.git", "canary", "tmp"] {
            std::fs::create_dir_all(dir.path().join(sub)).expect("mkdir");
        }
        std::fs::write(dir.path().join("canary/secret.json"), CANARY).expect("write");
        Scratch { dir }
    }

    /// A scratch folder whose project is a real git repository (for `diff --base`).
    fn repository() -> Scratch {
        let s = Scratch::new();
        std::fs::remove_dir(s.project().join(".git")).expect("rmdir");
        s.git(&["init", "-q", "."]);
        s
    }

    fn project(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    fn canary(&self) -> PathBuf {
        self.dir.path().join("canary/secret.json")
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.project().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }

    fn link(&self, target: &Path, rel: &str) {
        let path = self.project().join(rel);
        let _ = std::fs::remove_file(&path);
        std::os::unix::fs::symlink(target, path).expect("symlink");
    }

    fn fifo(&self, rel: &str) {
        let path = self.project().join(rel);
        let _ = std::fs::remove_file(&path);
        let c = std::ffi::CString::new(path.into_os_string().into_encoded_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
    }

    /// Runs ctxc in the project (or a folder of it) with extra environment variables.
    fn ctxc(&self, args: &[&str], cwd: &str, env: &[(&str, &str)]) -> Run {
        let mut command = Command::new(env!("CARGO_BIN_EXE_ctxc"));
        command.args(args).current_dir(self.project().join(cwd)).env("NO_COLOR", "1").env("TMPDIR", self.dir.path().join("tmp"));
        command.envs(env.iter().copied()).env_remove("GITHUB_STEP_SUMMARY");
        let run = Run(run_with_limit(command));
        self.assert_canary_untouched(&run);
        run
    }

    fn git(&self, args: &[&str]) -> String {
        let mut command = Command::new("git");
        command
            .args(["-c", "user.name=ctxc tests", "-c", "user.email=tests@ctxc.invalid", "-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(self.project())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null");
        let out = run_with_limit(command);
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// The canary folder holds the canary, unchanged, and nothing else; no output shows it.
    fn assert_canary_untouched(&self, run: &Run) {
        assert_eq!(std::fs::read_to_string(self.canary()).expect("canary"), CANARY);
        let names: Vec<String> = std::fs::read_dir(self.dir.path().join("canary"))
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["secret.json"], "nothing written next to the canary");
        for text in [run.stdout(), run.stderr()] {
            assert!(!text.contains("7f3a"), "the canary was printed:\n{text}");
        }
    }
}

/// Runs git in the project with `input` on its standard input (objects and trees for hostile
/// commits); its output.
fn git_input(s: &Scratch, args: &[&str], input: &str) -> String {
    let mut child = Command::new("git").args(args).current_dir(s.project()).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("git");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), input.as_bytes()).expect("write");
    String::from_utf8_lossy(&child.wait_with_output().expect("git").stdout).trim().to_string()
}

/// Runs a command to its end, killing it (and failing) after [`TIME_LIMIT`].
fn run_with_limit(mut command: Command) -> Output {
    let mut child = command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawns");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).expect("read output");
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("stderr")));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} did not finish within {TIME_LIMIT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output { status, stdout: stdout.join().expect("stdout"), stderr: stderr.join().expect("stderr") }
}

struct Run(Output);

impl Run {
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.0.stdout).into_owned()
    }

    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.0.stderr).into_owned()
    }

    /// Exit 2, nothing on stdout, and every piece of `expected` on stderr (read with the
    /// diagnostic's line wrapping undone).
    fn refused(&self, expected: &[&str]) {
        let stderr = self.stderr();
        assert_eq!(self.0.status.code(), Some(2), "stdout:\n{}\nstderr:\n{stderr}", self.stdout());
        assert!(self.0.stdout.is_empty(), "no partial output: {}", self.stdout());
        let unwrapped = stderr.replace('│', " ").split_whitespace().collect::<Vec<_>>().join(" ");
        for piece in expected {
            assert!(unwrapped.contains(piece), "`{piece}` missing from:\n{stderr}");
        }
    }
}

const AGENT: &str = "[agent]\nname = \"demo\"\n\n[pipeline]\nsteps = [{ id = \"core\", kind = \"module\" }]\n\n[modules.core]\nsource = \"core.md\"\n";

/// A project with one agent in `agent/`, snapshotted.
fn snapshotted() -> Scratch {
    let s = Scratch::new();
    s.write("agent/ctxc.toml", AGENT);
    s.write("agent/core.md", "You are a helpful assistant.\n");
    let run = s.ctxc(&["snapshot", "agent"], ".", &[]);
    assert_eq!(run.0.status.code(), Some(0), "{}", run.stderr());
    assert_eq!(s.ctxc(&["check", "--locked", "agent"], ".", &[]).0.status.code(), Some(0));
    s
}

// ---- git trees for `diff --base`

#[test]
fn diff_never_writes_through_a_committed_link() {
    let s = Scratch::repository();
    s.write("agent/ctxc.toml", AGENT);
    s.write("agent/core.md", "You are a helpful assistant.\n");
    // A link `zz` to the canary's folder and, in the same tree, a file `zz/evil.md`.
    let hash = |text: &str| git_input(&s, &["hash-object", "-w", "--stdin"], text);
    let mktree = |listing: String| git_input(&s, &["mktree"], &listing);
    let link = hash(s.dir.path().join("canary").to_str().expect("utf-8"));
    let evil = mktree(format!("100644 blob {}\tevil.md\n", hash("evil\n")));
    let agent = mktree(format!("100644 blob {}\tctxc.toml\n100644 blob {}\tcore.md\n", hash(AGENT), hash("Before.\n")));
    let tree = mktree(format!("040000 tree {agent}\tagent\n120000 blob {link}\tzz\n040000 tree {evil}\tzz\n"));
    let commit = s.git(&["commit-tree", &tree, "-m", "hostile"]);
    let run = s.ctxc(&["diff", "--base", &commit, "."], ".", &[]);
    run.refused(&["refusing the tree: `zz` is listed twice"]);
    // From the agent's folder only that folder is extracted: the link is never written at all.
    let run = s.ctxc(&["diff", "--base", &commit, "agent"], ".", &[]);
    assert_eq!(run.0.status.code(), Some(0), "{}", run.stderr());
    assert!(run.stdout().contains("+You are a helpful assistant."), "{}", run.stdout());
}

#[test]
fn diff_never_follows_a_committed_link_to_an_agent_folder() {
    let s = Scratch::repository();
    // Outside the project, a manifest that would print the canary's mark.
    let elsewhere = s.dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).expect("mkdir");
    let outside = "[agent]\nname = \"demo\"\n\n[pipeline]\nsteps = [{ id = \"core\", kind = \"text\", text = \"CANARY-7f3a\" }]\n";
    std::fs::write(elsewhere.join("ctxc.toml"), outside).expect("write");
    s.link(&elsewhere, "agent");
    s.git(&["add", "-A"]);
    s.git(&["commit", "-qm", "agent is a link"]);
    std::fs::remove_file(s.project().join("agent")).expect("remove");
    s.write("agent/ctxc.toml", AGENT);
    s.write("agent/core.md", "Now.\n");
    let run = s.ctxc(&["diff", "--base", "HEAD", "agent"], ".", &[]);
    assert_eq!(run.0.status.code(), Some(0), "{}", run.stderr());
    assert!(run.stdout().starts_with("demo (ctxc.toml): added"), "{}", run.stdout());
}

#[test]
fn diff_reads_no_blob_over_the_limit_and_no_tree_over_the_bounds() {
    let s = Scratch::repository();
    s.write("agent/ctxc.toml", AGENT);
    s.write("agent/core.md", &"x".repeat(5 * 1024 * 1024));
    s.git(&["add", "-A"]);
    s.git(&["commit", "-qm", "a big module"]);
    s.write("agent/core.md", "Now.\n");
    let run = s.ctxc(&["diff", "--base", "HEAD", "agent"], ".", &[]);
    run.refused(&["the project at HEAD cannot be rendered", "`core.md` is 5242880 bytes, over the 4194304-byte limit", "HEAD:agent/ctxc.toml:8:10"]);
    // One more file than the extraction takes, all in one tree.
    let blob = s.git(&["hash-object", "-w", "agent/core.md"]);
    let listing: String = (0..=100_000).map(|i| format!("100644 blob {blob}\tf{i:06}.md\n")).collect();
    let tree = git_input(&s, &["mktree"], &listing);
    let commit = s.git(&["commit-tree", &tree, "-m", "many files"]);
    s.ctxc(&["diff", "--base", &commit, "."], ".", &[]).refused(&["more than 100000 files to read: pass the agent's own folder as PATH"]);
}

#[test]
fn diff_base_with_a_root_above_the_repository_is_refused() {
    let s = Scratch::repository();
    // Committed: a root three levels up, which in the checkout (tmp/ctxc-diff-…/agent) is the
    // scratch folder, and a module reaching the canary from there.
    s.write("agent/ctxc.toml", &AGENT.replace("core.md", "../../../canary/secret.json").replace("[agent]", "[project]\nroot = \"../../..\"\n\n[agent]"));
    s.git(&["add", "-A"]);
    s.git(&["commit", "-qm", "hostile"]);
    s.write("agent/ctxc.toml", AGENT);
    s.write("agent/core.md", "Now.\n");
    let run = s.ctxc(&["diff", "--base", "HEAD", "agent"], ".", &[]);
    run.refused(&["the project at HEAD cannot be rendered", "MAN003", "HEAD:agent/ctxc.toml:2:8", "climbs out of the project", "the highest root allowed here is `..`"]);
}

// ---- `[project] root`

#[test]
fn a_root_above_the_repository_is_refused_at_its_value() {
    let s = Scratch::new();
    s.write("agent/ctxc.toml", &AGENT.replace("core.md", "../../canary/secret.json").replace("[agent]", "[project]\nroot = \"../..\"\n\n[agent]"));
    let run = s.ctxc(&["render", "agent"], ".", &[]);
    run.refused(&["MAN003", "agent/ctxc.toml:2:8", "`../..` climbs out of the project: the highest root allowed here is `..`", "the top of the git work tree"]);
    // Up to the top is fine; the module still may not leave it.
    s.write("agent/ctxc.toml", &AGENT.replace("core.md", "../../canary/secret.json").replace("[agent]", "[project]\nroot = \"..\"\n\n[agent]"));
    s.ctxc(&["render", "agent"], ".", &[]).refused(&["MAN003", "points outside the project root", "agent/ctxc.toml:11:10"]);
}

#[test]
fn a_root_set_on_the_command_line_or_in_the_environment_is_refused() {
    let s = Scratch::new();
    s.write("agent/ctxc.toml", &AGENT.replace("core.md", "../../canary/secret.json"));
    for root in ["../..", "../../../../../../../../../../../.."] {
        let set = format!("project.root={root}");
        let run = s.ctxc(&["cost", "--set", &set, "agent"], ".", &[]);
        run.refused(&["MAN003", "[project] root (set by --set or CTXC_PROJECT__ROOT)", "agent/ctxc.toml", "climbs out of the project"]);
        let run = s.ctxc(&["cost", "agent"], ".", &[("CTXC_PROJECT__ROOT", root)]);
        run.refused(&["MAN003", "[project] root (set by --set or CTXC_PROJECT__ROOT)", "climbs out of the project"]);
    }
}

#[test]
fn outside_git_the_root_stops_at_the_folder_ctxc_runs_in() {
    let s = Scratch::new();
    std::fs::remove_dir(s.project().join(".git")).expect("rmdir");
    s.write("agent/ctxc.toml", &AGENT.replace("[agent]", "[project]\nroot = \"..\"\n\n[agent]"));
    s.write("agent/core.md", "Core.\n");
    let run = s.ctxc(&["render", "agent"], ".", &[]);
    assert_eq!(run.0.status.code(), Some(0), "{}", run.stderr());
    s.ctxc(&["render", "."], "agent", &[]).refused(&["MAN003", "ctxc.toml:2:8", "the folder ctxc was started in"]);
}

// ---- ctxc.lock

#[test]
fn a_lock_linked_out_of_the_project_is_not_read() {
    let s = snapshotted();
    for target in [s.canary(), PathBuf::from("/etc/passwd")] {
        s.link(&target, "agent/ctxc.lock");
        let run = s.ctxc(&["check", "--locked", "agent"], ".", &[]);
        run.refused(&["agent/ctxc.lock", "`ctxc.lock` points outside the project root"]);
        assert!(!run.stderr().contains("root:"), "{}", run.stderr());
        // Writing snapshots neither reads it nor writes through it.
        s.ctxc(&["snapshot", "agent"], ".", &[]).refused(&["agent/ctxc.lock", "points outside the project root"]);
        assert!(std::fs::symlink_metadata(s.project().join("agent/ctxc.lock")).is_ok_and(|m| m.file_type().is_symlink()));
    }
}

#[test]
fn a_lock_linked_to_dev_zero_is_refused_without_reading() {
    let s = snapshotted();
    s.link(Path::new("/dev/zero"), "agent/ctxc.lock");
    s.ctxc(&["check", "--locked", "agent"], ".", &[]).refused(&["agent/ctxc.lock", "points outside the project root"]);
}

#[test]
fn a_lock_that_is_a_fifo_does_not_block() {
    let s = snapshotted();
    s.fifo("agent/ctxc.lock");
    s.ctxc(&["check", "--locked", "agent"], ".", &[]).refused(&["agent/ctxc.lock", "`ctxc.lock` is not a regular file"]);
    s.ctxc(&["snapshot", "agent"], ".", &[]).refused(&["agent/ctxc.lock", "is not a regular file"]);
}

#[test]
fn an_oversized_lock_is_refused() {
    let s = snapshotted();
    let lock = std::fs::read_to_string(s.project().join("agent/ctxc.lock")).expect("lock");
    let padded = format!("{lock}{}", "# padding\n".repeat(5 * 1024 * 1024 / 10));
    s.write("agent/ctxc.lock", &padded);
    s.ctxc(&["check", "--locked", "agent"], ".", &[]).refused(&["agent/ctxc.lock", &format!("is {} bytes, over the 4194304-byte limit", padded.len())]);
}

// ---- snapshot files

#[test]
fn snapshot_files_linked_out_of_the_project_are_refused() {
    let s = snapshotted();
    let snapshot = "agent/.ctxc/snapshots/default.default.md";
    s.link(&s.canary(), snapshot);
    s.ctxc(&["check", "--locked", "agent"], ".", &[]).refused(&[snapshot, "points outside the project root"]);
    s.ctxc(&["snapshot", "agent"], ".", &[]).refused(&[snapshot, "points outside the project root"]);
    s.fifo(snapshot);
    s.ctxc(&["check", "--locked", "agent"], ".", &[]).refused(&[snapshot, "is not a regular file"]);
}

// ---- the manifest

#[test]
fn a_manifest_that_is_a_fifo_or_a_folder_is_refused() {
    for make in ["fifo", "folder"] {
        let s = Scratch::new();
        match make {
            "fifo" => s.fifo("ctxc.toml"),
            _ => std::fs::create_dir(s.project().join("ctxc.toml")).expect("mkdir"),
        }
        for command in ["check", "render", "cost"] {
            s.ctxc(&[command], ".", &[]).refused(&["ctxc.toml", "`ctxc.toml` is not a regular file"]);
        }
        if make == "fifo" {
            s.ctxc(&["check", "ctxc.toml"], ".", &[]).refused(&["`ctxc.toml` is not a regular file"]);
        }
    }
}

// ---- tool files named on the command line

#[test]
fn cost_of_a_tool_file_linked_out_is_refused() {
    let s = Scratch::new();
    s.link(&s.canary(), "tools.json");
    s.ctxc(&["cost", "tools.json"], ".", &[]).refused(&["tools.json", "`tools.json` points outside the project root"]);
    // In a folder of tool files (a link is not listed there, a FIFO is no file): the same rules.
    s.write("tools/ok.json", "[]");
    s.link(&s.canary(), "tools/out.json");
    s.fifo("tools/fifo.json");
    let run = s.ctxc(&["cost", "tools"], ".", &[]);
    assert_eq!(run.0.status.code(), Some(0), "{}", run.stderr());
    assert!(run.stdout().starts_with("0 tools"), "{}", run.stdout());
    s.link(Path::new("/dev/zero"), "zero.json");
    s.ctxc(&["cost", "zero.json"], ".", &[]).refused(&["zero.json", "points outside the project root"]);
}
