//! The first hour of a new user, as terminal sessions (`tests/cmd/*.md`, run by trycmd in a
//! scratch folder each): `ctxc init`, an edit, `check`, `cost`, `snapshot`, another edit and
//! `check --locked`, from the agent's folder and from a subfolder; and fixing a skill
//! (`check --diff`, `--fix`, `--unsafe-fixes`). `sh` makes the edits and changes folder, finding
//! ctxc through `$CTXC`; each session starts with `git init`, as a project lives in a repository
//! (ctxc walks up to the agent only inside one).

#[path = "../common/mod.rs"]
mod common;

#[test]
fn first_hour() {
    let ctxc = trycmd::cargo::cargo_bin!("ctxc");
    common::require_tool("git");
    trycmd::TestCases::new()
        .register_bin("ctxc", ctxc)
        .register_bin("sh", common::require_tool("sh"))
        .env("CTXC", ctxc.display().to_string())
        .env("NO_COLOR", "1")
        .case("tests/cmd/*.md");
}
