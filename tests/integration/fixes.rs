//! `ctxc check --fix`: every rule with a fix has `tests/fixtures/rules/<CODE>/fix/{before,after}`;
//! fixing a copy of `before/` must give `after/` byte for byte, make the finding go away and
//! leave every other finding as it was. Also: `--diff` writes nothing, writes are atomic and
//! keep links and permissions, and one defect gives one finding (the regressions of issue 17).

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ctxc::diagnostic::Applicability;
use ctxc::lint::{CheckReport, Options};
use ctxc::rules::{self, Code};

fn check(dir: &Path) -> CheckReport {
    ctxc::lint::check(dir, &Options::default(), &ctxc::Session::default())
}

/// How many findings of each code.
fn counts(report: &CheckReport) -> BTreeMap<Code, usize> {
    let mut counts = BTreeMap::new();
    for code in report.diagnostics.iter().filter_map(|d| d.code) {
        *counts.entry(code).or_default() += 1;
    }
    counts
}

/// Runs ctxc in `dir` (paths in messages are relative to it), colour off.
fn ctxc_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ctxc")).args(args).current_dir(dir).env("NO_COLOR", "1").output().expect("ctxc runs")
}

/// Every file below `dir` with its bytes, by path relative to `dir`.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    common::walk(dir).into_iter().map(|p| (p.strip_prefix(dir).expect("inside").to_path_buf(), std::fs::read(&p).expect("read"))).collect()
}

#[test]
fn every_fix_gives_its_expected_result_and_changes_nothing_else() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules");
    let mut tested = Vec::new();
    for rule in rules::ALL {
        let code = rule.code;
        let fix = base.join(code.as_str()).join("fix");
        if !fix.is_dir() {
            continue;
        }
        let work = tempfile::tempdir().expect("tempdir");
        common::copy_tree(&fix.join("before"), work.path());
        let before = check(work.path());
        let found = before.diagnostics.iter().filter(|d| d.code == Some(code)).collect::<Vec<_>>();
        assert!(!found.is_empty(), "{code}: fix/before does not report it");
        let fixes: Vec<_> = found.iter().filter_map(|d| d.fix.as_ref()).collect();
        assert_eq!(fixes.len(), found.len(), "{code}: a finding in fix/before has no fix");
        let unsafe_fix = fixes.iter().any(|f| f.applicability == Applicability::Unsafe);
        if unsafe_fix {
            // Unsafe fixes wait for `--unsafe-fixes`.
            let out = ctxc_in(work.path(), &["check", "--fix", "--quiet", "."]);
            assert_eq!(tree(work.path()), tree(&fix.join("before")), "{code}: --fix alone applied an unsafe fix: {out:?}");
        }
        let args: &[&str] = if unsafe_fix { &["check", "--fix", "--unsafe-fixes", "."] } else { &["check", "--fix", "."] };
        let out = ctxc_in(work.path(), args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&format!("; {} fixed (", found.len())), "{code}: {stderr}");
        assert_eq!(tree(work.path()), tree(&fix.join("after")), "{code}: the fixed files differ from fix/after ({stderr})");

        let after = check(work.path());
        let mut expected = counts(&before);
        expected.remove(&code);
        assert_eq!(counts(&after), expected, "{code}: the fix changed other findings: {:?}", after.diagnostics);
        tested.push(code);
    }
    // Every rule whose failing fixture gets a fix has a fix/ fixture: no fix goes untested.
    let mut with_fixes = Vec::new();
    for rule in rules::ALL {
        let report = check(&base.join(rule.code.as_str()).join("fail"));
        if report.diagnostics.iter().any(|d| d.code == Some(rule.code) && d.fix.is_some()) {
            with_fixes.push(rule.code);
        }
    }
    let untested: Vec<&Code> = with_fixes.iter().filter(|c| !tested.contains(c)).collect();
    assert!(untested.is_empty(), "add tests/fixtures/rules/CODE/fix/{{before,after}} for {untested:?}");
    assert!(tested.contains(&Code::SKILL012) && tested.len() >= 6, "{tested:?}");
}

