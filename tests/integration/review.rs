//! Prompt changes under review, end to end in scratch git repositories: `ctxc snapshot` and
//! `ctxc check --locked`, drift of exactly the edited section, `ctxc diff --base REV` (Markdown,
//! JSON, added and removed agents, modes and sections, `--fail-on-increase`, a project root above
//! PATH) leaving the work tree and the index alone, snapshots that remove only what ctxc owns,
//! and a snapshot killed at any point never leaving a truncated file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::copy_tree;
use ctxc::review::{atomic, lock, snapshot};
use serde_json::Value;

fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn ctxc(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ctxc")).args(args).current_dir(cwd).env("NO_COLOR", "1").output().expect("ctxc runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs git in `cwd` with a fixed identity and no user configuration; its stdout.
pub(crate) fn git(args: &[&str], cwd: &Path) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=ctxc tests",
            "-c",
            "user.email=tests@ctxc.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(cwd)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Appends a line to a file, as an edit under review.
fn append(path: &Path, line: &str) {
    let mut text = std::fs::read_to_string(path).expect("read");
    text.push_str(line);
    std::fs::write(path, text).expect("edit");
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// A scratch repository holding a copy of examples/agents/zeus at `agents/zeus`, committed.
fn zeus_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_tree(&repo_root().join("examples/agents/zeus"), &dir.path().join("agents/zeus"));
    git(&["init", "-q"], dir.path());
    git(&["add", "-A"], dir.path());
    git(&["commit", "-qm", "zeus"], dir.path());
    dir
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| entries.map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

/// The index file's bytes and modification time, and what `git status` shows (run without
/// optional locks, so that it does not refresh the index itself).
fn repository_state(dir: &Path) -> (Vec<u8>, std::time::SystemTime, String) {
    let index = dir.join(".git/index");
    let modified = std::fs::metadata(&index).expect("index").modified().expect("mtime");
    let bytes = std::fs::read(&index).expect("index");
    let status = Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=all"])
        .current_dir(dir)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .output()
        .expect("git status");
    (bytes, modified, String::from_utf8_lossy(&status.stdout).into_owned())
}

#[test]
fn snapshot_lock_drift_and_diff_of_one_edited_module() {
    let repo = zeus_repo();
    let root = repo.path();
    let agent = root.join("agents/zeus");

    let out = ctxc(&["snapshot", "agents/zeus"], root);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "zeus: 6 snapshots in agents/zeus/.ctxc/snapshots (6 written, 0 unchanged); agents/zeus/ctxc.lock written\n");
    let names = files_in(&agent.join(".ctxc/snapshots"));
    assert_eq!(
        names,
        ["agent.connected.md", "agent.default.md", "ask.connected.md", "ask.default.md", "plan.connected.md", "plan.default.md"]
    );
    let rendered = ctxc(&["render", "--mode", "plan", "agents/zeus"], root);
    let plan =
        snapshot::parse_file(&std::fs::read_to_string(agent.join(".ctxc/snapshots/plan.default.md")).expect("read")).expect("parses");
    assert_eq!(format!("{}\n", plan.prompt), stdout(&rendered), "the snapshot holds the exact prompt");
    let lock_text = std::fs::read_to_string(agent.join("ctxc.lock")).expect("lock");
    let locked = lock::parse(&lock_text, "ctxc.lock").unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
    assert_eq!(locked.pin.prompts.len(), 6);

    let clean = ctxc(&["check", "--locked", "agents/zeus"], root);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    assert!(clean.stdout.is_empty());
    assert!(!stderr(&clean).contains("drifted"), "{}", stderr(&clean));
    let again = ctxc(&["snapshot", "agents/zeus"], root);
    assert_eq!(
        stdout(&again),
        "zeus: 6 snapshots in agents/zeus/.ctxc/snapshots (0 written, 6 unchanged); agents/zeus/ctxc.lock unchanged\n"
    );
    git(&["add", "-A"], root);
    git(&["commit", "-qm", "snapshots"], root);

    // Edit one module: exactly that section drifts, in every mode and scenario that uses it.
    append(&agent.join("prompts/soul.md"), "\nWhen a number looks wrong, say so before you use it.\n");
    let drift = ctxc(&["check", "--locked", "agents/zeus"], root);
    assert_eq!(drift.status.code(), Some(1), "{}", stderr(&drift));
    let report = stderr(&drift);
    assert!(report.contains("+When a number looks wrong, say so before you use it."), "{report}");
    for id in ["core", "tools", "workflow", "memory", "mode", "time", "skills", "connectors", "mcp", "profile", "memories", "resources"] {
        assert!(!report.contains(&format!("\n    {id} ")), "only soul changed, yet {id} is listed:\n{report}");
    }
    assert_eq!(report.matches("\n    soul ").count(), 6, "{report}");
    assert_snapshot!("check_locked_drift", report);

    let before = repository_state(root);
    let diff = ctxc(&["diff", "--base", "HEAD", "--format", "markdown", "agents/zeus"], root);
    assert_eq!(diff.status.code(), Some(0), "{}", stderr(&diff));
    assert_eq!(repository_state(root), before, "diff leaves the work tree and the index as they were");
    let markdown = stdout(&diff);
    assert_snapshot!("diff_markdown", markdown);

    // The same delta in JSON, from inside the agent's folder, as in check --locked.
    let json = ctxc(&["diff", "--base", "HEAD", "--format", "json", "."], &agent);
    assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
    assert_eq!(repository_state(root), before);
    let value: Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(value["changed"], true);
    let prompts = value["agents"][0]["prompts"].as_array().expect("prompts");
    assert_eq!(prompts.len(), 6);
    for prompt in prompts {
        let changed: Vec<&Value> = prompt["sections"].as_array().expect("sections").iter().filter(|s| s["status"] != "unchanged").collect();
        assert_eq!(changed.len(), 1, "{prompt}");
        assert_eq!(changed[0]["id"], "soul");
        let delta = changed[0]["tokens"]["delta"].as_i64().expect("delta");
        assert!(delta > 0);
        assert!(markdown.contains(&format!(
            "| `zeus` | `{}` | `{}` | `soul` |",
            prompt["mode"].as_str().expect("mode"),
            prompt["scenario"].as_str().expect("scenario")
        )));
        assert!(markdown.contains(&format!("| +{delta} |")), "{markdown}");
        assert!(report.contains(&format!("+{delta}")), "check --locked shows the same delta");
        assert_eq!(prompt["system_prompt"]["delta"], prompt["total"]["delta"], "tools did not change");
    }

    // Accepting the change makes check --locked pass again.
    assert_eq!(ctxc(&["snapshot", "agents/zeus"], root).status.code(), Some(0));
    assert_eq!(ctxc(&["check", "--locked", "agents/zeus"], root).status.code(), Some(0));
}

/// The base: agent `demo` (modes a, b; steps core, extra, mode) and agent `gone`. The work
/// tree: `demo` with modes a, c and steps core, new, mode, a longer core, and agent `fresh`.
fn demo_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let manifest = |modes: &[&str], extra: &str| {
        let mut m = format!(
            "[agent]\nname = \"demo\"\nmodel = \"gpt-4o\"\n\n[pipeline]\nsteps = [\n  {{ id = \"core\", kind = \"module\" }},\n  {{ id = \"{extra}\", kind = \"module\" }},\n  {{ id = \"mode\", kind = \"mode_prompt\" }},\n]\n\n[modules]\ncore = {{ source = \"core.md\" }}\n{extra} = {{ source = \"{extra}.md\" }}\n"
        );
        for mode in modes {
            m.push_str(&format!("\n[modes.{mode}]\nprompt = \"{mode}.md\"\n"));
        }
        m
    };
    write(&root.join("agents/demo/ctxc.toml"), &manifest(&["a", "b"], "extra"));
    write(&root.join("agents/demo/core.md"), "You are a demo agent.\n");
    write(&root.join("agents/demo/extra.md"), "An extra section that will be removed.\n");
    for mode in ["a", "b", "c"] {
        write(&root.join(format!("agents/demo/{mode}.md")), &format!("You are in mode {mode}.\n"));
    }
    write(
        &root.join("agents/gone/ctxc.toml"),
        "[agent]\nname = \"gone\"\n\n[pipeline]\nsteps = [{ id = \"core\", kind = \"text\", text = \"Soon removed.\" }]\n",
    );
    git(&["init", "-q"], root);
    git(&["add", "-A"], root);
    git(&["commit", "-qm", "base"], root);
    write(&root.join("agents/demo/ctxc.toml"), &manifest(&["a", "c"], "new"));
    write(&root.join("agents/demo/core.md"), "You are a demo agent. You answer in one short paragraph, and you cite the file you read.\n");
    write(&root.join("agents/demo/new.md"), "A new section.\n");
    std::fs::remove_dir_all(root.join("agents/gone")).expect("remove gone");
    write(
        &root.join("agents/fresh/ctxc.toml"),
        "[agent]\nname = \"fresh\"\n\n[pipeline]\nsteps = [{ id = \"core\", kind = \"text\", text = \"Just added.\" }]\n",
    );
    dir
}

