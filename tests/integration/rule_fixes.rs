//! The fixes the links, skills, instructions and Kiro rules attach: applied to a project, each makes its
//! finding disappear and changes nothing else. Also the cases a fixture cannot hold: a symbolic
//! link (SKILL021; links are not committed), and a SKILL.md at the root of the project checked
//! (fixtures hold skills in folders).

use std::path::Path;

use ctxc::lint::{check, CheckReport, Options};
use ctxc::rules::Code;

fn write(project: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let full = project.join(path);
        std::fs::create_dir_all(full.parent().expect("parent")).expect("mkdir");
        std::fs::write(full, text).expect("write");
    }
}

fn run(project: &Path) -> CheckReport {
    check(project, &Options::default(), &ctxc::Session::default())
}

/// Writes `files` to a temporary project, applies the fix of the one finding with `code` (all
/// its edits are in `file`), checks again (the finding must be gone, and no other appear) and
/// returns the fixed text.
fn fixed(files: &[(&str, &str)], code: Code, file: &str) -> String {
    let project = tempfile::tempdir().expect("tempdir");
    write(project.path(), files);
    let before = run(project.path());
    let found: Vec<_> = before.diagnostics.iter().filter(|d| d.code == Some(code)).collect();
    assert_eq!(found.len(), 1, "{:?}", before.diagnostics);
    let fix = found[0].fix.as_ref().expect("a fix");
    let path = project.path().join(file);
    let mut text = std::fs::read_to_string(&path).expect("read");
    let mut edits = fix.edits.clone();
    edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
    for edit in edits {
        assert!(edit.file.ends_with(file), "{file}: the fix edits {}", edit.file);
        text.replace_range(edit.span, &edit.replacement);
    }
    std::fs::write(&path, &text).expect("write");
    let after = run(project.path());
    let codes = |r: &CheckReport| r.diagnostics.iter().filter_map(|d| d.code).filter(|c| *c != code).collect::<Vec<_>>();
    assert!(after.diagnostics.iter().all(|d| d.code != Some(code)), "{:?}", after.diagnostics);
    assert_eq!(codes(&after), codes(&before), "the fix changes no other finding");
    text
}

#[test]
fn link006_writes_the_name_as_on_disk() {
    let files = [("AGENTS.md", "Read [the guide](docs/Style.md#rules).\n"), ("docs/style.md", "# Rules\n")];
    assert_eq!(fixed(&files, Code::LINK006, "AGENTS.md"), "Read [the guide](docs/style.md#rules).\n");
}

#[test]
fn link007_writes_slashes() {
    let files = [("AGENTS.md", "See [the guide](docs\\guide.md).\n"), ("docs/guide.md", "# Guide\n")];
    assert_eq!(fixed(&files, Code::LINK007, "AGENTS.md"), "See [the guide](docs/guide.md).\n");
}

#[test]
fn skill022_writes_slashes() {
    let skill = "---\nname: pdf\ndescription: Extract text from PDF files. Use when the user shares a PDF.\n---\nRun `python scripts\\extract.py`.\n";
    let files = [("pdf/SKILL.md", skill), ("pdf/scripts/extract.py", "print(1)\n")];
    assert!(fixed(&files, Code::SKILL022, "pdf/SKILL.md").ends_with("Run `python scripts/extract.py`.\n"));
}

#[test]
fn instr009_imports_the_file() {
    let files = [("CLAUDE.md", "AGENTS.md\n"), ("AGENTS.md", "# Guide\n\nRun `make test`.\n")];
    assert_eq!(fixed(&files, Code::INSTR009, "CLAUDE.md"), "@AGENTS.md\n");
}

#[cfg(unix)]
#[test]
fn kiro005_writes_comma_joined_globs_as_a_list() {
    let files = [(".kiro/steering/ui.md", "---\ninclusion: fileMatch\nfileMatchPattern: '*.tsx, *.jsx'\n---\nUse hooks.\n")];
    let text = fixed(&files, Code::KIRO005, ".kiro/steering/ui.md");
    assert_eq!(text, "---\ninclusion: fileMatch\nfileMatchPattern: [\"*.tsx\", \"*.jsx\"]\n---\nUse hooks.\n");
}