/// A copy of `SKILL012/fix/before`, where `--fix` has one safe fix to make.
fn fixable_project() -> tempfile::TempDir {
    let work = tempfile::tempdir().expect("tempdir");
    common::copy_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules/SKILL012/fix/before"), work.path());
    work
}

#[test]
fn diff_prints_the_change_and_writes_nothing() {
    let work = fixable_project();
    let untouched = tree(work.path());
    let out = ctxc_in(work.path(), &["check", "--diff", "."]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let diff = String::from_utf8_lossy(&out.stdout);
    assert!(diff.starts_with("--- a/skills/notes/SKILL.md\n+++ b/skills/notes/SKILL.md\n"), "{diff}");
    assert!(diff.contains("\n-Description: Take") && diff.contains("\n+description: Take"), "{diff}");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "ctxc check: would fix 1 finding in 1 file\n");
    assert_eq!(tree(work.path()), untouched);

    ctxc_in(work.path(), &["check", "--fix", "."]);
    let out = ctxc_in(work.path(), &["check", "--diff", "."]);
    assert_eq!((out.status.code(), out.stdout.is_empty()), (Some(0), true), "nothing left to change: {out:?}");
}

#[test]
fn diff_never_prints_a_secret_and_fix_still_applies_beside_one() {
    let work = fixable_project();
    let skill = work.path().join("skills/notes/SKILL.md");
    let token = format!("ghp_{}", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8");
    let text = std::fs::read_to_string(&skill).expect("read").replace("# Notes\n", &format!("# Notes\nexport GITHUB_TOKEN={token}\n"));
    std::fs::write(&skill, &text).expect("write");
    let out = ctxc_in(work.path(), &["check", "--diff", "."]);
    let diff = String::from_utf8_lossy(&out.stdout);
    assert!(diff.contains("+description: Take") && diff.contains(" export GITHUB_TOKEN=ghp_****"), "{diff}");
    assert!(!diff.contains(&token[4..]), "the token is printed: {diff}");
    // The file on disk keeps its secret: `--fix` edits the real text, not the masked one.
    ctxc_in(work.path(), &["check", "--fix", "."]);
    assert_eq!(std::fs::read_to_string(&skill).expect("read"), text.replace("Description:", "description:"));
}

/// A PATH through a symbolic link to the manifest's folder, with `[project] root = ".."`: the
/// memory file above it is shown through the link (`sub/link/../AGENTS.md`, which names it), not
/// as `sub/AGENTS.md`, another file with the same finding. Fixes touch only the file checked.
#[cfg(unix)]
#[test]
fn a_path_through_a_link_names_the_file_checked_and_fixes_edit_only_it() {
    let manifest = "[agent]\nname = \"wf\"\nmodel = \"gpt-4o\"\n\n[project]\nroot = \"..\"\n\n[pipeline]\nsteps = [\n  { id = \"core\", kind = \"module\" },\n  { id = \"project\", kind = \"memory_files\" },\n]\n\n[modules]\ncore = { source = \"core.md\" }\n\n[memory]\nfiles = [\"../AGENTS.md\"]\n";
    let work = common::project(&[
        ("sub/ctxc.toml", manifest),
        ("sub/core.md", "You are a helpful assistant.\n"),
        ("AGENTS.md", "# Notes\n\nSee [the guide](docs\\guide.md).\n"),
        ("docs/guide.md", "# Guide\n"),
        ("sub/AGENTS.md", "# Other file\n\nSee [the guide](docs\\guide.md).\nmore\n"),
    ]);
    std::os::unix::fs::symlink(".", work.path().join("sub/link")).expect("symlink");
    let out = ctxc_in(work.path(), &["check", "--format", "concise", "--quiet", "sub/link"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "sub/link/../AGENTS.md:3:17: LINK007 [warning] link `docs\\guide.md` uses backslashes as path separators\n\
         sub/link/AGENTS.md:3:17: LINK007 [warning] link `docs\\guide.md` uses backslashes as path separators\n"
    );
    let top = std::fs::read_to_string(work.path().join("AGENTS.md")).expect("read");
    ctxc_in(work.path(), &["check", "--fix", "sub/link"]);
    assert_eq!(std::fs::read_to_string(work.path().join("AGENTS.md")).expect("read"), top, "outside the checked folder");
    assert_eq!(
        std::fs::read_to_string(work.path().join("sub/AGENTS.md")).expect("read"),
        "# Other file\n\nSee [the guide](docs/guide.md).\nmore\n"
    );
}

#[test]
fn fix_and_diff_together_stdin_and_unsafe_fixes_alone_are_usage_errors() {
    let stdin = ["check", "--fix", "-", "--stdin-filename", "skills/notes/SKILL.md"];
    for args in [&["check", "--fix", "--diff", "."][..], &["check", "--unsafe-fixes", "."], &stdin] {
        let out = ctxc_in(&std::env::temp_dir(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_fix_replaces_the_file_atomically_and_keeps_its_link_and_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let work = fixable_project();
    let skill = work.path().join("skills/notes/SKILL.md");
    // The skill is a link to a file inside the project: the file it leads to is fixed.
    let real = work.path().join("notes.md");
    std::fs::rename(&skill, &real).expect("move");
    std::os::unix::fs::symlink("../../notes.md", &skill).expect("link");
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let out = ctxc_in(work.path(), &["check", "--fix", "."]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(std::fs::read_to_string(&real).expect("read").contains("\ndescription: Take"));
    assert!(std::fs::symlink_metadata(&skill).expect("meta").file_type().is_symlink(), "the link stays a link");
    assert_eq!(std::fs::metadata(&real).expect("meta").permissions().mode() & 0o777, 0o640);
    let names: Vec<PathBuf> = tree(work.path()).into_keys().collect();
    assert_eq!(names, [PathBuf::from("notes.md"), PathBuf::from("skills/notes/SKILL.md")], "no temporary file left");
}

#[test]
fn one_pair_of_case_variant_keys_is_one_finding() {
    let skill = |name: &str| format!("---\nName: {name}\nname: notes\ndescription: Take meeting notes from a transcript.\n---\n");
    let work = common::project(&[("skills/notes/SKILL.md", &skill("Notes"))]);
    let report = check(work.path());
    let found: Vec<(Option<Code>, &str)> = report.diagnostics.iter().map(|d| (d.code, d.message.as_str())).collect();
    assert_eq!(found, [(Some(Code::SKILL012), "frontmatter keys `Name` and `name` differ only by case")]);
    assert!(report.diagnostics[0].fix.is_none(), "which of two values to keep is the author's choice");

    // With the same value, the copy goes (a safe fix).
    let work = common::project(&[("skills/notes/SKILL.md", &skill("notes"))]);
    let out = ctxc_in(work.path(), &["check", "--fix", "."]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let fixed = std::fs::read_to_string(work.path().join("skills/notes/SKILL.md")).expect("read");
    assert_eq!(fixed, "---\nname: notes\ndescription: Take meeting notes from a transcript.\n---\n");
}

#[test]
fn a_top_level_dict_type_is_one_finding() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules/TOOL008/fail");
    let manifest = std::fs::read_to_string(fixture.join("ctxc.toml")).expect("manifest");
    let tools = r#"[{ "name": "save", "description": "Save a report.", "parameters": { "type": "dict", "properties": { "data": { "type": "dict" } } } }]"#;
    let work = common::project(&[("ctxc.toml", &manifest), ("core.md", "You are a helpful assistant.\n"), ("tools.json", tools)]);
    let report = check(work.path());
    let found: Vec<(Option<Code>, &str)> = report.diagnostics.iter().map(|d| (d.code, d.message.as_str())).collect();
    // The top-level `dict` is TOOL006's (not an object schema); the nested one TOOL008's.
    assert_eq!(
        found,
        [
            (Some(Code::TOOL006), "the parameter schema of tool `save` (category `files`) has `\"type\": \"dict\"` (JSON Schema's name is `object`): it must be an object schema"),
            (Some(Code::TOOL008), "tool `save` (category `files`) uses type `dict` at `/properties/data`, which is not a JSON Schema type"),
        ],
    );
}