#[test]
fn diff_shows_added_and_removed_agents_modes_and_sections() {
    let repo = demo_repo();
    let root = repo.path();
    let before = repository_state(root);
    let json = ctxc(&["diff", "--base", "HEAD", "--format", "json", "agents"], root);
    assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
    let value: Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let agents: Vec<(&str, &str)> = value["agents"]
        .as_array()
        .expect("agents")
        .iter()
        .map(|a| (a["path"].as_str().expect("path"), a["status"].as_str().expect("status")))
        .collect();
    assert_eq!(agents, [("demo/ctxc.toml", "changed"), ("fresh/ctxc.toml", "added"), ("gone/ctxc.toml", "removed")]);
    let demo = &value["agents"][0];
    let prompts: Vec<(&str, &str)> = demo["prompts"]
        .as_array()
        .expect("prompts")
        .iter()
        .map(|p| (p["mode"].as_str().expect("mode"), p["status"].as_str().expect("status")))
        .collect();
    assert_eq!(prompts, [("a", "changed"), ("b", "removed"), ("c", "added")]);
    let sections: Vec<(&str, &str)> = demo["prompts"][0]["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .map(|s| (s["id"].as_str().expect("id"), s["status"].as_str().expect("status")))
        .collect();
    assert_eq!(sections, [("core", "changed"), ("extra", "removed"), ("new", "added"), ("mode", "unchanged")]);
    assert_eq!(demo["prompts"][1]["total"]["after"], Value::Null);
    assert_eq!(demo["prompts"][2]["total"]["before"], Value::Null);

    let text = ctxc(&["diff", "--base", "HEAD", "agents"], root);
    assert_eq!(text.status.code(), Some(0));
    assert_snapshot!("diff_added_removed_text", stdout(&text));
    assert_eq!(repository_state(root), before);

    // Growth gates: mode a grew by a few tokens, mode c (and agent fresh) are new.
    let grown = value["agents"][0]["prompts"][0]["total"]["delta"].as_i64().expect("delta");
    assert!(grown > 0);
    let gate = |limit: &str| ctxc(&["diff", "--base", "HEAD", "--fail-on-increase", limit, "agents"], root);
    let huge = gate("100000");
    assert_eq!(huge.status.code(), Some(0), "{}", stderr(&huge));
    let tight = gate(&(grown - 1).to_string());
    assert_eq!(tight.status.code(), Some(1));
    assert!(stderr(&tight).contains("demo a · default"), "{}", stderr(&tight));
    let percent = gate("1%");
    assert_eq!(percent.status.code(), Some(1), "mode a grew by far more than 1 %");
    assert!(!stderr(&percent).contains("c · default"), "percentages apply to prompts on both sides only: {}", stderr(&percent));
    assert_eq!(gate("1000%").status.code(), Some(0));
    let bad = gate("lots");
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("is not a token count"), "{}", stderr(&bad));
}