#[cfg(unix)]
#[test]
fn kiro009_renames_a_kiro_2_trigger_to_its_kiro_3_name() {
    let hooks = "{\n  \"version\": \"v1\",\n  \"hooks\": [{ \"name\": \"lint\", \"trigger\": \"fileEdited\", \"action\": { \"type\": \"command\", \"command\": \"npm run lint\" } }]\n}\n";
    let text = fixed(&[(".kiro/hooks/lint.json", hooks)], Code::KIRO009, ".kiro/hooks/lint.json");
    assert_eq!(text, hooks.replace("\"fileEdited\"", "\"PostFileSave\""));
}

#[test]
fn skill021_reports_a_symbolic_link_leading_out_of_the_skill() {
    let project = tempfile::tempdir().expect("tempdir");
    let skill = "---\nname: release\ndescription: Cut a release. Use when the user asks to publish a version.\n---\nFollow references/checklist.md.\n";
    write(project.path(), &[("skills/release/SKILL.md", skill), ("docs/checklist.md", "# Checklist\n")]);
    std::fs::create_dir_all(project.path().join("skills/release/references")).expect("mkdir");
    std::os::unix::fs::symlink("../../../docs/checklist.md", project.path().join("skills/release/references/checklist.md")).expect("link");
    let report = run(project.path());
    let found: Vec<&str> = report.diagnostics.iter().filter(|d| d.code == Some(Code::SKILL021)).map(|d| d.message.as_str()).collect();
    assert_eq!(found, ["`references/checklist.md` in the skill is a symbolic link to `docs/checklist.md`, outside the skill's folder"]);
}

/// The bundle findings (SKILL017 and after) of a check, as (code, message).
fn bundle_findings(report: &CheckReport) -> Vec<(Code, String)> {
    let bundle = |c: &Code| c.as_str().starts_with("SKILL0") && c.as_str() >= "SKILL017";
    report.diagnostics.iter().filter_map(|d| d.code.filter(bundle).map(|c| (c, d.message.clone()))).collect()
}

#[test]
fn a_skill_at_the_top_of_a_repository_bundles_only_the_specification_folders() {
    let project = tempfile::tempdir().expect("tempdir");
    let skill = "---\nname: tools\ndescription: Extract text from PDF files. Use when the user shares a PDF.\n---\nSee [the API guide](references/api.md).\n";
    let files = [
        ("SKILL.md", skill),
        ("references/api.md", "# API\n\nEndpoints.\n"),
        ("docs/a.md", "# A\n\nSee b.md.\n"),
        ("docs/b.md", "# B\n\nNotes.\n"),
    ];
    write(project.path(), &files);
    std::fs::create_dir(project.path().join(".git")).expect("mkdir");
    let bundle = bundle_findings(&run(project.path()));
    assert!(bundle.is_empty(), "{bundle:?}");
}

#[test]
fn a_skills_findings_do_not_depend_on_the_folder_checked() {
    // SKILL019 and SKILL020 appeared only when a parent folder was checked.
    let project = tempfile::tempdir().expect("tempdir");
    let skill =
        "---\nname: tools\ndescription: Extract text from PDF files. Use when the user shares a PDF.\n---\nRead [the guide](guide.md).\n";
    let large = format!("# Manual\n\n{}", "Every page of the manual says a great deal about the tools. ".repeat(12_000));
    let files = [
        ("skills/tools/SKILL.md", skill),
        ("skills/tools/guide.md", "# Guide\n\nThen read manual.md.\n"),
        ("skills/tools/manual.md", &large),
    ];
    write(project.path(), &files);
    let from_parent = bundle_findings(&run(project.path()));
    let codes: Vec<Code> = from_parent.iter().map(|(c, _)| *c).collect();
    assert_eq!(codes, [Code::SKILL019, Code::SKILL020], "{from_parent:?}");
    assert_eq!(bundle_findings(&run(&project.path().join("skills/tools"))), from_parent);
    assert_eq!(bundle_findings(&run(&project.path().join("skills"))), from_parent);
}
