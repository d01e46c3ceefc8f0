//! The CLI as a user types it, run by trycmd; the expected output is in files beside each case,
//! so a change of output is a reviewable change of those files (regenerate them with
//! `TRYCMD=overwrite cargo test --test cmd` and read the diff).
//!
//! - `tests/cmd/*.toml`: one command line from the repository's root, its exit code, and its
//!   whole stdout and stderr (`NAME.stdout`, `NAME.stderr`).
//! - `tests/cmd/*.md`: terminal sessions in a scratch folder each (`NAME.out` is the folder at
//!   the end): the first hour of a new user (`ctxc init`, an edit, `check`, `cost`, `snapshot`,
//!   another edit and `check --locked`, from the agent's folder and from a subfolder) and fixing
//!   a skill (`check --diff`, `--fix`, `--unsafe-fixes`). `sh` makes the edits and changes
//!   folder, finding ctxc through `$CTXC`; each session starts with `git init`, as a project
//!   lives in a repository (ctxc walks up to the agent only inside one).

#[path = "../common/mod.rs"]
mod common;

/// The cases matching `pattern`, run with ctxc and `sh` registered and colour off.
fn run(pattern: &str) {
    let ctxc = trycmd::cargo::cargo_bin!("ctxc");
    common::require_tool("git");
    trycmd::TestCases::new()
        .register_bin("ctxc", ctxc)
        .register_bin("sh", common::require_tool("sh"))
        .env("CTXC", ctxc.display().to_string())
        .env("NO_COLOR", "1")
        .case(pattern);
}

#[test]
fn commands() {
    run("tests/cmd/*.toml");
}

#[test]
fn sessions() {
    run("tests/cmd/*.md");
}