/// `ctxc diff --baseline FILE` says what a change does to the baseline, by code and file: an
/// added entry is a finding `check --baseline` stops reporting, so the comment names it.
#[test]
fn diff_lists_the_entries_a_change_adds_to_and_removes_from_the_baseline() {
    let repo = zeus_repo();
    let root = repo.path();
    let entry = |code: &str, file: &str, message: &str, fingerprint: &str| serde_json::json!({ "code": code, "file": file, "message": message, "fingerprint": fingerprint });
    let baseline = |entries: Vec<Value>| serde_json::json!({ "ctxc_baseline": 1, "findings": entries }).to_string();
    let old = entry("INSTR004", "agents/zeus/prompts/core.md", "first person", "aa");
    write(&root.join("ctxc-baseline.json"), &baseline(vec![old.clone()]));
    git(&["add", "-A"], root);
    git(&["commit", "-qm", "baseline"], root);
    let diff =
        |format: &str| ctxc(&["diff", "--base", "HEAD", "--baseline", "ctxc-baseline.json", "--format", format, "agents/zeus"], root);
    let out = diff("text");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stdout(&out).contains("baseline"), "nothing said when it did not change: {}", stdout(&out));

    let added = entry("SKILL004", "agents/zeus/skills/x/SKILL.md", "a name | with a pipe", "bb");
    write(&root.join("ctxc-baseline.json"), &baseline(vec![added]));
    let text = stdout(&diff("text"));
    assert!(text.contains("baseline ctxc-baseline.json: 1 added"), "{text}");
    assert!(text.contains("added: SKILL004 in agents/zeus/skills/x/SKILL.md"), "{text}");
    assert!(text.contains("removed: INSTR004 in agents/zeus/prompts/core.md"), "{text}");
    let markdown = stdout(&diff("markdown"));
    assert!(markdown.contains("**This change adds 1 finding to the baseline**"), "{markdown}");
    assert!(markdown.contains("| added | `SKILL004` | `agents/zeus/skills/x/SKILL.md` | a name \\| with a pipe |"), "{markdown}");
    let json: Value = serde_json::from_slice(&diff("json").stdout).expect("JSON");
    assert_eq!(json["baseline"]["added"][0]["code"], "SKILL004");
    assert_eq!(
        json["baseline"]["removed"][0],
        serde_json::json!({ "code": "INSTR004", "file": "agents/zeus/prompts/core.md", "message": "first person" })
    );
}

#[test]
fn diff_reads_a_project_root_above_path_at_the_revision() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    copy_tree(&repo_root().join("examples/agents/zeph"), &root.join("work/zeph"));
    git(&["init", "-q"], root);
    git(&["add", "-A"], root);
    git(&["commit", "-qm", "zeph"], root);
    append(&root.join("work/zeph/ZEPH.md"), "\nNever change the payout schedule without a migration note.\n");
    // PATH is the agent two levels below the project root the manifest names.
    let out = ctxc(&["diff", "--base", "HEAD", "--format", "json", "work/zeph/services/payouts"], root);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let value: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    for prompt in value["agents"][0]["prompts"].as_array().expect("prompts") {
        let changed: Vec<&str> = prompt["sections"]
            .as_array()
            .expect("sections")
            .iter()
            .filter(|s| s["status"] != "unchanged")
            .map(|s| s["id"].as_str().expect("id"))
            .collect();
        assert_eq!(changed, ["project_context"], "{prompt}");
        assert!(prompt["diff"].as_str().expect("diff").contains("+Never change the payout schedule"));
    }
}

#[test]
fn diff_outside_a_repository_or_with_an_unknown_revision_is_an_input_error() {
    let repo = zeus_repo();
    let unknown = ctxc(&["diff", "--base", "no-such-branch", "agents/zeus"], repo.path());
    assert_eq!(unknown.status.code(), Some(2));
    assert!(unknown.stdout.is_empty());
    assert!(stderr(&unknown).contains("`no-such-branch` is not a commit"), "{}", stderr(&unknown));
    let option = ctxc(&["diff", "--base=--output=x", "agents/zeus"], repo.path());
    assert_eq!(option.status.code(), Some(2));
    assert!(!repo.path().join("x").exists());
    // A revision whose manifest does not load: its diagnostics name the file as REV:path.
    let manifest = repo.path().join("agents/zeus/ctxc.toml");
    let good = std::fs::read_to_string(&manifest).expect("manifest");
    std::fs::write(&manifest, good.replace("[agent]", "[agnet]")).expect("break");
    git(&["commit", "-qam", "broken"], repo.path());
    std::fs::write(&manifest, &good).expect("fix");
    let broken = ctxc(&["diff", "--base", "HEAD", "agents/zeus"], repo.path());
    assert_eq!(broken.status.code(), Some(2));
    assert!(broken.stdout.is_empty());
    assert!(stderr(&broken).contains("the project at HEAD cannot be rendered"), "{}", stderr(&broken));
    assert!(stderr(&broken).contains("HEAD:agents/zeus/ctxc.toml:"), "{}", stderr(&broken));
    assert!(!stderr(&broken).contains("ctxc-diff-"), "no temporary path: {}", stderr(&broken));
    let outside = tempfile::tempdir().expect("tempdir");
    copy_tree(&repo_root().join("tests/fixtures/render/minimal"), outside.path());
    let not_git = ctxc(&["diff", "--base", "HEAD", "."], outside.path());
    assert_eq!(not_git.status.code(), Some(2));
    assert!(stderr(&not_git).contains("is not in a git repository"), "{}", stderr(&not_git));
}

#[test]
fn check_locked_without_a_usable_lock_says_what_to_do() {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_tree(&repo_root().join("tests/fixtures/render/minimal"), dir.path());
    let missing = ctxc(&["check", "--locked", "."], dir.path());
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("agent `minimal` has no ctxc.lock"), "{}", stderr(&missing));
    assert!(stderr(&missing).contains("run `ctxc snapshot .`"), "{}", stderr(&missing));

    assert_eq!(ctxc(&["snapshot", "."], dir.path()).status.code(), Some(0));
    let lock_path = dir.path().join("ctxc.lock");
    let good = std::fs::read_to_string(&lock_path).expect("lock");
    std::fs::write(&lock_path, good.replace("tokens = ", "tokens = \"")).expect("corrupt");
    let corrupt = ctxc(&["check", "--locked", "."], dir.path());
    assert_eq!(corrupt.status.code(), Some(2));
    assert!(stderr(&corrupt).contains("ctxc.lock:"), "names file, line and column: {}", stderr(&corrupt));
    assert_snapshot!("check_locked_corrupt_lock", stderr(&corrupt));

    // A snapshot file edited by hand is drift too.
    std::fs::write(&lock_path, &good).expect("restore");
    let snap = dir.path().join(".ctxc/snapshots/default.default.md");
    let edited = std::fs::read_to_string(&snap).expect("snapshot").replace("helpful", "helpfull");
    std::fs::write(&snap, edited).expect("edit");
    let out = ctxc(&["check", "--locked", "."], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("is not a valid snapshot: its text no longer matches the sha256"), "{}", stderr(&out));
    std::fs::remove_file(&snap).expect("remove");
    let out = ctxc(&["check", "--locked", "."], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("default.default.md` is missing"), "{}", stderr(&out));
}

#[test]
fn snapshot_removes_only_the_files_it_owns() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let manifest = |modes: &[&str]| {
        let mut m = String::from("[agent]\nname = \"demo\"\n\n[pipeline]\nsteps = [{ id = \"core\", kind = \"text\", text = \"Hello.\" }, { id = \"mode\", kind = \"mode_prompt\" }]\n");
        for mode in modes {
            m.push_str(&format!("\n[modes.{mode}]\nprompt = \"{mode}.md\"\n"));
        }
        m
    };
    for mode in ["a", "b"] {
        write(&root.join(format!("{mode}.md")), &format!("Mode {mode}.\n"));
    }
    write(&root.join("ctxc.toml"), &manifest(&["a", "b"]));
    assert_eq!(ctxc(&["snapshot"], root).status.code(), Some(0));
    let snaps = root.join(".ctxc/snapshots");
    assert_eq!(files_in(&snaps), ["a.default.md", "b.default.md"]);
    // Files ctxc does not own: a note, a Markdown file without the header, a temp-like name
    // that is not ctxc's.
    write(&snaps.join("NOTES.txt"), "mine\n");
    write(&snaps.join("c.default.md"), "# my own notes, not a snapshot\n");
    write(&snaps.join("d.default.md.ctxc-tmp-1"), "not hidden, so not ctxc's\n");

    write(&root.join("ctxc.toml"), &manifest(&["a"]));
    let out = ctxc(&["snapshot"], root);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "demo: 1 snapshot in .ctxc/snapshots (0 written, 1 unchanged, 1 removed); ctxc.lock written\n  removed .ctxc/snapshots/b.default.md\n");
    assert_eq!(files_in(&snaps), ["NOTES.txt", "a.default.md", "c.default.md", "d.default.md.ctxc-tmp-1"]);

    // Moving the folder with --dir: the owned files of the old folder go, the rest stays.
    let out = ctxc(&["snapshot", "--dir", "snaps"], root);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(files_in(&root.join("snaps")), ["a.default.md"]);
    assert_eq!(files_in(&snaps), ["NOTES.txt", "c.default.md", "d.default.md.ctxc-tmp-1"]);
    let locked = lock::parse(&std::fs::read_to_string(root.join("ctxc.lock")).expect("lock"), "ctxc.lock").expect("parses");
    assert_eq!(locked.snapshots, "snaps");
    // check --locked reads the folder the lock names (the manifest still says the default).
    let out = ctxc(&["check", "--locked"], root);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    std::fs::remove_file(root.join("snaps/a.default.md")).expect("remove");
    let out = ctxc(&["check", "--locked"], root);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("snapshot `snaps/a.default.md` is missing"), "{}", stderr(&out));
    write(&root.join("ctxc.toml"), &format!("{}\n[snapshot]\ndir = \"snaps\"\n", manifest(&["a"])));
    let out = ctxc(&["snapshot"], root);
    assert_eq!(stdout(&out), "demo: 1 snapshot in snaps (1 written, 0 unchanged); ctxc.lock unchanged\n");
    assert_eq!(ctxc(&["check", "--locked"], root).status.code(), Some(0));

    // A folder outside the project root is refused, with the place it was set.
    write(&root.join("ctxc.toml"), &format!("{}\n[snapshot]\ndir = \"../elsewhere\"\n", manifest(&["a"])));
    let out = ctxc(&["snapshot"], root);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(stderr(&out).contains("ctxc.toml:") && stderr(&out).contains("points outside the project"), "{}", stderr(&out));
    let out = ctxc(&["snapshot", "--dir", "../x"], root);
    assert_eq!(out.status.code(), Some(2));
    assert!(!root.parent().expect("parent").join("x").exists());
}

#[cfg(unix)]
#[test]
fn a_snapshot_folder_symlinked_out_of_the_project_is_refused() {
    let outside = tempfile::tempdir().expect("tempdir");
    let dir = tempfile::tempdir().expect("tempdir");
    copy_tree(&repo_root().join("tests/fixtures/render/minimal"), dir.path());
    std::fs::create_dir(dir.path().join(".ctxc")).expect("mkdir");
    std::os::unix::fs::symlink(outside.path(), dir.path().join(".ctxc/snapshots")).expect("symlink");
    let out = ctxc(&["snapshot", "."], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("points outside the project"), "{}", stderr(&out));
    assert!(files_in(outside.path()).is_empty(), "nothing written outside");
}

/// Every snapshot and lock file present parses completely (old or new content, never cut).
fn assert_complete(agent: &Path) -> usize {
    let mut temps = 0;
    for folder in [agent.join(".ctxc/snapshots"), agent.to_path_buf()] {
        for name in files_in(&folder) {
            let path = folder.join(&name);
            if atomic::is_temp_name(&name) {
                temps += 1;
            } else if folder != agent {
                let text = std::fs::read_to_string(&path).expect("read");
                snapshot::parse_file(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            } else if name == lock::LOCK_NAME {
                let text = std::fs::read_to_string(&path).expect("read");
                lock::parse(&text, &name).unwrap_or_else(|f| panic!("{name}: {:?}", f.diagnostics));
            }
        }
    }
    temps
}

#[test]
fn killing_snapshot_midway_never_leaves_a_truncated_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let agent = dir.path().join("zeus");
    copy_tree(&repo_root().join("examples/agents/zeus"), &agent);
    let soul = agent.join("prompts/soul.md");
    let original = std::fs::read_to_string(&soul).expect("soul");
    let writing = |path: &Path| files_in(path).iter().any(|n| atomic::is_temp_name(n));
    let mut left_temps = 0;
    let mut killed_while_writing = 0;
    // Offsets after the first temporary file appears; the first run is killed while rendering.
    let offsets: [Option<u64>; 12] =
        [None, Some(0), Some(5), Some(15), Some(30), Some(50), Some(80), Some(120), Some(170), Some(230), Some(300), Some(400)];
    for (i, offset) in offsets.iter().enumerate() {
        // A different text every time, so every run rewrites every file.
        std::fs::write(&soul, format!("{original}\nRevision {i}.\n")).expect("edit");
        let mut child = Command::new(env!("CARGO_BIN_EXE_ctxc"))
            .args(["snapshot", "zeus"])
            .env("_CTXC_TEST_PAUSE_MS", "25")
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        if let Some(offset) = offset {
            let start = Instant::now();
            while !writing(&agent.join(".ctxc/snapshots")) && !writing(&agent) && start.elapsed() < Duration::from_secs(30) {
                if child.try_wait().expect("poll").is_some() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            std::thread::sleep(Duration::from_millis(*offset));
        }
        let was_running = child.try_wait().expect("poll").is_none();
        child.kill().expect("kill");
        child.wait().expect("reaped");
        if was_running && offset.is_some() {
            killed_while_writing += 1;
        }
        left_temps += assert_complete(&agent);
    }
    eprintln!(
        "{killed_while_writing} of {} runs killed while writing; {left_temps} temporary file(s) found after the kills",
        offsets.len()
    );
    assert!(killed_while_writing >= 6, "most runs were killed while writing ({killed_while_writing})");
    assert!(left_temps > 0, "some runs were killed half-way through a temporary file");
    // The next run cleans up after the killed ones and leaves a consistent state.
    let out = ctxc(&["snapshot", "zeus"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(assert_complete(&agent), 0, "no temporary file is left");
    let check = ctxc(&["check", "--locked", "zeus"], dir.path());
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
}

#[test]
fn snapshot_of_a_directory_of_agents_writes_nothing_when_one_fails() {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_tree(&repo_root().join("tests/fixtures/render/minimal"), &dir.path().join("good"));
    copy_tree(&repo_root().join("tests/fixtures/errors/missing-file"), &dir.path().join("bad"));
    let out = ctxc(&["snapshot", "."], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(stderr(&out).contains("ctxc.toml:"), "{}", stderr(&out));
    let written: Vec<PathBuf> = walkdir::WalkDir::new(dir.path())
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .filter(|p| p.ends_with("ctxc.lock") || p.to_string_lossy().contains(".ctxc"))
        .collect();
    assert!(written.is_empty(), "{written:?}");
}

/// An estimated agent's diff shows the range each sum lies in, as its cost does: in the text,
/// the Markdown comment and the JSON; an exact agent's shows none.
#[test]
fn diff_of_an_estimated_agent_shows_the_band_of_each_sum() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    let manifest = |model: &str| {
        format!("[agent]\nname = \"demo\"\nmodel = \"{model}\"\n\n[pipeline]\nsteps = [{{ id = \"core\", kind = \"module\" }}]\n\n[modules]\ncore = {{ source = \"core.md\" }}\n")
    };
    write(&root.join("claude/ctxc.toml"), &manifest("claude-sonnet-4-5"));
    write(&root.join("openai/ctxc.toml"), &manifest("gpt-4o"));
    for agent in ["claude", "openai"] {
        write(&root.join(format!("{agent}/core.md")), "You are a demo agent.\n");
    }
    git(&["init", "-q"], root);
    git(&["add", "-A"], root);
    git(&["commit", "-qm", "base"], root);
    for agent in ["claude", "openai"] {
        write(&root.join(format!("{agent}/core.md")), "You are a demo agent. Answer in one short paragraph.\n");
    }
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&ctxc(&["diff", "--base", "HEAD", "--format", "json"], root))).expect("JSON");
    let prompt =
        |path: &str| json["agents"].as_array().expect("agents").iter().find(|a| a["path"] == path).expect(path)["prompts"][0].clone();
    let (claude, openai) = (prompt("claude/ctxc.toml"), prompt("openai/ctxc.toml"));
    let after = claude["system_prompt"]["after"].as_i64().expect("after");
    let band = &claude["bands"]["system_prompt"];
    assert!(band["low"].as_i64() < Some(after) && Some(after) < band["high"].as_i64(), "{claude}");
    assert!(openai.get("bands").is_none(), "an exact count has no band: {openai}");
    let text = stdout(&ctxc(&["diff", "--base", "HEAD"], root));
    let shown = format!("system prompt (±{} %: {} to {})", band["percent"], band["low"], band["high"]);
    assert!(text.contains(&shown), "{text}");
    let markdown = stdout(&ctxc(&["diff", "--base", "HEAD", "--format", "markdown"], root));
    assert!(markdown.contains(&format!("| **system prompt** (±{} %: ", band["percent"])), "{markdown}");
    assert!(markdown.contains("| `demo` | `default` | `default` | **system prompt** |"), "the exact agent's row has no band: {markdown}");
}
